/* What each function reaches, as written: the early pass notes, for every
 * function, the scheduled symbols it names, and for a kernel-header
 * function the functions it calls; for the module's own functions, where
 * they call kernel-header functions. The late pass asks it where a use
 * came from when the optimiser has moved it out of the inline function
 * that wrote it: nf_ct_zone_tmpl() returns &nf_ct_zone_dflt, and once it
 * and nf_ct_zone_id() are inlined, the read of nf_ct_zone_dflt's members
 * sits in nf_ct_zone_id()'s code, or in a PHI with no location at all. */
/* lib/ first: GCC's options.h defines warn_unused_result as a macro */
#include "array.h"
#include "buf.h"
#include "schedule.h"
#include <ksunset/record.h>

#include "gcc-plugin.h"
#include "tree.h"
#include "stringpool.h"

#include <string.h>

#include "ksunset.h"

/* A search of the call graph goes no deeper than this. */
#define MAX_DEPTH 16

struct call {
	const char *callee;
	location_t loc;
};

struct fn_reach {
	const char **refs;	/* scheduled symbols; a header function's callees */
	size_t nrefs, caprefs;
	struct call *calls;	/* a module function's calls of header functions */
	size_t ncalls, capcalls;
	unsigned gen;		/* the search that last visited it */
};

/* A function's name as written (no clone suffix), as a string that lives
 * as long as the compilation: the key of every table here. */
static const char *fn_key(tree fn)
{
	const char *name;

	if (!fn || !DECL_NAME(fn))
		return NULL;
	name = IDENTIFIER_POINTER(DECL_NAME(fn));
	return IDENTIFIER_POINTER(get_identifier_with_length(name, ks_function_name_len(name)));
}

static struct fn_reach *info(struct ks_plugin *p, const char *key, bool make)
{
	void **slot;

	if (!key)
		return NULL;
	if (!make)
		return (struct fn_reach *)ks_strmap_get(&p->reach, key);
	ks_strmap_put(&p->reach, key, &slot);
	if (!*slot)
		*slot = XCNEW(struct fn_reach);
	return (struct fn_reach *)*slot;
}

static void add_ref(struct fn_reach *r, const char *name)
{
	for (size_t i = r->nrefs; i-- > 0;) {
		if (r->refs[i] == name || !strcmp(r->refs[i], name))
			return;
	}
	ks_array_room((void **)&r->refs, &r->caprefs, r->nrefs + 1, sizeof(*r->refs));
	r->refs[r->nrefs++] = name;
}

void ks_reach_note(struct ks_plugin *p, tree fn, bool fn_foreign, tree decl, const char *sym,
		   location_t loc)
{
	struct fn_reach *r;

	/* every name of every statement: look the function up once */
	if (fn != p->reach_fn) {
		p->reach_fn = fn;
		p->reach_cur = info(p, fn_key(fn), true);
	}
	if (!(r = p->reach_cur))
		return;
	if (sym)
		add_ref(r, sym);
	if (!decl || TREE_CODE(decl) != FUNCTION_DECL || !DECL_NAME(decl))
		return;
	if (fn_foreign) {
		add_ref(r, fn_key(decl));
		return;
	}
	if (!ks_where_foreign(p, ks_where_resolve(DECL_SOURCE_LOCATION(decl))))
		return;
	ks_array_room((void **)&r->calls, &r->capcalls, r->ncalls + 1, sizeof(*r->calls));
	r->calls[r->ncalls].callee = fn_key(decl);
	r->calls[r->ncalls++].loc = loc;
}

static bool search(struct ks_plugin *p, struct fn_reach *r, const char *sym, int depth)
{
	if (!r || r->gen == p->reach_gen || depth > MAX_DEPTH)
		return false;
	r->gen = p->reach_gen;
	for (size_t i = 0; i < r->nrefs; i++) {
		if (!strcmp(r->refs[i], sym))
			return true;
	}
	for (size_t i = 0; i < r->nrefs; i++) {
		if (search(p, info(p, r->refs[i], false), sym, depth + 1))
			return true;
	}
	return false;
}

