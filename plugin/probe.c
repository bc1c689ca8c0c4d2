/* probe: the plugin in check --target's probe of another kernel. The
 * probe source (written by the checker, compiled by that kernel's Kbuild)
 * includes the headers a unit of the module included and asks, with
 * #pragma ksunset probe "ITEM WHAT NAME...", how they declare each name
 * the unit used; then it rebuilds each use, and the compiler's errors say
 * which uses no longer compile. Both go, as fact and error records
 * (<ksunset/record.h>), into SOURCE.probe beside the probe source, as
 * they happen: a fatal error ends the compilation at once. The unit
 * record, written last, says the compilation got to the end.
 *   "ITEM name NAME"            how NAME is declared (a macro first)
 *   "ITEM ident NAME"           the same for NAME not followed by '(': a
 *                               function-like macro does not expand
 *   "ITEM member ALIAS MEMBER"  MEMBER of the aggregate typedef ALIAS names
 *   "ITEM complete ALIAS"       whether that aggregate is complete
 *   "ITEM header-gone"          the item's header cannot be included
 *   "ITEM off"                  the item's branch of the unit's #if is not
 *                               taken there
 * and, as item 0, each namespace the headers import for the module
 * (<linux/pwm.h> holds MODULE_IMPORT_NS(PWM) in 6.12). */
/* lib/ first: GCC's options.h defines warn_unused_result as a macro */
#include "buf.h"
#include "schedule.h"
#include "strmap.h"
#include <ksunset/record.h>

#include "gcc-plugin.h"
#include "tree.h"
#include "c-family/c-common.h"
#include "c-family/c-pragma.h"
#include "c-tree.h"
#include "diagnostic.h"
#include "stringpool.h"
#include "cpplib.h"
#include "version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

/* GCC's pragma handlers and diagnostic hooks carry no data of their own:
 * the one plugin of this compilation. */
static struct ks_plugin *probe_plugin;
static diagnostic_finalizer_fn chained_finalizer;

/* Appends one record to the results, flushed: a fatal error may end the
 * compilation right after. */
static void emit(struct ks_plugin *p, const struct ks_buf *b)
{
	if (!p->a->probe_out || fwrite(b->p, 1, b->len, p->a->probe_out) != b->len ||
	    fflush(p->a->probe_out))
		p->a->probe_failed = true;
}

static void emit_fact(struct ks_plugin *p, unsigned item, enum ks_fact_status st,
		      const char *shape, tree where, const char *extra, const char *file = NULL)
{
	struct ks_buf b = KS_BUF_INIT;
	struct ks_record_fact f = { item, st, const_cast<char *>(shape ? shape : ""),
				    const_cast<char *>(where ? DECL_SOURCE_FILE(where)
							     : file ? file : ""),
				    const_cast<char *>(extra ? extra : "") };

	if (where && !DECL_SOURCE_FILE(where))
		f.file = const_cast<char *>("");
	ks_record_encode_fact(&b, &f);
	emit(p, &b);
	ks_buf_free(&b);
}

/* "2", "1+" (variadic) or "?" (no prototype), then " =SYMBOL" when an asm
 * label renames it. */
static char *params(tree fn)
{
	tree a = TYPE_ARG_TYPES(TREE_TYPE(fn));
	unsigned n = 0;
	const char *as = DECL_ASSEMBLER_NAME_SET_P(fn)
				 ? IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fn))
				 : NULL;
	bool renamed = as && *as == '*' && strcmp(as + 1, IDENTIFIER_POINTER(DECL_NAME(fn)));

	if (!a)
		return xstrdup("?");
	for (; a && a != void_list_node; a = TREE_CHAIN(a))
		n++;
	return ks_strdupf("%u%s%s%s", n, a ? "" : "+", renamed ? " =" : "", renamed ? as + 1 : "");
}

/* How the headers included so far declare name: as the source's token
 * would be read, a macro first (a function-like one only when called:
 * <linux/rtc.h>'s rtc_lock(d) leaves the variable rtc_lock alone). */
