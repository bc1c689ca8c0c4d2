/* The unit's own .modinfo strings: MODULE_LICENSE and MODULE_IMPORT_NS
 * expand to static char arrays in section .modinfo ("license=GPL",
 * "import_ns=RTC"; the namespace written as an identifier before 6.13 and
 * as a string literal since, the same string either way). They decide
 * whether a gpl-only or namespace entry concerns this module at all. */
/* lib/ first: GCC's options.h defines warn_unused_result as a macro */
#include "buf.h"
#include "license.h"
#include "schedule.h"
#include <ksunset/record.h>

#include "gcc-plugin.h"
#include "tree.h"
#include "cgraph.h"

#include <stdlib.h>
#include <string.h>

#include "ksunset.h"

/* The string a .modinfo variable holds, or NULL. */
static const char *modinfo_string(tree decl)
{
	const char *sec = DECL_SECTION_NAME(decl);
	tree init = DECL_INITIAL(decl);

	if (!sec || strcmp(sec, ".modinfo") || !init || TREE_CODE(init) != STRING_CST)
		return NULL;
	/* the array holds its NUL: a shorter string would be cut off */
	if (!memchr(TREE_STRING_POINTER(init), '\0', TREE_STRING_LENGTH(init)))
		return NULL;
	return TREE_STRING_POINTER(init);
}

void ks_modinfo_collect(struct ks_plugin *p)
{
	varpool_node *v;

	FOR_EACH_VARIABLE (v) {
		const char *s = modinfo_string(v->decl);

		if (!s)
			continue;
		if (!strncmp(s, "license=", 8)) {
			free(p->license);
			p->license = xstrdup(s + 8);
		} else if (!strncmp(s, "import_ns=", 10)) {
			p->import_ns = XRESIZEVEC(char *, p->import_ns, p->nimport_ns + 1);
			p->import_ns[p->nimport_ns++] = xstrdup(s + 10);
		}
	}
}

bool ks_modinfo_concerns(const struct ks_plugin *p, const struct ks_entry *e)
{
	return ks_entry_concerns(e, p->license, p->import_ns, p->nimport_ns);
}
