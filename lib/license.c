/* Which module licenses the kernel takes as GPL-compatible, and which
 * schedule entries concern a module. */
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

	for (size_t i = 0; l && i < KS_ARRAY_SIZE(gpl); i++)
		if (strcmp(l, gpl[i]) == 0)
			return true;
	return false;
}

bool ks_entry_concerns(const struct ks_entry *e, const char *license, char *const *import_ns,
		       size_t nimport_ns)
{
	switch (e->action) {
	case KS_ACTION_GPL_ONLY:
		return !ks_license_gpl_compatible(license);
	case KS_ACTION_NAMESPACE:
		for (size_t i = 0; i < nimport_ns; i++)
			if (!strcmp(import_ns[i], e->ns))
				return false;
		return true;
	case KS_ACTION_UNEXPORT:
		break;
	}
	return true;
}
