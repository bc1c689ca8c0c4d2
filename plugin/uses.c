/* Finding uses. An early GIMPLE pass (before "cfg", before any inlining)
 * sees the module's own functions as written; a late pass (after
 * "optimized") sees calls that came in with kernel-header inline functions
 * and places them at the innermost call site in the module's sources.
 * Static initializers are walked when each variable is finished, before the
 * optimiser can drop them. */
/* lib/ first: GCC's options.h defines warn_unused_result as a macro */
#include "buf.h"
#include "schedule.h"
#include <ksunset/record.h>

#include "gcc-plugin.h"
#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimple-walk.h"

#include "api.h"

/* Where the uses in one statement are reported. */
struct site {
	bool known;
	bool skip;		/* the other pass reports this statement */
	bool own_code;		/* loc is in the module's own code, not a wrapper's call */
	location_t loc;		/* GCC's, not yet resolved to a token */
	tree fn;
	tree callee;		/* the kernel-header function called at loc */
};

struct scan {
	struct ks_plugin *p;
	location_t loc;		/* the statement's, or a PHI argument's */
	tree block;		/* its lexical block */
	bool late;
	bool init;		/* a static initializer's walk, not a pass's */
	struct site site;
};

static location_t loc_or_decl(location_t loc, tree fn)
{
	if (LOCATION_LOCUS(loc) == UNKNOWN_LOCATION && fn)
		loc = DECL_SOURCE_LOCATION(fn);
	return loc;
}

static bool foreign(struct ks_plugin *p, location_t loc)
{
	return ks_where_foreign(p, ks_where_resolve(loc));
}

/* The early pass owns statements written in the module's own code. */
static void early_site(struct ks_plugin *p, location_t loc, struct site *s)
{
	s->fn = current_function_decl;
	s->loc = loc_or_decl(loc, s->fn);
	s->skip = foreign(p, s->loc);
	s->own_code = true;
}

/* The late pass owns statements written in foreign (kernel-header) code:
 * walks the inline chain outwards to the first call site in the module's
 * sources. With none (a kernel inline function emitted out of line), the
 * statement's own location is the best there is. */
static void late_site(struct ks_plugin *p, location_t loc, tree b, struct site *s)
{
	location_t first = UNKNOWN_LOCATION;
	tree fn = current_function_decl, first_fn = fn, callee = NULL_TREE;
	bool innermost = true;

	for (; b && TREE_CODE(b) == BLOCK; b = BLOCK_SUPERCONTEXT(b)) {
		tree origin;

		if (!inlined_function_outer_scope_p(b))
			continue;
		origin = block_ultimate_origin(b);
		fn = origin && TREE_CODE(origin) == FUNCTION_DECL ? origin : NULL_TREE;
		if (innermost) {
			first = loc_or_decl(loc, fn);
			first_fn = fn;
		}
		if (!foreign(p, loc_or_decl(loc, fn)))
			goto found;
		loc = BLOCK_SOURCE_LOCATION(b);
		callee = fn;
		innermost = false;
		fn = current_function_decl;
	}
	fn = current_function_decl;
	if (innermost)
		first = loc_or_decl(loc, fn);
	if (!foreign(p, loc_or_decl(loc, fn)))
		goto found;
	s->loc = first;
	s->fn = first_fn;
	s->skip = false;
	s->own_code = false;
	return;
found:
	s->loc = loc_or_decl(loc, fn);
	s->fn = fn;
	s->callee = callee;
	s->skip = innermost;	/* the early pass saw it where it is written */
	s->own_code = false;	/* the call of a kernel-header function */
}

static const char *decl_name(tree decl)
{
	return DECL_NAME(decl) ? IDENTIFIER_POINTER(DECL_NAME(decl)) : "";
}

/* A use in a kernel-header function is reported at the module's call of
 * it: GCC's location of the call, but when the call is an argument of
 * another, GCC gives it the location of the outer call, and the wrapper's
 * name is then found inside that call (or among the arguments of the
 * macro that makes it). */
