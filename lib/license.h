/* Module licenses and namespace imports as the kernel judges them: shared
 * by the plugin (which reads the unit's MODULE_LICENSE and
 * MODULE_IMPORT_NS) and the checker (the module's .modinfo). */
#ifndef KS_LICENSE_H
#define KS_LICENSE_H

#include <stdbool.h>

#include "compiler.h"
#include "schedule.h"

KS_BEGIN_DECLS

/* As the kernel's license_is_gpl_compatible(); NULL (no license) is not. */
bool ks_license_gpl_compatible(const char *license);
/* Whether e's action concerns a module of this license that imports
 * these namespaces: a gpl-only entry only one whose license is not
 * GPL-compatible, a namespace NS entry only one that does not import NS. */
bool ks_entry_concerns(const struct ks_entry *e, const char *license, char *const *import_ns,
		       size_t nimport_ns);

KS_END_DECLS

#endif
