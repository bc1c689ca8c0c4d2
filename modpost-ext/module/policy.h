/* Kernel policy the checker follows as modpost and the loader do. */
#ifndef KS_POLICY_H
#define KS_POLICY_H

#include <stdbool.h>

#include "license.h"

/* Whether modpost would ignore an undefined symbol of this name. */
bool ks_undef_ignored(const char *sym);

#endif
