/* A kernel module (or object) as ksunset sees it: its imports (undefined
 * symbols), its .modinfo, and where it uses its imports (module/use.h). */
#ifndef KS_ELFMOD_H
#define KS_ELFMOD_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler.h"
#include "diag.h"
#include "module/shapes.h"
#include "module/use.h"

/* Where the module's DWARF could come from, noted while it is read: one
 * with none of its own and no separate debug file to be found is not read
 * (for a .ko.xz: decompressed) again for source lines (dwarf/debugfile.c). */
struct ks_debug_refs {
	bool info;		/* a .debug_info section of its own */
	bool search;		/* a .gnu_debuglink or build-id not kept: look */
	unsigned char build_id[64];
	size_t build_id_len;	/* 0: no .note.gnu.build-id */
	char *link;		/* .gnu_debuglink's file name; NULL: none */
};

struct ks_module {
	char *path;		/* as given, for messages */
	char *name;		/* .modinfo name=, else from the file name */
	char *license;		/* NULL: none */
	bool gpl_compatible;
	char *vermagic;		/* NULL: none (.o files) */
	bool intree;		/* .modinfo intree=Y: built in the kernel's tree */
	char **import_ns;
	size_t nimport_ns, capimport_ns;
	char **undef;		/* imported symbols, in symbol-table order */
	size_t nundef, capundef;
	char *undef_names;	/* the block they point into */
	struct ks_uses uses;	/* from every location source */
	struct ks_units units;	/* plugin: its units, with their include and shape
				   records (api=) */
	size_t nunits;		/* plugin: translation units built with it */
	char digest[17];	/* plugin: a unit's schedule digest, "" if none */
	bool mixed_digests;	/* plugin: units built under different schedules */
	bool bad_records;	/* plugin: some record was malformed (reported) */
	bool no_debug_info;	/* DWARF: asked for, and there was none */
	struct ks_debug_refs debug;
};

struct ks_modfile_keep;

/* Reads a module from path (compressed or not), decompressing it with k's
 * buffers if k is given (a reading thread's: module/modfile.h). Problems
 * are diagnostics naming the file; returns 0, or -EINVAL for an unusable
 * file (nothing in *m). Malformed records leave the module
 * usable with bad_records set. */
int ks_module_load(struct ks_module *m, const char *path, struct ks_modfile_keep *k,
		   struct ks_diags *d) KS_MUST_CHECK;
/* The same from an image in memory (which stays the caller's): 0 or
 * -EINVAL. */
int ks_module_parse(struct ks_module *m, const char *path, char *image, size_t size,
		    struct ks_diags *d) KS_MUST_CHECK;
bool ks_module_imports(const struct ks_module *m, const char *sym);
bool ks_module_imports_ns(const struct ks_module *m, const char *ns);
void ks_module_free(struct ks_module *m);

/* Must be called once before any ELF is read. */
int ks_elf_init(void) KS_MUST_CHECK;

#endif
