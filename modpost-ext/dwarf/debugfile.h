/* A stripped module's separate debug file (ksunset(1), --debug-dir):
 * whether one may be there, and finding it where Debian's -dbg packages,
 * libdwfl and GDB put it. */
#ifndef KS_DEBUGFILE_H
#define KS_DEBUGFILE_H

#include <gelf.h>
#include <stdbool.h>

#include "compiler.h"
#include "module/elfmod.h"
#include "module/modfile.h"

/* The debug file of the module at path (elf: the module, as read), looked
 * for under the debug directory dir and beside the module, in the order of
 * places[] in debugfile.c: by build-id, by the module's path from
 * lib/modules/<release>/ on, by its .gnu_debuglink. A file must have the
 * module's build-id when the module has one; one that .gnu_debuglink
 * names must also have the link's CRC-32 (of its bytes, decompressed).
 * Returns 1 with the file mapped (or read and decompressed) in *file and
 * read in *delf, both the caller's to close; or 0 when there is none,
 * with *refused the first file .gnu_debuglink named whose CRC differed
 * (the caller's to free) or NULL. */
int ks_debugfile_find(const char *path, Elf *elf, const char *dir, struct ks_modfile *file,
		      Elf **delf, char **refused) KS_MUST_CHECK;

/* The file DIR/.build-id/xx/rest.debug of build-id id (n bytes), as
 * ks_debugfile_find() takes it: with that build-id, mapped in *file and
 * read in *elf, the caller's to close. 1, or 0 when there is none. dwz's
 * alternate files are found so too. */
int ks_debugfile_by_build_id(const char *dir, const unsigned char *id, size_t n,
			     struct ks_modfile *file, Elf **elf) KS_MUST_CHECK;

/* Whether ks_debugfile_find() may find a debug file for m, told from
 * m->debug and which files exist, without reading any: true when in
 * doubt. */
bool ks_debugfile_possible(const struct ks_module *m, const char *dir);

#endif
