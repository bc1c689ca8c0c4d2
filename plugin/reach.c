/* What each function reaches, as written: the early pass notes, for every
 * function, the scheduled symbols it names, and for a kernel-header
 * function the functions it calls; for the module's own functions, where
 * they call kernel-header functions. The late pass asks it where a use
 * came from when the optimiser has moved it out of the inline function
 * that wrote it: nf_ct_zone_tmpl() returns &nf_ct_zone_dflt, and once it
 * and nf_ct_zone_id() are inlined, the read of nf_ct_zone_dflt's members
 * sits in nf_ct_zone_id()'s code, or in a PHI with no location at all. */
/* lib/ first: GCC's options.h defines warn_unused_result as a macro */
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
	if (ks_strmap_put(&p->reach, key, &slot) < 0)
		return NULL;
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
	if (r->nrefs == r->caprefs) {
		r->caprefs = r->caprefs ? 2 * r->caprefs : 8;
		r->refs = XRESIZEVEC(const char *, r->refs, r->caprefs);
	}
	r->refs[r->nrefs++] = name;
}

void ks_reach_note(struct ks_plugin *p, tree fn, bool fn_foreign, tree decl, const char *sym,
		   location_t loc)
{
	struct fn_reach *r = info(p, fn_key(fn), true);

	if (!r)
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
	if (r->ncalls == r->capcalls) {
		r->capcalls = r->capcalls ? 2 * r->capcalls : 8;
		r->calls = XRESIZEVEC(struct call, r->calls, r->capcalls);
	}
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

void ks_reach_free(struct ks_plugin *p)
{
	for (size_t i = 0; i < p->reach.cap; i++) {
		struct fn_reach *r = (struct fn_reach *)p->reach.slots[i].val;

		if (p->reach.slots[i].key && r) {
			XDELETEVEC(r->refs);
			XDELETEVEC(r->calls);
			XDELETE(r);
		}
	}
	ks_strmap_free(&p->reach);
}
