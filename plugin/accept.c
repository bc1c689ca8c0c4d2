/* Uses accepted in the source: KSUNSET_ACCEPT("REASON") (<ksunset/sunset.h>)
 * is '#pragma ksunset accept "REASON"' in a function, read while that
 * function is parsed. It accepts the scheduled uses written in the
 * function, matched at the end of the unit by the function's name as
 * written, which each use and its record carry too. */
/* lib/ first: GCC's options.h defines warn_unused_result as a macro */
#include "buf.h"
#include "schedule.h"
#include <ksunset/record.h>

#include "gcc-plugin.h"
#include "tree.h"
#include "diagnostic.h"
#include "c-family/c-pragma.h"

#include <stdlib.h>
#include <string.h>

#include "ksunset.h"

/* A reason says something: not empty, not only blanks. */
static bool blank(const char *s)
{
	return s[strspn(s, " \t\n\r\f\v")] == '\0';
}

/* Adds reason to fn's; a second KSUNSET_ACCEPT in fn adds its reason to
 * the first's. */
static void add(struct ks_plugin *p, const char *fn, const char *reason)
{
	void **slot;
	char *key = xstrdup(fn);
	char *both;

	if (ks_strmap_put(&p->accepts, key, &slot)) {
		*slot = xstrdup(reason);
		return;
	}
	both = ks_strdupf("%s; %s", (char *)*slot, reason);
	free(*slot);
	*slot = both;
	free(key);
}

/* #pragma ksunset accept "REASON": adjacent string literals are one. */
static void handle_accept(cpp_reader *reader, void *data)
{
	struct ks_plugin *p = (struct ks_plugin *)data;
	location_t loc = input_location, end;
	tree s = NULL_TREE, junk;
	enum cpp_ttype t = pragma_lex(&s, &loc);

	(void)reader;
	/* errors go where KSUNSET_ACCEPT is written, not into sunset.h */
	loc = linemap_resolve_location(line_table, loc, LRK_MACRO_EXPANSION_POINT, NULL);
	if (t != CPP_STRING || TREE_CODE(s) != STRING_CST) {
		error_at(loc,
			 "%<KSUNSET_ACCEPT%> takes a string literal: the reason, as in "
			 "%<KSUNSET_ACCEPT(\"%s\")%>",
			 "no replacement on this board yet");
		return;
	}
	if (pragma_lex(&junk, &end) != CPP_EOF)
		warning_at(end, OPT_Wpragmas, "junk at end of %<#pragma ksunset accept%>");
	if (blank(TREE_STRING_POINTER(s)))
		error_at(loc, "%<KSUNSET_ACCEPT%> needs a reason: say why the use is accepted");
	else if (!current_function_decl || !DECL_NAME(current_function_decl))
		error_at(loc, "%<KSUNSET_ACCEPT%> outside a function: it accepts the uses "
			      "in the function that holds it");
	else
		add(p, IDENTIFIER_POINTER(DECL_NAME(current_function_decl)), TREE_STRING_POINTER(s));
}

static void register_pragmas(void *gcc_data, void *user_data)
{
	c_register_pragma_with_data("ksunset", "accept", handle_accept, user_data);
}

void ks_accept_register(struct ks_plugin *p, const char *plugin_name)
{
	register_callback(plugin_name, PLUGIN_PRAGMAS, register_pragmas, p);
}

const char *ks_accept_reason(const struct ks_plugin *p, const char *fn)
{
	return *fn ? (const char *)ks_strmap_get(&p->accepts, fn) : NULL;
}