enum ks_reach ks_reach(struct ks_plugin *p, tree fn, const char *sym)
{
	struct fn_reach *r = info(p, fn_key(fn), false);

	if (!r)
		return KS_REACH_UNKNOWN;
	p->reach_gen++;
	return search(p, r, sym, 0) ? KS_REACH_YES : KS_REACH_NO;
}

bool ks_reach_call(struct ks_plugin *p, tree fn, const char *sym, location_t *loc,
		   const char **callee)
{
	struct fn_reach *r = info(p, fn_key(fn), false);

	for (size_t i = 0; r && i < r->ncalls; i++) {
		p->reach_gen++;
		if (search(p, info(p, r->calls[i].callee, false), sym, 0)) {
			*loc = r->calls[i].loc;
			*callee = r->calls[i].callee;
			return true;
		}
	}
	return false;
}

/* Calls written as another call's argument: GCC's gimplifier gives each
 * the location of the call it is passed to, and a builtin's call keeps no
 * source range to search, so where each was written is kept from before. */
struct nested {
	location_t outer;	/* the locus GCC will give it */
	const char *callee;
	location_t written;
};

static void add_nested(struct ks_plugin *p, location_t outer, tree call, int depth)
{
	for (int i = 0; i < call_expr_nargs(call) && depth < MAX_DEPTH; i++) {
		tree a = CALL_EXPR_ARG(call, i), fn;

		if (TREE_CODE(a) != CALL_EXPR)
			continue;
		fn = get_callee_fndecl(a);
		if (fn && DECL_NAME(fn) && EXPR_HAS_LOCATION(a)) {
			ks_array_room((void **)&p->nested, &p->capnested, p->nnested + 1,
				      sizeof(*p->nested));
			p->nested[p->nnested].outer = outer;
			p->nested[p->nnested].callee = fn_key(fn);
			p->nested[p->nnested++].written = EXPR_LOCATION(a);
			p->nested_sorted = false;
		}
		add_nested(p, outer, a, depth + 1);
	}
}

static tree walk_calls(tree *tp, int *walk_subtrees, void *data)
{
	tree t = *tp;

	if (TYPE_P(t))
		*walk_subtrees = 0;
	else if (TREE_CODE(t) == CALL_EXPR && EXPR_HAS_LOCATION(t))
		add_nested((struct ks_plugin *)data, LOCATION_LOCUS(EXPR_LOCATION(t)), t, 0);
	return NULL_TREE;
}

void ks_reach_nested(struct ks_plugin *p, tree fn)
{
	if (DECL_SAVED_TREE(fn))
		walk_tree_without_duplicates(&DECL_SAVED_TREE(fn), walk_calls, p);
}

static int cmp_nested(const void *a, const void *b)
{
	location_t x = ((const struct nested *)a)->outer, y = ((const struct nested *)b)->outer;

	return x < y ? -1 : x > y;
}

location_t ks_reach_written(struct ks_plugin *p, location_t loc, const char *callee)
{
	size_t lo = 0, hi = p->nnested;

	if (!p->nested_sorted) {
		qsort(p->nested, p->nnested, sizeof(*p->nested), cmp_nested);
		p->nested_sorted = true;
	}
	loc = LOCATION_LOCUS(loc);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->nested[mid].outer < loc)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < p->nnested && p->nested[lo].outer == loc; lo++) {
		if (!strcmp(p->nested[lo].callee, callee))
			return p->nested[lo].written;
	}
	return UNKNOWN_LOCATION;
}

void ks_reach_free(struct ks_plugin *p)
{
	XDELETEVEC(p->nested);
	p->nested = NULL;
	p->nnested = p->capnested = 0;
	for (size_t i = 0; i < p->reach.cap; i++) {
		struct fn_reach *r = (struct fn_reach *)p->reach.slots[i].val;

		if (p->reach.slots[i].key && r) {
			XDELETEVEC(r->refs);
			XDELETEVEC(r->calls);
			XDELETE(r);
		}
	}
	ks_strmap_free(&p->reach);
	p->reach_fn = NULL;
	p->reach_cur = NULL;
}