static location_t locate_call(struct ks_plugin *p, location_t loc, const char *name,
			      const char *wrapper, bool *own)
{
	bool at_wrapper;
	location_t tok = ks_token_locate(loc, name, KS_TOKEN_AT, own), written;

	if (*own || !wrapper || !*wrapper)
		return tok;
	written = ks_reach_written(p, loc, wrapper);
	if (written != UNKNOWN_LOCATION)
		tok = ks_token_locate(written, wrapper, KS_TOKEN_AT, &at_wrapper);
	else
		tok = ks_token_locate(loc, wrapper, KS_TOKEN_ARGS, &at_wrapper);
	/* a fix-it only where the token is the scheduled name itself */
	*own = at_wrapper && !strcmp(wrapper, name);
	return tok;
}

/* The early pass notes what each function, as written, reaches. */
static void note(struct ks_plugin *p, location_t loc, tree decl, const char *sym)
{
	if (p->early_fn != current_function_decl) {
		p->early_fn = current_function_decl;
		p->early_fn_foreign = foreign(p, DECL_SOURCE_LOCATION(current_function_decl));
	}
	ks_reach_note(p, current_function_decl, p->early_fn_foreign, decl, sym, loc);
}

/* Data or an address that the optimiser moved out of the inline function
 * that wrote it (reach.c): where the late pass finds it, the function as
 * written does not reach it. It is reported at the module's call of a
 * kernel-header function that does, or not at all when none does and the
 * module's own code holds it (the early pass saw it there, if anywhere). */
static void moved(struct ks_plugin *p, const char *sym, struct site *s, const char **wrapper)
{
	tree at = s->skip ? s->fn : s->callee;
	location_t loc;
	const char *callee;

	if (!at || ks_reach(p, at, sym) != KS_REACH_NO)
		return;
	if (!ks_reach_call(p, s->fn, sym, &loc, &callee))
		return;
	s->loc = loc;
	s->skip = false;
	s->own_code = false;
	*wrapper = callee;
}

static void use(struct scan *sc, tree decl, enum ks_use_kind kind, location_t oploc)
{
	const char *sym = NULL;
	const struct ks_entry *e = ks_mark_lookup(sc->p, decl, &sym);
	const char *wrapper;
	struct site site;
	location_t loc;
	enum ks_token_how how;
	bool own;

	if (!sc->late && current_function_decl && (e || TREE_CODE(decl) == FUNCTION_DECL))
		note(sc->p, sc->loc, decl, e ? sym : NULL);
	if (!e)
		return;
	if (!sc->site.known) {
		if (sc->late)
			late_site(sc->p, sc->loc, sc->block, &sc->site);
		else
			early_site(sc->p, sc->loc, &sc->site);
		sc->site.known = true;
	}
	site = sc->site;
	wrapper = site.callee ? decl_name(site.callee) : NULL;
	if (sc->late && kind != KS_USE_CALL)
		moved(sc->p, sym, &site, &wrapper);
	if (site.skip)
		return;
	loc = site.loc;
	/* An operand's own location (an argument, an initializer) is more
	 * precise than the statement's, if it is in the same place. */
	if (!sc->late && oploc != UNKNOWN_LOCATION && !foreign(sc->p, oploc))
		loc = oploc;
	if (!site.own_code) {
		loc = locate_call(sc->p, loc, decl_name(decl), wrapper, &own);
	} else {
		how = kind == KS_USE_CALL ? KS_TOKEN_RANGE : KS_TOKEN_ARGS;
		loc = ks_token_locate(loc, decl_name(decl), how, &own);
	}
	ks_puse_add(sc->p, decl, e, sym, kind, loc, own, site.fn);
}

