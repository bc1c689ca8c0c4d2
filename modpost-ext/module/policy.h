/* Kernel policy the checker follows as modpost and the loader do. */
#ifndef KS_POLICY_H
#define KS_POLICY_H

#include <stdbool.h>

#include "license.h"

/* Whether modpost would ignore an undefined symbol of this name. */
bool ks_undef_ignored(const char *sym);
/* Whether the compiler, not the source, makes the module import sym
 * (ftrace's __fentry__, return and retpoline thunks, the stack
 * protector): such an import has no source location, by rule. */
bool ks_import_generated(const char *sym);

#endif