static void fact_name(struct ks_plugin *p, unsigned item, const char *name, bool called)
{
	cpp_hashnode *node = cpp_lookup(parse_in, (const unsigned char *)name, strlen(name));
	tree decl;

	if (cpp_user_macro_p(node) && (called || !cpp_fun_like_macro_p(node))) {
		const cpp_macro *m = node->value.macro;
		char *ps = cpp_fun_like_macro_p(node) ? ks_macro_params(m) : NULL;
		char *n = ps ? ks_strdupf("%u%s", m->paramc, m->variadic ? "+" : "") : NULL;
		expanded_location x = expand_location(cpp_macro_definition_location(node));
		struct ks_buf b = KS_BUF_INIT;
		struct ks_record_fact f = { item, ps ? KS_FACT_FMACRO : KS_FACT_MACRO,
					    ps ? ps : const_cast<char *>(""),
					    const_cast<char *>(x.file ? x.file : ""),
					    n ? n : const_cast<char *>("") };

		ks_record_encode_fact(&b, &f);
		emit(p, &b);
		ks_buf_free(&b);
		free(ps);
		free(n);
		return;
	}
	decl = lookup_name(get_identifier(name));
	if (!decl || decl == error_mark_node || (TREE_CODE(decl) == FUNCTION_DECL &&
						 C_DECL_IMPLICIT(decl))) {
		emit_fact(p, item, KS_FACT_NONE, NULL, NULL, NULL);
	} else if (TREE_CODE(decl) == FUNCTION_DECL) {
		char *t = ks_type_printed(TREE_TYPE(decl)), *n = params(decl);

		emit_fact(p, item, DECL_INITIAL(decl) ? KS_FACT_INLINE : KS_FACT_FUNCTION, t, decl, n);
		free(t);
		free(n);
	} else if (TREE_CODE(decl) == VAR_DECL) {
		char *t = ks_type_printed(TREE_TYPE(decl));

		emit_fact(p, item, KS_FACT_VAR, t, decl, DECL_EXTERNAL(decl) ? "extern" : "");
		free(t);
	} else {
		emit_fact(p, item, TREE_CODE(decl) == CONST_DECL  ? KS_FACT_ENUM
				   : TREE_CODE(decl) == TYPE_DECL ? KS_FACT_TYPEDEF
								  : KS_FACT_NONE,
			  NULL, decl, NULL);
	}
}

/* The named member of aggregate type, through its anonymous members. */
static tree find_member(tree type, tree name)
{
	for (tree f = TYPE_FIELDS(type); f; f = DECL_CHAIN(f)) {
		tree in;

		if (TREE_CODE(f) != FIELD_DECL)
			continue;
		if (DECL_NAME(f) == name)
			return f;
		if (!DECL_NAME(f) && RECORD_OR_UNION_TYPE_P(TREE_TYPE(f)) &&
		    (in = find_member(TREE_TYPE(f), name)))
			return in;
	}
	return NULL_TREE;
}

/* The aggregate the probe's typedef alias names; NULL: there is none. */
static tree aggregate(const char *alias)
{
	tree decl = lookup_name(get_identifier(alias));

	if (!decl || TREE_CODE(decl) != TYPE_DECL || !RECORD_OR_UNION_TYPE_P(TREE_TYPE(decl)))
		return NULL_TREE;
	return TREE_TYPE(decl);
}

static void fact_member(struct ks_plugin *p, unsigned item, const char *alias, const char *member)
{
	tree type = aggregate(alias), f;
	char *t;

	if (!type) {
		emit_fact(p, item, KS_FACT_NONE, NULL, NULL, NULL);
	} else if (!COMPLETE_TYPE_P(type)) {
		emit_fact(p, item, KS_FACT_INCOMPLETE, NULL, TYPE_STUB_DECL(TYPE_MAIN_VARIANT(type)),
			  NULL);
	} else if (!(f = find_member(type, get_identifier(member)))) {
		emit_fact(p, item, KS_FACT_NO_MEMBER, NULL, TYPE_STUB_DECL(TYPE_MAIN_VARIANT(type)),
			  NULL);
	} else {
		t = ks_type_printed(TREE_TYPE(f));
		emit_fact(p, item, KS_FACT_MEMBER, t, f, TYPE_READONLY(TREE_TYPE(f)) ? "ro" : "");
		free(t);
	}
}