static tree walk_op(tree *tp, int *walk_subtrees, void *data)
{
	struct walk_stmt_info *wi = (struct walk_stmt_info *)data;
	struct scan *sc = (struct scan *)wi->info;
	tree t = *tp;
	location_t oploc = EXPR_P(t) ? EXPR_LOCATION(t) : UNKNOWN_LOCATION;

	if (TYPE_P(t)) {
		*walk_subtrees = 0;
	} else if (TREE_CODE(t) == ADDR_EXPR && TREE_CODE(TREE_OPERAND(t, 0)) == FUNCTION_DECL) {
		use(sc, TREE_OPERAND(t, 0), KS_USE_ADDR, oploc);
		*walk_subtrees = 0;
	} else if (TREE_CODE(t) == FUNCTION_DECL) {
		use(sc, t, KS_USE_ADDR, UNKNOWN_LOCATION);
	} else if (TREE_CODE(t) == VAR_DECL) {
		use(sc, t, KS_USE_DATA, UNKNOWN_LOCATION);
	}
	return NULL_TREE;
}

static void walk_tree_ops(struct scan *sc, tree t)
{
	struct walk_stmt_info wi;

	if (!t)
		return;
	memset(&wi, 0, sizeof(wi));
	wi.info = sc;
	walk_tree(&t, walk_op, &wi, NULL);
}

static void scan_stmt(struct ks_plugin *p, gimple *stmt, bool late)
{
	struct scan sc = { p, gimple_location(stmt), gimple_block(stmt), late, false,
			   { false, false, false, UNKNOWN_LOCATION, NULL_TREE, NULL_TREE } };
	struct walk_stmt_info wi;

	if (is_gimple_debug(stmt))
		return;
	if (is_gimple_call(stmt) && gimple_call_fndecl(stmt)) {
		gcall *call = as_a<gcall *>(stmt);

		use(&sc, gimple_call_fndecl(stmt), KS_USE_CALL, UNKNOWN_LOCATION);
		walk_tree_ops(&sc, gimple_call_lhs(call));
		for (unsigned i = 0; i < gimple_call_num_args(call); i++)
			walk_tree_ops(&sc, gimple_call_arg(call, i));
		return;
	}
	memset(&wi, 0, sizeof(wi));
	wi.info = &sc;
	walk_gimple_op(stmt, walk_op, &wi);
}

/* A PHI's arguments: an address an inline function returned (return
 * &nf_ct_zone_dflt;) is one once the function is inlined, often with no
 * location left. */
static void scan_phi(struct ks_plugin *p, gphi *phi)
{
	for (unsigned i = 0; i < gimple_phi_num_args(phi); i++) {
		location_t loc = gimple_phi_arg_location(phi, i);
		struct scan sc = { p, loc, LOCATION_BLOCK(loc), true, false,
				   { false, false, false, UNKNOWN_LOCATION, NULL_TREE, NULL_TREE } };

		walk_tree_ops(&sc, gimple_phi_arg_def(phi, i));
	}
}

static tree early_stmt(gimple_stmt_iterator *gsi, bool *handled_ops, struct walk_stmt_info *wi)
{
	scan_stmt((struct ks_plugin *)wi->info, gsi_stmt(*gsi), false);
	*handled_ops = false;	/* on to the statements inside it, if any */
	return NULL_TREE;
}

/* The early pass runs before the CFG is built: building it drops the code
 * that a constant condition makes dead ('if (0)', IS_ENABLED(...) false),
 * which is still a use in the source. */
static void scan_function(struct ks_plugin *p, function *fun, bool late)
{
	basic_block bb;

	if (!late) {
		struct walk_stmt_info wi;

		note(p, UNKNOWN_LOCATION, NULL_TREE, NULL);
		memset(&wi, 0, sizeof(wi));
		wi.info = p;
		walk_gimple_seq(gimple_body(fun->decl), early_stmt, NULL, &wi);
		return;
	}
	FOR_EACH_BB_FN(bb, fun) {
		for (gphi_iterator gsi = gsi_start_phis(bb); !gsi_end_p(gsi); gsi_next(&gsi))
			scan_phi(p, gsi.phi());
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
			scan_stmt(p, gsi_stmt(gsi), late);
	}
}

static const pass_data early_data = {
	GIMPLE_PASS, "ksunset_early", OPTGROUP_NONE, TV_NONE, PROP_gimple_any, 0, 0, 0, 0,
};

static const pass_data late_data = {
	GIMPLE_PASS, "ksunset_late", OPTGROUP_NONE, TV_NONE, PROP_cfg, 0, 0, 0, 0,
};

