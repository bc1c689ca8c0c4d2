/* Module licenses as the kernel judges them: shared by the plugin (which
 * reads the unit's MODULE_LICENSE) and the checker (the module's .modinfo). */
#ifndef KS_LICENSE_H
#define KS_LICENSE_H

#include <stdbool.h>

#include "compiler.h"

KS_BEGIN_DECLS

/* As the kernel's license_is_gpl_compatible(); NULL (no license) is not. */
bool ks_license_gpl_compatible(const char *license);

KS_END_DECLS

#endif
