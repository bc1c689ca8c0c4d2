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

/* The debug file of the module at path (elf: the module, as read), with
 * the module's build-id, under the debug directory dir: by build-id, then
 * by path. Returns 1 with the file mapped (or read and decompressed) in
 * *file and read in *delf, both the caller's to close; 0 when there is
 * none, with *refused NULL; or -ENOMEM. */
int ks_debugfile_find(const char *path, Elf *elf, const char *dir, struct ks_modfile *file,
		      Elf **delf, char **refused) KS_MUST_CHECK;

/* Whether ks_debugfile_find() may find a debug file for m, told from
 * m->debug and which files exist, without reading any: true when in
 * doubt. */
bool ks_debugfile_possible(const struct ks_module *m, const char *dir);

#endif