namespace {
class ks_pass : public gimple_opt_pass {
public:
	ks_pass(const pass_data &d, gcc::context *ctxt, struct ks_plugin *p, bool late)
		: gimple_opt_pass(d, ctxt), p_(p), late_(late)
	{
	}
	unsigned int execute(function *fun) final override
	{
		scan_function(p_, fun, late_);
		return 0;
	}

private:
	struct ks_plugin *p_;
	bool late_;
};
} // namespace

static void add_pass(const char *plugin, opt_pass *pass, pass_positioning_ops pos,
		     const char *ref)
{
	struct register_pass_info info;

	info.pass = pass;
	info.reference_pass_name = ref;
	info.ref_pass_instance_number = 1;
	info.pos_op = pos;
	register_callback(plugin, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
}

static void pre_genericize(void *gcc_data, void *user_data)
{
	struct ks_plugin *p = (struct ks_plugin *)user_data;
	tree fn = (tree)gcc_data;

	if (!foreign(p, DECL_SOURCE_LOCATION(fn)))
		ks_reach_nested(p, fn);
}

void ks_uses_register(struct ks_plugin *p, const char *plugin_name)
{
	register_callback(plugin_name, PLUGIN_PRE_GENERICIZE, pre_genericize, p);
	add_pass(plugin_name, new ks_pass(early_data, g, p, false), PASS_POS_INSERT_BEFORE, "cfg");
	add_pass(plugin_name, new ks_pass(late_data, g, p, true), PASS_POS_INSERT_AFTER,
		 "optimized");
}

/* Initializers of static storage: one use per element that names a
 * scheduled function or variable, at the element's own location. */
static void walk_init(struct scan *sc, tree t, location_t loc, int depth)
{
	if (!t || t == error_mark_node || depth > 64 || TYPE_P(t))
		return;
	if (EXPR_P(t) && EXPR_HAS_LOCATION(t))
		loc = EXPR_LOCATION(t);
	switch (TREE_CODE(t)) {
	case CONSTRUCTOR: {
		unsigned i;
		tree v;

		FOR_EACH_CONSTRUCTOR_VALUE(CONSTRUCTOR_ELTS(t), i, v)
			walk_init(sc, v, loc, depth + 1);
		return;
	}
	case FUNCTION_DECL:
		sc->site.loc = loc;
		use(sc, t, KS_USE_ADDR, UNKNOWN_LOCATION);
		return;
	case VAR_DECL:
		sc->site.loc = loc;
		use(sc, t, KS_USE_DATA, UNKNOWN_LOCATION);
		/* a compound literal's initializer is part of this one */
		if (DECL_ARTIFICIAL(t) && !DECL_NAME(t) && TREE_STATIC(t))
			walk_init(sc, DECL_INITIAL(t), loc, depth + 1);
		return;
	default:
		break;
	}
	if (EXPR_P(t)) {
		for (int i = 0; i < TREE_OPERAND_LENGTH(t); i++)
			walk_init(sc, TREE_OPERAND(t, i), loc, depth + 1);
	}
}

void ks_uses_finish_decl(struct ks_plugin *p, tree decl)
{
	struct scan sc = { p, UNKNOWN_LOCATION, NULL_TREE, false, true,
			   { true, false, true, UNKNOWN_LOCATION, NULL_TREE, NULL_TREE } };

	if (TREE_CODE(decl) == FUNCTION_DECL && p->api) {
		ks_shape_prototype(p, decl);
		return;
	}
	if (TREE_CODE(decl) != VAR_DECL || !TREE_STATIC(decl) || DECL_EXTERNAL(decl))
		return;
	if (p->api)
		ks_shape_decl(p, decl);
	if (DECL_CONTEXT(decl) && TREE_CODE(DECL_CONTEXT(decl)) == FUNCTION_DECL)
		sc.site.fn = DECL_CONTEXT(decl);
	walk_init(&sc, DECL_INITIAL(decl), DECL_SOURCE_LOCATION(decl), 0);
}
