/* api=: every name of the kernel's headers that the module's source
 * writes, a function it calls or takes the address of or a function-like
 * macro it expands, recorded as an api record whether or not the object
 * imports it: a fortified inline or a macro may compile the name into
 * other calls, and check --target still has to know the source needs it.
 * Functions come from each body before it is gimplified, and from static
 * initializers (uses.c); macros from libcpp. */
/* lib/ first: GCC's options.h defines warn_unused_result as a macro */
#include "buf.h"
#include "schedule.h"
#include <ksunset/record.h>

#include "gcc-plugin.h"
#include "tree.h"
#include "input.h"
#include "hash-set.h"
#include "cpplib.h"
#include "c-family/c-pragma.h"

#include <stdlib.h>
#include <string.h>

#include "ksunset.h"

/* libcpp's callbacks carry no data of their own: the one plugin of this
 * compilation, set when the unit starts. */
static struct ks_plugin *cpp_plugin;
static void (*chained_used)(cpp_reader *, location_t, cpp_hashnode *);

static location_t spelling(location_t loc)
{
	return LOCATION_LOCUS(linemap_resolve_location(line_table, loc, LRK_SPELLING_LOCATION,
						       NULL));
}

/* Spelled in the kernel's headers and not made by a macro that the
 * module's sources expand: a function that a kernel macro pastes together
 * in the module's file (BUFFER_FNS(CSUM, csum) in a module's header) is
 * the module's own, though its name is spelled in the kernel's header. */
bool ks_api_kernel(struct ks_plugin *p, location_t loc)
{
	location_t at = LOCATION_LOCUS(
		linemap_resolve_location(line_table, loc, LRK_MACRO_EXPANSION_POINT, NULL));

	loc = spelling(loc);
	return loc > BUILTINS_LOCATION && !in_system_header_at(loc) && ks_where_foreign(p, loc) &&
	       ks_where_foreign(p, at);
}

/* Whether loc (spelled) is outside the module's sources, as
 * ks_where_foreign says, which depends on loc's line map only: libcpp
 * expands most macros inside the kernel's headers, one map after another,
 * and this is asked for every expansion. */
static bool foreign_at(struct ks_plugin *p, location_t loc)
{
	const line_map *map;

	if (loc <= BUILTINS_LOCATION)
		return true;
	map = linemap_lookup(line_table, loc);
	if (map != p->api_map) {
		p->api_map = map;
		p->api_map_foreign = ks_where_foreign(p, loc);
	}
	return p->api_map_foreign;
}

/* Adds name at at, a spelling location in the module's sources. */
static void add_spelled(struct ks_plugin *p, const char *name, enum ks_use_kind kind,
			location_t at, tree fn)
{
	const char *f = fn && DECL_NAME(fn) ? IDENTIFIER_POINTER(DECL_NAME(fn)) : "";
	struct ks_papi *a;

	if (p->napis == p->capapis) {
		p->capapis = p->capapis ? 2 * p->capapis : 64;
		p->apis = XRESIZEVEC(struct ks_papi, p->apis, p->capapis);
	}
	a = &p->apis[p->napis++];
	a->name = xstrdup(name);
	a->kind = kind;
	a->loc = at;
	a->func = xstrndup(f, ks_function_name_len(f));
}

void ks_api_add(struct ks_plugin *p, const char *name, enum ks_use_kind kind, location_t loc,
		tree fn)
{
	location_t at = spelling(loc);

	if (!foreign_at(p, at))
		add_spelled(p, name, kind, at, fn);
}

/* Whether libcpp is reading a file outside the module's sources: then
 * every macro it expands (nested ones and arguments too) is spelled
 * there. Most expansions happen inside the kernel's headers, and this
 * costs no location lookup: the file read is the last ordinary map's. */
static bool reading_foreign(struct ks_plugin *p)
{
	const line_map_ordinary *cur = LINEMAPS_LAST_ORDINARY_MAP(line_table);

	if (!cur)
		return true;
	if (cur != p->api_cur) {
		p->api_cur = cur;
		p->api_cur_foreign = ks_where_foreign(p, MAP_START_LOCATION(cur));
	}
	return p->api_cur_foreign;
}

/* A function-like macro of the kernel's headers, expanded in the
 * module's sources. */
static void macro_used(cpp_reader *reader, location_t loc, cpp_hashnode *node)
{
	struct ks_plugin *p = cpp_plugin;
	location_t at;

	if (chained_used)
		chained_used(reader, loc, node);
	if (!cpp_fun_like_macro_p(node) || reading_foreign(p))
		return;
	at = spelling(loc);
	if (!foreign_at(p, at) && ks_api_kernel(p, cpp_macro_definition_location(node)))
		add_spelled(p, (const char *)NODE_NAME(node), KS_USE_CALL, at,
			    current_function_decl);
}