static void fact_complete(struct ks_plugin *p, unsigned item, const char *alias)
{
	tree type = aggregate(alias);

	if (!type)
		emit_fact(p, item, KS_FACT_NONE, NULL, NULL, NULL);
	else
		emit_fact(p, item, COMPLETE_TYPE_P(type) ? KS_FACT_COMPLETE : KS_FACT_INCOMPLETE, NULL,
			  TYPE_STUB_DECL(TYPE_MAIN_VARIANT(type)), NULL);
}

/* #pragma ksunset probe "ITEM WHAT ARG..." */
static void handle_probe(cpp_reader *reader)
{
	struct ks_plugin *p = probe_plugin;
	char what[16], a[256], b[256];
	unsigned item;
	tree s;
	int n;

	if (pragma_lex(&s) != CPP_STRING || !p->a->probe_out) {
		error("%s: %<#pragma ksunset probe%> needs a string", p->name);
		return;
	}
	a[0] = b[0] = '\0';
	n = sscanf(TREE_STRING_POINTER(s), "%u %15s %255s %255s", &item, what, a, b);
	if (n >= 3 && (!strcmp(what, "name") || !strcmp(what, "ident")))
		fact_name(p, item, a, !strcmp(what, "name"));
	else if (n == 4 && !strcmp(what, "member"))
		fact_member(p, item, a, b);
	else if (n == 3 && !strcmp(what, "complete"))
		fact_complete(p, item, a);
	else if (n == 2 && !strcmp(what, "header-gone"))
		emit_fact(p, item, KS_FACT_HEADER_GONE, NULL, NULL, NULL);
	else if (n == 2 && !strcmp(what, "off"))
		emit_fact(p, item, KS_FACT_OFF, NULL, NULL, NULL);
	else
		error("%s: bad %<#pragma ksunset probe%> %qs", p->name, TREE_STRING_POINTER(s));
}

/* The message without GCC's "FILE:LINE:COL: error: " and any "In
 * function" line before it. */
static const char *message_of(const char *text)
{
	const char *nl = strrchr(text, '\n'), *e;

	if (nl && nl[1])
		text = nl + 1;
	e = strstr(text, "error: ");
	return e ? e + strlen("error: ") : text;
}

/* The line of the probe source whose #include led to the file of loc (a
 * header's error is the include's: the checker leaves that include out
 * and asks again); 0: none (the command line, a built-in). */
static unsigned include_line(location_t loc)
{
	const line_map_ordinary *map;

	for (int depth = 0; loc > BUILTINS_LOCATION && depth < 200; depth++) {
		map = linemap_check_ordinary(linemap_lookup(line_table, loc));
		if (MAIN_FILE_P(map))
			return (unsigned)SOURCE_LINE(map, loc);
		loc = linemap_included_from(map);
	}
	return 0;
}

/* Every error, where the probe source has it: its line, or the line of
 * the #include that led to the header it is in (col 0, the message then
 * naming the place). */
static void finalizer(diagnostic_context *dc, diagnostic_info *di, diagnostic_t orig)
{
	struct ks_plugin *p = probe_plugin;

	if (di->kind == DK_ERROR || di->kind == DK_FATAL || di->kind == DK_ICE) {
		location_t loc = linemap_resolve_location(line_table, diagnostic_location(di),
							  LRK_MACRO_EXPANSION_POINT, NULL);
		expanded_location x = expand_location(loc);
		const char *text = pp_formatted_text(dc->printer);
		bool here = x.file && main_input_filename && !strcmp(x.file, main_input_filename);
		struct ks_buf b = KS_BUF_INIT;
		char *msg = here ? xstrdup(message_of(text))
				 : ks_strdupf("%s:%d: %s", x.file ? x.file : "?", x.line,
					      message_of(text));
		struct ks_record_error e = { here ? (unsigned)x.line : include_line(loc),
					     here ? (unsigned)x.column : 0, msg };

		ks_record_encode_error(&b, &e);
		emit(p, &b);
		ks_buf_free(&b);
		free(msg);
	}
	chained_finalizer(dc, di, orig);
}

