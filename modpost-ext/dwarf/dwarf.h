/* The module's DWARF as a location source: for modules built without the
 * plugin, the source lines of their uses of scheduled imports, read with
 * libdw from the module itself or a separate debug file. */
#ifndef KS_DWARF_H
#define KS_DWARF_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler.h"
#include "diag.h"
#include "module/elfmod.h"

/* --locations: which sources place uses. */
enum ks_locations {
	KS_LOCATIONS_AUTO,   /* plugin records, DWARF for what they leave out */
	KS_LOCATIONS_PLUGIN, /* plugin records only */
	KS_LOCATIONS_DWARF,  /* DWARF only (plugin records ignored) */
};

struct ks_dwarf_opts {
	enum ks_locations mode;
	const char *debug_dir; /* separate debug files; NULL: /usr/lib/debug */
	bool libdw;	       /* KSUNSET_DWARF_READER=libdw: libdwfl and libdw only */
};

/* "plugin", "dwarf" or "auto". 0 or -EINVAL. */
int ks_locations_parse(const char *s, enum ks_locations *mode) KS_MUST_CHECK;

/* Whether sym needs a location: called with each import of a module. */
typedef bool (*ks_locate_wanted_fn)(void *ctx, const struct ks_module *m, const char *sym);

/* The step check and users share, run once per module before its
 * findings are made: by o->mode, drops the plugin's uses (dwarf) or reads
 * the module's DWARF for the imports that wanted() names and that no
 * plugin record places, leaving compiler-generated ones out
 * (ks_import_generated()). Uses found are added to m->uses with source
 * KS_SOURCE_DWARF; a module without DWARF sets m->no_debug_info. DWARF is
 * read only when some import needs it. Corrupt DWARF is a note in d and
 * leaves the imports without location. 0 or -ENOMEM. */
int ks_locate_module(struct ks_module *m, const struct ks_dwarf_opts *o, ks_locate_wanted_fn wanted,
		     void *ctx, struct ks_diags *d) KS_MUST_CHECK;

/* The DWARF source itself: adds a use for every relocation against one of
 * syms (sorted, as strcmp) in m's code or data. The module is read again
 * (decompressed) for it only if it has DWARF of its own or a separate
 * debug file may exist (m->debug). 0, -ENOMEM, or -ENOENT when the module
 * has no DWARF (m->no_debug_info set); other problems are a note in d
 * and 0. */
int ks_dwarf_locate(struct ks_module *m, char *const *syms, size_t nsyms,
		    const struct ks_dwarf_opts *o, struct ks_diags *d) KS_MUST_CHECK;
/* The same from the module's (decompressed) image, which stays the
 * caller's. */
int ks_dwarf_locate_image(struct ks_module *m, char *image, size_t size, char *const *syms,
			  size_t nsyms, const struct ks_dwarf_opts *o,
			  struct ks_diags *d) KS_MUST_CHECK;

#endif