void ks_api_start_unit(struct ks_plugin *p)
{
	cpp_callbacks *cb;

	if (!p->api || !parse_in)
		return;
	cb = cpp_get_callbacks(parse_in);
	cpp_plugin = p;
	chained_used = cb->used;
	cb->used = macro_used;
}

struct walk {
	struct ks_plugin *p;
	tree fn;
	hash_set<tree> *seen;
};

static void add_function(struct walk *w, tree decl, enum ks_use_kind kind, location_t loc)
{
	if (DECL_NAME(decl) && loc != UNKNOWN_LOCATION &&
	    ks_api_kernel(w->p, DECL_SOURCE_LOCATION(decl)))
		ks_api_add(w->p, IDENTIFIER_POINTER(DECL_NAME(decl)), kind, loc, w->fn);
}

/* Calls and addresses of functions in a function's body. A call's
 * location is its callee's name; GIMPLE has lost it for a call written
 * as another call's argument (gimplify_arg gives it the outer call's). */
static tree walk_body(tree *tp, int *walk_subtrees, void *data)
{
	struct walk *w = (struct walk *)data;
	tree t = *tp, callee;

	if (TYPE_P(t)) {
		*walk_subtrees = 0;
	} else if (TREE_CODE(t) == CALL_EXPR && (callee = get_callee_fndecl(t))) {
		add_function(w, callee, KS_USE_CALL, EXPR_LOCATION(t));
		/* the callee's own ADDR_EXPR is no address taken */
		for (int i = 0; i < call_expr_nargs(t); i++)
			walk_tree(&CALL_EXPR_ARG(t, i), walk_body, w, w->seen);
		*walk_subtrees = 0;
	} else if (TREE_CODE(t) == ADDR_EXPR && TREE_CODE(TREE_OPERAND(t, 0)) == FUNCTION_DECL) {
		add_function(w, TREE_OPERAND(t, 0), KS_USE_ADDR, EXPR_LOCATION(t));
		*walk_subtrees = 0;
	}
	return NULL_TREE;
}

static void walk_function(struct ks_plugin *p, tree fn)
{
	hash_set<tree> seen;
	struct walk w = { p, fn, &seen };

	walk_tree(&DECL_SAVED_TREE(fn), walk_body, &w, &seen);
}

/* Before the body is gimplified; not the kernel's inline functions,
 * which every header defines by the hundred. */
static void pre_genericize(void *gcc_data, void *user_data)
{
	struct ks_plugin *p = (struct ks_plugin *)user_data;
	tree fn = (tree)gcc_data;

	if (!ks_where_foreign(p, ks_where_resolve(DECL_SOURCE_LOCATION(fn))))
		walk_function(p, fn);
}

void ks_api_register(struct ks_plugin *p, const char *plugin_name)
{
	if (p->api)
		register_callback(plugin_name, PLUGIN_PRE_GENERICIZE, pre_genericize, p);
}

static int cmp_api(const void *a, const void *b)
{
	const struct ks_papi *x = (const struct ks_papi *)a, *y = (const struct ks_papi *)b;

	return ks_cmp_place(x->loc, x->name, (int)x->kind, y->loc, y->name, (int)y->kind);
}

static bool same_api(const struct ks_papi *a, const struct ks_papi *b)
{
	return a->loc == b->loc && a->kind == b->kind && !strcmp(a->name, b->name);
}

/* Whether the unit is modpost's NAME.mod.c: generated anew for each
 * kernel the module is built for, so no name in it is the authors'. */
static bool generated_unit(void)
{
	size_t n = main_input_filename ? strlen(main_input_filename) : 0;

	return n > 6 && !strcmp(main_input_filename + n - 6, ".mod.c");
}

/* Sorted, one record per name, kind and place; not the unit's own
 * definitions of a name the headers declare. */
int ks_api_encode(struct ks_plugin *p, struct ks_buf *desc)
{
	int r = 0;

	if (generated_unit())
		return 0;

	qsort(p->apis, p->napis, sizeof(*p->apis), cmp_api);
	for (size_t i = 0; i < p->napis && !r; i++) {
		const struct ks_papi *a = &p->apis[i];
		struct ks_record_use rec;

		if ((i && same_api(&p->apis[i - 1], a)) || ks_defined_here(a->name))
			continue;
		memset(&rec, 0, sizeof(rec));
		rec.symbol = a->name;
		rec.kind = a->kind;
		rec.function = a->func;
		ks_record_place(a->loc, &rec);
		r = ks_record_encode_api(desc, &rec);
	}
	return r;
}