/* MODULE_IMPORT_NS(NS) in a header: a .modinfo string "import_ns=NS". */
static void finish_decl(void *gcc_data, void *user_data)
{
	struct ks_plugin *p = (struct ks_plugin *)user_data;
	tree decl = (tree)gcc_data, init;
	const char *s;

	if (TREE_CODE(decl) != VAR_DECL || !DECL_SECTION_NAME(decl) ||
	    strcmp(DECL_SECTION_NAME(decl), ".modinfo") || !(init = DECL_INITIAL(decl)) ||
	    TREE_CODE(init) != STRING_CST)
		return;
	s = TREE_STRING_POINTER(init);
	if (!strncmp(s, "import_ns=", 10) && memchr(s, '\0', TREE_STRING_LENGTH(init)))
		emit_fact(p, 0, KS_FACT_IMPORT_NS, s + 10, NULL, NULL);
}

static void register_pragma(void *gcc_data, void *user_data)
{
	c_register_pragma("ksunset", "probe", handle_probe);
}

/* SOURCE.probe for SOURCE.c */
static void open_results(void *gcc_data, void *user_data)
{
	struct ks_plugin *p = (struct ks_plugin *)user_data;
	const char *src = main_input_filename ? main_input_filename : "";
	size_t n = strlen(src);
	char *path;

	if (n > 2 && !strcmp(src + n - 2, ".c"))
		n -= 2;
	path = ks_strdupf("%.*s.probe", (int)n, src);
	p->a->probe_out = fopen(path, "w");
	if (!p->a->probe_out)
		error("%s: cannot write %qs: %s", p->name, path, xstrerror(errno));
	free(path);
}

/* The unit record last: the probe compiled to its end (with errors or
 * not: PLUGIN_FINISH comes after both). */
/* Every file the probe read but its own source, once: a cached result
 * holds only while they are unchanged. */
static void files_read(struct ks_plugin *p)
{
	struct ks_strmap seen;

	memset(&seen, 0, sizeof(seen));
	for (unsigned i = 0; i < LINEMAPS_ORDINARY_USED(line_table); i++) {
		const line_map_ordinary *map = LINEMAPS_ORDINARY_MAP_AT(line_table, i);
		const char *f = ORDINARY_MAP_FILE_NAME(map);
		void **slot;

		if (map->reason != LC_ENTER || !f || *f == '<' ||
		    (main_input_filename && !strcmp(f, main_input_filename)))
			continue;
		if (ks_strmap_put(&seen, f, &slot) == 1)
			emit_fact(p, 0, KS_FACT_FILE, NULL, NULL, NULL, f);
	}
	ks_strmap_free(&seen);
}

static void close_results(void *gcc_data, void *user_data)
{
	struct ks_plugin *p = (struct ks_plugin *)user_data;
	struct ks_buf b = KS_BUF_INIT;

	files_read(p);

	ks_record_encode_unit(&b, main_input_filename ? main_input_filename : "", "probe",
			      version_string);
	emit(p, &b);
	ks_buf_free(&b);
	if (p->a->probe_out && fclose(p->a->probe_out))
		p->a->probe_failed = true;
	p->a->probe_out = NULL;
	if (p->a->probe_failed)
		error("%s: cannot write the results of the probe", p->name);
}

void ks_probe_register(struct ks_plugin *p, const char *plugin_name)
{
	probe_plugin = p;
	chained_finalizer = diagnostic_finalizer(global_dc);
	diagnostic_finalizer(global_dc) = finalizer;
	register_callback(plugin_name, PLUGIN_START_UNIT, open_results, p);
	register_callback(plugin_name, PLUGIN_PRAGMAS, register_pragma, p);
	register_callback(plugin_name, PLUGIN_FINISH_DECL, finish_decl, p);
	register_callback(plugin_name, PLUGIN_FINISH, close_results, p);
}
