/* Which module licenses the kernel takes as GPL-compatible. */
#include <string.h>

#include "license.h"

bool ks_license_gpl_compatible(const char *l)
{
	static const char *const gpl[] = { "GPL",
					   "GPL v2",
					   "GPL and additional rights",
					   "Dual BSD/GPL",
					   "Dual MIT/GPL",
					   "Dual MPL/GPL" };

	for (size_t i = 0; l && i < sizeof(gpl) / sizeof(gpl[0]); i++)
		if (strcmp(l, gpl[i]) == 0)
			return true;
	return false;
}
