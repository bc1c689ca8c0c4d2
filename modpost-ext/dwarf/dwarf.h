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
#include "module/use.h"

/* The DWARF source (a ks_locate_fn): adds a use for every relocation
 * against one of syms (sorted, as strcmp) in m's code or data. The module is read again
 * (decompressed) for it only if it has DWARF of its own or a separate
 * debug file may exist (m->debug). 0, or -ENOENT when the module
 * has no DWARF (m->no_debug_info set); other problems are a note in d
 * and 0. */
int ks_dwarf_locate(struct ks_module *m, char *const *syms, size_t nsyms,
		    const struct ks_locate_opts *o, struct ks_diags *d) KS_MUST_CHECK;
/* The same from the module's (decompressed) image, which stays the
 * caller's. */
int ks_dwarf_locate_image(struct ks_module *m, char *image, size_t size, char *const *syms,
			  size_t nsyms, const struct ks_locate_opts *o,
			  struct ks_diags *d) KS_MUST_CHECK;

#endif
