/* The sunset attribute, __attribute__((sunset("WHEN", "REPLACE"))), and the
 * lookup that says whether a declaration is scheduled: a schedule entry
 * first, else its attribute. */
/* lib/ first: GCC's options.h defines warn_unused_result as a macro */
#include "buf.h"
#include "schedule.h"
#include <ksunset/record.h>

#include "gcc-plugin.h"
#include "tree.h"
#include "stringpool.h"
#include "attribs.h"
#include "diagnostic.h"

#include <stdlib.h>
#include <string.h>

#include "ksunset.h"

static bool valid_when(const char *s)
{
	int32_t days;
	struct ks_release rel;

	return ks_date_parse(s, &days) == 0 || ks_release_parse(s, &rel) == 0;
}

static tree handle_sunset(tree *node, tree name, tree args, int flags, bool *no_add)
{
	tree decl = *node, when = TREE_VALUE(args);
	tree repl = TREE_CHAIN(args) ? TREE_VALUE(TREE_CHAIN(args)) : NULL_TREE;

	if (TREE_CODE(decl) != FUNCTION_DECL && TREE_CODE(decl) != VAR_DECL) {
		warning(OPT_Wattributes, "%qE attribute applies only to functions and variables",
			name);
		*no_add = true;
	} else if (TREE_CODE(when) != STRING_CST || (repl && TREE_CODE(repl) != STRING_CST)) {
		error("%qs attribute arguments must be strings: %<sunset(%s, %s)%>",
		      "sunset", "\"2027-09-01\" or \"6.14\"", "\"replacement\"");
		*no_add = true;
	} else if (!valid_when(TREE_STRING_POINTER(when))) {
		error("%qs attribute: %qs is not a date (%s) or a kernel release (%s)",
		      "sunset", TREE_STRING_POINTER(when), "YYYY-MM-DD, YYYY-MM", "6.14");
		*no_add = true;
	}
	return NULL_TREE;
}

static const struct attribute_spec sunset_attr = {
	"sunset", 1, 2, true, false, false, false, handle_sunset, NULL,
};

void ks_mark_register_attribute(void)
{
	register_attribute(&sunset_attr);
}

/* Adds text to b with newlines turned into spaces (a schedule field is one
 * line). */
static void add_line(struct ks_buf *b, const char *field, const char *text)
{
	ks_buf_adds(b, field);
	for (; *text; text++)
		ks_buf_addc(b, *text == '\n' ? ' ' : *text);
	ks_buf_addc(b, '\n');
}

/* An attribute is turned into a one-entry schedule text, so that marks and
 * schedule entries are parsed and judged by the same code. */
static const struct ks_entry *mark_entry(struct ks_plugin *p, const char *sym, tree attr)
{
	const struct ks_entry *e = ks_schedule_lookup(&p->marks, sym);
	tree args = TREE_VALUE(attr);
	struct ks_buf b = KS_BUF_INIT;
	struct ks_diags d = { NULL, 0, 0, 0, 0 };
	int r;

	if (e || !args)
		return e;
	add_line(&b, "What: ", sym);
	add_line(&b, "When: ", TREE_STRING_POINTER(TREE_VALUE(args)));
	if (TREE_CHAIN(args) && *TREE_STRING_POINTER(TREE_VALUE(TREE_CHAIN(args))))
		add_line(&b, "Replace: ", TREE_STRING_POINTER(TREE_VALUE(TREE_CHAIN(args))));
	r = ks_schedule_parse(&p->marks, "<sunset attribute>", b.p, b.len, &d);
	ks_buf_free(&b);
	ks_diags_free(&d);
	return r ? NULL : ks_schedule_lookup(&p->marks, sym);
}

/* A use is an import only of a public symbol that this translation unit
 * does not define. */
const struct ks_entry *ks_mark_lookup(struct ks_plugin *p, tree decl, const char **sym)
{
	const struct ks_entry *e;
	const char *name;
	tree attr;

	if (TREE_CODE(decl) != FUNCTION_DECL && TREE_CODE(decl) != VAR_DECL)
		return NULL;
	if (!TREE_PUBLIC(decl) || !DECL_EXTERNAL(decl))
		return NULL;
	name = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(decl));
	if (*name == '*')
		name++;
	*sym = name;
	e = ks_schedule_lookup(&p->sched, name);
	if (e)
		return e;
	attr = lookup_attribute("sunset", DECL_ATTRIBUTES(decl));
	return attr ? mark_entry(p, name, attr) : NULL;
}
