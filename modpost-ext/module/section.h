/* Reading the sections of a module besides its symbol table. elfmod.c
 * walks the section headers once and hands each section that a row of its
 * reader table names to that row's reader; each reader lives in the file
 * of its concern (modinfo.c, records.c). */
#ifndef KS_SECTION_H
#define KS_SECTION_H

#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>

#include "compiler.h"
#include "diag.h"
#include "module/elfmod.h"

/* A section reader, given the object (elf: to reach the sections a
 * section links to, such as a relocation section's symbol table) and the
 * section. Problems that make the module unusable go to d; problems with
 * what it holds (a malformed record) go to late, which is reported only
 * for an otherwise usable module. 0 or -EINVAL. */
typedef int (*ks_section_fn)(struct ks_module *m, Elf *elf, Elf_Scn *scn, struct ks_diags *d,
			     struct ks_diags *late);

/* .modinfo: name, license, vermagic, import_ns. */
int ks_modinfo_read(struct ks_module *m, Elf *elf, Elf_Scn *scn, struct ks_diags *d,
		    struct ks_diags *late) KS_MUST_CHECK;
/* .note.ksunset: the plugin's records, as uses (source KS_SOURCE_PLUGIN). */
int ks_records_read(struct ks_module *m, Elf *elf, Elf_Scn *scn, struct ks_diags *d,
		    struct ks_diags *late) KS_MUST_CHECK;

/* .debug_info: m->debug.info; .gnu_debuglink, .note.gnu.build-id: the
 * rest of m->debug (module/debuginfo.c). Each returns 0. */
int ks_debug_info_seen(struct ks_module *m, Elf *elf, Elf_Scn *scn, struct ks_diags *d,
		       struct ks_diags *late);
int ks_debuglink_read(struct ks_module *m, Elf *elf, Elf_Scn *scn, struct ks_diags *d,
		      struct ks_diags *late);
int ks_build_id_read(struct ks_module *m, Elf *elf, Elf_Scn *scn, struct ks_diags *d,
		     struct ks_diags *late);

/* Whether [off, off + len) lies inside a buffer of size bytes: every
 * offset and count read from the file goes through it. */
static inline bool ks_in_range(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

/* "PATH: error: WHAT: <libelf's message>"; returns -EINVAL. */
int ks_elf_problem(struct ks_diags *d, const char *path, const char *what) KS_MUST_CHECK;

#endif
