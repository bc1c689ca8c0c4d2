/* Where a module uses its imports, whichever location source says it
 * (doc/HACKING.md: location sources): --locations, which source wins,
 * and the step check and users run with each module. */
#ifndef KS_LOCATE_H
#define KS_LOCATE_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler.h"
#include "diag.h"
#include "module/elfmod.h"
#include "module/use.h"

/* "auto" (every source, each for the imports those before it leave
 * without a location) or a source's name (ks_use_source_name()). 0 or
 * -EINVAL. */
int ks_locations_parse(const char *s, struct ks_locate_opts *o) KS_MUST_CHECK;
/* Whether a source that reads the module again can run (not
 * --locations=plugin). */
bool ks_locate_reads(const struct ks_locate_opts *o);

/* Whether sym needs a location: called with each import of a module. */
typedef bool (*ks_locate_wanted_fn)(void *ctx, const struct ks_module *m, const char *sym);

/* The step check and users share, run once per module before its
 * findings are made, after the sources read with its sections (the
 * plugin's records): by o, drops the uses of the sources not asked for,
 * and runs each source that reads the module again for the imports that
 * wanted() names and that no use places yet, leaving compiler-generated
 * ones out (ks_import_generated()). */
void ks_locate_module(struct ks_module *m, const struct ks_locate_opts *o,
		      ks_locate_wanted_fn wanted, void *ctx, struct ks_diags *d);

#endif
