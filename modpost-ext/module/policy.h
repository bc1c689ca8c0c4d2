/* Kernel policy the checker follows as modpost and the loader do. */
#ifndef KS_POLICY_H
#define KS_POLICY_H

#include <stdbool.h>

/* As the kernel's license_is_gpl_compatible(). */
bool ks_license_gpl_compatible(const char *license);
/* Whether modpost would ignore an undefined symbol of this name. */
bool ks_undef_ignored(const char *sym);

#endif
