/* How many modules import each export of a Module.symvers: the data behind
 * `ksunset unused` (and the kernel's late export_report). */
#ifndef KS_IMPORTS_H
#define KS_IMPORTS_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler.h"
#include "diag.h"
#include "module/elfmod.h"
#include "schedule.h"
#include "strmap.h"
#include "input/symvers.h"

struct ks_imports {
	const struct ks_symvers *sv;	/* borrowed; must outlive the usage */
	struct ks_strmap count;		/* symbol -> importers, stored as uintptr_t */
};

/* Counts m once for every export of u->sv that it imports. */
void ks_imports_add(struct ks_imports *u, const struct ks_module *m);
size_t ks_imports_count(const struct ks_imports *u, const char *sym);
/* Whether owner names e's exporter: Module.symvers' module column
 * ("vmlinux", "drivers/gpu/drm/drm") or its last part ("drm"). */
bool ks_export_owned_by(const struct ks_export *e, const char *owner);
/* The exports of owner (NULL: all), only the unimported ones if
 * unused_only, sorted by symbol, in a fresh array *out of *n. */
void ks_imports_list(const struct ks_imports *u, const char *owner, bool unused_only,
		     const struct ks_export ***out, size_t *n);
void ks_imports_free(struct ks_imports *u);

/* A schedule that names every one of syms for unexport: check's findings
 * against it are exactly each symbol's importers, with the plugin's source
 * locations (what `ksunset users` lists). Symbols must be identifiers and
 * named once; a bad one is a diagnostic and -EINVAL. */
int ks_users_schedule(struct ks_schedule *s, char *const *syms, size_t n,
		      struct ks_diags *d) KS_MUST_CHECK;

#endif
