/* Namespace verdicts, following kernel/module/main.c: a string namespace
 * must be imported; a "module:" list must name the module. */
#include <string.h>

#include "module/namespace.h"

static const char prefix[] = "module:";

bool ks_ns_is_module_list(const char *ns)
{
	return strncmp(ns, prefix, sizeof(prefix) - 1) == 0;
}

/* The kernel's mod_strncmp(): '-' and '_' compare equal. */
static bool same_name(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char x = a[i] == '-' ? '_' : a[i], y = b[i] == '-' ? '_' : b[i];

		if (x != y)
			return false;
	}
	return true;
}

bool ks_ns_names_module(const char *ns, const char *modname)
{
	size_t modlen = strlen(modname);

	if (!ks_ns_is_module_list(ns))
		return false;
	for (ns += sizeof(prefix) - 1; *ns;) {
		size_t len = strcspn(ns, ",");
		bool glob = len && ns[len - 1] == '*';
		size_t cmp = len - glob;

		if ((glob ? modlen >= cmp : modlen == cmp) && same_name(ns, modname, cmp))
			return true;
		ns += len + (ns[len] == ',');
	}
	return false;
}

bool ks_ns_admits(const char *ns, const struct ks_module *m)
{
	if (!ns || !ns[0])
		return true;
	if (ks_ns_is_module_list(ns))
		return m->name && ks_ns_names_module(ns, m->name);
	return ks_module_imports_ns(m, ns);
}
