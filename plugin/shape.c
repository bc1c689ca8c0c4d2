/* api=: what the module's own code depends on in the kernel's headers,
 * recorded at the line where the source writes it, for check --target's
 * probe of another kernel: the functions it calls (with the types it
 * passes and whether it uses the value) or takes the address of, the
 * members of the kernel's structs and unions it reads, writes or
 * initializes, the callbacks it stores in them, the aggregates it needs
 * complete, the global variables and typedef names it uses. Bodies are
 * walked before they are gimplified, as written; static initializers and
 * struct definitions when they are finished. Types are written twice: as
 * GCC prints them (for people) and as C declarators that the probe can
 * compile where only the kernel's headers are included. */
/* lib/ first: GCC's options.h defines warn_unused_result as a macro */
#include "array.h"
#include "buf.h"
#include "schedule.h"
#include <ksunset/record.h>

#include "gcc-plugin.h"
#include "tree.h"
#include "c-family/c-common.h"
#include "c-family/c-pretty-print.h"
#include "c-tree.h"
#include "tree-iterator.h"
#include "hash-set.h"
#include "stringpool.h"

#include <stdlib.h>
#include <string.h>

#include "api.h"

#define MAX_DEPTH 2000	/* deeper expressions are not walked further */

/* Whether the type's declaration (its tag's, else its typedef's) is
 * spelled in the kernel's headers. */
static bool kernel_type(struct ks_plugin *p, tree type)
{
	tree mv = TYPE_MAIN_VARIANT(type), stub = TYPE_STUB_DECL(mv);

	if (stub && DECL_SOURCE_LOCATION(stub) > BUILTINS_LOCATION)
		return ks_where_kernel(p, DECL_SOURCE_LOCATION(stub));
	return TYPE_NAME(type) && TREE_CODE(TYPE_NAME(type)) == TYPE_DECL &&
	       ks_where_kernel(p, DECL_SOURCE_LOCATION(TYPE_NAME(type)));
}

static bool kernel_decl(struct ks_plugin *p, tree decl)
{
	return DECL_NAME(decl) && ks_where_kernel(p, DECL_SOURCE_LOCATION(decl));
}

static const char *id(tree name)
{
	if (name && TREE_CODE(name) == TYPE_DECL)
		name = DECL_NAME(name);
	return name && TREE_CODE(name) == IDENTIFIER_NODE ? IDENTIFIER_POINTER(name) : NULL;
}

/* The type as GCC's diagnostics print it, runs of blanks made one. */
char *ks_type_printed(tree type)
{
	c_pretty_printer pp;
	char *s, *d;

	pp.type_id(type);
	s = xstrdup(pp_formatted_text(&pp));
	d = s;
	for (const char *c = s; *c; c++)
		if (*c != ' ' || (d > s && d[-1] != ' '))
			*d++ = *c;
	*d = '\0';
	return s;
}

/* Whether name is a typedef of the kernel's headers. */
static bool kernel_typedef(struct ks_plugin *p, tree name)
{
	return name && TREE_CODE(name) == TYPE_DECL &&
	       ks_where_kernel(p, DECL_SOURCE_LOCATION(name));
}

/* The name of an aggregate: the kernel's typedef name where the source
 * names it so (skb_frag_t, whose struct 6.12 changed: the target's
 * typedef, whatever struct it names there), else "struct tag", else the
 * kernel's typedef of an anonymous struct (atomic_t), also behind a
 * typedef of the module's own (typedef atomic_t rx_atomic_t). NULL: it
 * has none of these. */
static char *aggregate_name(struct ks_plugin *p, tree type)
{
	tree mv = TYPE_MAIN_VARIANT(type);

	if (kernel_typedef(p, TYPE_NAME(type)))
		return xstrdup(id(TYPE_NAME(type)));
	if (TYPE_NAME(mv) && TREE_CODE(TYPE_NAME(mv)) == IDENTIFIER_NODE)
		return ks_strdupf("%s %s", TREE_CODE(mv) == UNION_TYPE ? "union" : "struct",
				  id(TYPE_NAME(mv)));
	return kernel_typedef(p, TYPE_NAME(mv)) ? xstrdup(id(TYPE_NAME(mv))) : NULL;
}

/* The name of a type that is no pointer, array or function, with its
 * qualifiers; NULL: none that the probe could write. A module's own
 * aggregate is written by its tag (the probe declares the tag) only
 * behind a pointer; its enumerations are the integers they are. */
static char *base_name(struct ks_plugin *p, tree type, bool behind_pointer)
{
	tree mv = TYPE_MAIN_VARIANT(type);
	const char *q = TYPE_VOLATILE(type) ? (TYPE_READONLY(type) ? "const volatile " : "volatile ")
					    : (TYPE_READONLY(type) ? "const " : "");
	char *name = NULL, *r;

	if (TYPE_ADDR_SPACE(type))
		return NULL;
	switch (TREE_CODE(mv)) {
	case VOID_TYPE:
	case INTEGER_TYPE:
	case REAL_TYPE:
	case BOOLEAN_TYPE:
		name = id(TYPE_NAME(mv)) ? xstrdup(id(TYPE_NAME(mv))) : NULL;
		break;
	case ENUMERAL_TYPE:
		if (id(TYPE_NAME(mv)) && kernel_type(p, mv))
			name = ks_strdupf("enum %s", id(TYPE_NAME(mv)));
		else
			name = xstrdup(TYPE_UNSIGNED(mv) ? "unsigned int" : "int");
		break;
	case RECORD_TYPE:
	case UNION_TYPE:
		if (behind_pointer || kernel_type(p, type))
			name = aggregate_name(p, type);
		break;
	default:
		break;
	}
	if (!name)
		return NULL;
	r = ks_strdupf("%s%s", q, name);
	free(name);
	return r;
}

static char *spell(struct ks_plugin *p, tree type, char *decl, bool behind_pointer);

/* "(int, char *, ...)": a prototype's parameters, NULL if one cannot be
 * written. */
static char *spell_params(struct ks_plugin *p, tree fntype)
{
	struct ks_buf b = KS_BUF_INIT;
	tree a = TYPE_ARG_TYPES(fntype);
	bool ok = true;

	if (!a)
		return xstrdup("()");	/* no prototype */
	ks_buf_addc(&b, '(');
	for (; ok && a && a != void_list_node; a = TREE_CHAIN(a)) {
		char *s = spell(p, TREE_VALUE(a), xstrdup(""), false);

		ok = s != NULL;
		if (ok)
			ks_buf_addf(&b, "%s%s", b.len > 1 ? ", " : "", s);
		free(s);
	}
	if (!ok) {
		ks_buf_free(&b);
		return NULL;
	}
	if (!a)
		ks_buf_adds(&b, b.len > 1 ? ", ..." : "...");
	else if (b.len == 1)
		ks_buf_adds(&b, "void");
	ks_buf_addc(&b, ')');
	return ks_buf_steal(&b);
}

/* type declaring decl (a declarator, taken), in C's syntax: decl is "@"
 * for a declaration whose name the probe fills in, "" for a type name.
 * NULL: some part cannot be written where only the kernel's headers are
 * included (a module's own typedef of an anonymous struct, a vector). */
static char *spell(struct ks_plugin *p, tree type, char *decl, bool behind_pointer)
{
	char *d = NULL, *base, *r;

	switch (TREE_CODE(type)) {
	case POINTER_TYPE: {
		tree to = TREE_TYPE(type);
		bool paren = TREE_CODE(to) == ARRAY_TYPE || TREE_CODE(to) == FUNCTION_TYPE;

		d = ks_strdupf(paren ? "(*%s%s)" : "*%s%s", TYPE_READONLY(type) ? "const " : "", decl);
		free(decl);
		return spell(p, to, d, true);
	}
	case ARRAY_TYPE: {
		tree dom = TYPE_DOMAIN(type);

		if (dom && TYPE_MAX_VALUE(dom) && tree_fits_uhwi_p(TYPE_MAX_VALUE(dom)))
			d = ks_strdupf("%s[%lu]", decl,
				       (unsigned long)tree_to_uhwi(TYPE_MAX_VALUE(dom)) + 1);
		else
			d = ks_strdupf("%s[]", decl);
		free(decl);
		return spell(p, TREE_TYPE(type), d, behind_pointer);
	}
	case FUNCTION_TYPE: {
		char *params = spell_params(p, type);

		d = params ? ks_strdupf("%s%s", decl, params) : NULL;
		free(params);
		free(decl);
		return d ? spell(p, TREE_TYPE(type), d, false) : NULL;
	}
	default:
		break;
	}
	base = base_name(p, type, behind_pointer);
	r = base ? ks_strdupf("%s%s%s", base, *decl && *decl != '[' ? " " : "", decl) : NULL;
	free(base);
	free(decl);
	return r;
}

static char *spell_decl(struct ks_plugin *p, tree type)
{
	return spell(p, type, xstrdup("@"), false);
}

/* One shape, where loc is spelled in the module's sources (else none):
 * takes old and probe. */
static void add(struct ks_plugin *p, enum ks_shape_what what, const char *name, location_t loc,
		tree fn, char *old, char *probe)
{
	const char *f = fn && DECL_NAME(fn) ? IDENTIFIER_POINTER(DECL_NAME(fn)) : "";
	location_t at = loc == UNKNOWN_LOCATION ? loc : ks_api_written(p, loc);
	struct ks_pshape *s;

	if (!name || at == UNKNOWN_LOCATION) {
		free(old);
		free(probe);
		return;
	}
	ks_array_room((void **)&p->a->shapes, &p->a->capshapes, p->a->nshapes + 1,
		      sizeof(*p->a->shapes));
	s = &p->a->shapes[p->a->nshapes++];
	s->what = what;
	s->name = xstrdup(name);
	s->loc = at;
	s->func = xstrndup(f, ks_function_name_len(f));
	s->old = old ? old : xstrdup("");
	s->probe = probe ? probe : xstrdup("");
	s->decl = s->decl_end = UNKNOWN_LOCATION;
	s->arglines = NULL;
}

void ks_shape_add(struct ks_plugin *p, enum ks_shape_what what, const char *name,
		  location_t loc, tree fn, const char *old)
{
	add(p, what, name, loc, fn, old ? xstrdup(old) : NULL, NULL);
}

/* The arguments of the call or function-like macro whose name is at loc,
 * as the source writes them (over up to 8 lines), and the line each
 * starts on (lines may be NULL); false when they cannot be read. */
static bool source_args(struct ks_plugin *p, location_t loc, char ***args, size_t *nargs,
			unsigned **lines)
{
	expanded_location x = expand_location(loc);
	struct ks_buf arg = KS_BUF_INIT;
	int depth = -1;		/* -1: before the '(' */
	char quote = 0;
	bool done = false;
	unsigned start = 0;	/* the line the argument starts on; 0: not yet */

	*args = NULL;
	*nargs = 0;
	for (int l = 0; x.file && l < 8 && !done; l++) {
		struct ks_line line;
		size_t i = l ? 0 : (size_t)(x.column > 0 ? x.column - 1 : 0);

		if (!ks_text_line(p, x.file, x.line + l, &line))
			break;
		if (!l)		/* the name itself */
			while (i < line.len && (ISIDNUM(line.p[i])))
				i++;
		for (; i < line.len && !done; i++) {
			char c = line.p[i];

			if (depth < 0 && (c == ' ' || c == '\t'))
				continue;
			if (depth < 0 && c != '(')
				break;
			if (depth < 0) {
				depth = 0;
				continue;
			}
			if (!quote && (c == ',' || c == ')') && !depth) {
				if (lines) {
					*lines = XRESIZEVEC(unsigned, *lines, *nargs + 1);
					(*lines)[*nargs] = start ? start : (unsigned)(x.line + l);
				}
				ks_strv_add(args, nargs, arg.p ? arg.p : "");
				ks_buf_reset(&arg);
				start = 0;
				done = c == ')';
				continue;
			}
			if (quote && c == '\\' && i + 1 < line.len)
				ks_buf_addc(&arg, line.p[i++]);
			else if (c == '"' || c == '\'')
				quote = quote == c ? 0 : quote ? quote : c;
			else if (!quote)
				depth += c == '(' || c == '[' || c == '{' ? 1
					 : c == ')' || c == ']' || c == '}' ? -1 : 0;
			if (!start && c != ' ' && c != '\t')
				start = (unsigned)(x.line + l);
			ks_buf_addc(&arg, c);
		}
		if (depth < 0 && !done && l == 0)
			continue;	/* the '(' on the next line */
		if (depth < 0)
			break;
		ks_buf_addc(&arg, ' ');
	}
	ks_buf_free(&arg);
	return done;
}

/* The lines the arguments of the call at loc start on, "L1,L2,..." (0 for
 * one on the call's line), when some argument starts on another line
 * than the call: GCC reports a bad argument at its own line. NULL: none. */
static char *arg_lines(struct ks_plugin *p, location_t loc)
{
	char **args;
	size_t nargs;
	unsigned *lines = NULL, at = (unsigned)expand_location(loc).line;
	struct ks_buf b = KS_BUF_INIT;
	bool other = false;

	if (source_args(p, loc, &args, &nargs, &lines))
		for (size_t i = 0; i < nargs; i++) {
			other |= lines[i] != at;
			ks_buf_addf(&b, "%s%u", i ? "," : "", lines[i] == at ? 0 : lines[i]);
		}
	ks_strv_free(args, nargs);
	XDELETEVEC(lines);
	if (!other) {
		ks_buf_free(&b);
		return NULL;
	}
	return ks_buf_steal(&b);
}

/* The type of one macro argument as written, where the probe can rebuild
 * it: a variable or parameter in scope, its address, a string or an
 * integer constant; "=0" for NULL. NULL: none of these. */
static char *macro_arg_probe(struct ks_plugin *p, const char *a)
{
	size_t n = strlen(a);
	bool addr;
	tree decl;
	char *name;

	while (n && (a[n - 1] == ' ' || a[n - 1] == '\t'))
		n--;
	while (n && (*a == ' ' || *a == '\t'))
		a++, n--;
	if (n == 4 && !strncmp(a, "NULL", 4))
		return xstrdup("=0");
	if (n && a[0] == '"' && a[n - 1] == '"')
		return xstrdup("const char *@");
	if (n && ISDIGIT(a[0]) && strspn(a, "0123456789abcdefxABCDEFXuUlL") == n)
		return xstrdup(strpbrk(a, "lL") ? "long int @" : "int @");
	addr = n && a[0] == '&';
	a += addr, n -= addr;
	if (!n || strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != n ||
	    ISDIGIT(a[0]))
		return NULL;
	name = xstrndup(a, n);
	decl = lookup_name(get_identifier(name));
	free(name);
	if (!decl || (TREE_CODE(decl) != VAR_DECL && TREE_CODE(decl) != PARM_DECL))
		return NULL;
	return spell_decl(p, addr ? build_pointer_type(TREE_TYPE(decl)) : TREE_TYPE(decl));
}

char *ks_shape_macro_probe(struct ks_plugin *p, location_t loc)
{
	struct ks_buf b = KS_BUF_INIT;
	char **args;
	size_t nargs;
	bool ok = source_args(p, loc, &args, &nargs, NULL);

	if (ok)
		ks_buf_adds(&b, "-");
	for (size_t i = 0; ok && i < nargs; i++) {
		char *t = macro_arg_probe(p, args[i]);

		ok = t != NULL;
		if (ok)
			ks_buf_addf(&b, "|%s", t);
		free(t);
	}
	ks_strv_free(args, nargs);
	if (!ok || (nargs == 1 && !*args)) {
		ks_buf_free(&b);
		return NULL;
	}
	return ks_buf_steal(&b);
}

void ks_shape_macro_add(struct ks_plugin *p, const char *name, location_t loc, tree fn,
			const char *params)
{
	add(p, KS_SHAPE_MACRO, name, loc, fn, xstrdup(params), ks_shape_macro_probe(p, loc));
}

void ks_const_add(struct ks_plugin *p, const char *name, location_t loc, tree fn, tree type)
{
	add(p, KS_SHAPE_ENUM, name, loc, fn, ks_type_printed(type), NULL);
}

/* Aggregates by value, arrays of them included, need to be complete,
 * where they are used: a struct by its tag carries in its probe how many
 * of the unit's includes were read by then ("@N"), so the probe asks
 * there (evdi's struct drm_event in its uapi header, complete only
 * through a header it includes later). */
void ks_shape_complete(struct ks_plugin *p, tree type, location_t loc, tree fn)
{
	while (TREE_CODE(type) == ARRAY_TYPE)
		type = TREE_TYPE(type);
	if (RECORD_OR_UNION_TYPE_P(type) && kernel_type(p, type)) {
		char *name = aggregate_name(p, type);
		bool tag = name && (!strncmp(name, "struct ", 7) || !strncmp(name, "union ", 6));

		add(p, KS_SHAPE_COMPLETE, name, loc, fn, NULL,
		    tag ? ks_strdupf("@%zu", p->a->nincludes) : NULL);
		free(name);
	}
}

/* A typedef name of the kernel's that a declaration writes (through
 * pointers and arrays). */
static void need_typedef(struct ks_plugin *p, tree type, location_t loc, tree fn)
{
	while (TREE_CODE(type) == POINTER_TYPE || TREE_CODE(type) == ARRAY_TYPE) {
		if (TYPE_NAME(type) && TREE_CODE(TYPE_NAME(type)) == TYPE_DECL)
			break;
		type = TREE_TYPE(type);
	}
	if (TYPE_NAME(type) && TREE_CODE(TYPE_NAME(type)) == TYPE_DECL &&
	    DECL_ORIGINAL_TYPE(TYPE_NAME(type)) && kernel_decl(p, TYPE_NAME(type)))
		add(p, KS_SHAPE_TYPEDEF, id(TYPE_NAME(type)), loc, fn, NULL, NULL);
}

/* A declaration of the module's own: what its type needs. */
static void need_decl(struct ks_plugin *p, tree decl, tree fn)
{
	location_t loc = DECL_SOURCE_LOCATION(decl);

	need_typedef(p, TREE_TYPE(decl), loc, fn);
	if (TREE_CODE(decl) != PARM_DECL)
		ks_shape_complete(p, TREE_TYPE(decl), loc, fn);
}

struct walk {
	struct ks_plugin *p;
	tree fn;
	location_t loc;		/* the innermost expression's with one */
	hash_set<tree> *seen;
	int depth;
};

/* How a value is used where it stands. */
enum use { VALUE, DISCARDED, STORED };

static void walk(struct walk *w, tree t, enum use u);

/* The function a value names, if it is a function's address. */
static tree function_of(tree v)
{
	STRIP_NOPS(v);
	if (TREE_CODE(v) == ADDR_EXPR)
		v = TREE_OPERAND(v, 0);
	return TREE_CODE(v) == FUNCTION_DECL ? v : NULL_TREE;
}

/* "struct inode.i_mtime" for a named member of a kernel aggregate (the
 * members of its anonymous structs and unions are its own, as C names
 * them); NULL otherwise. */
static char *member_name(struct ks_plugin *p, tree owner, tree field)
{
	char *agg, *r;

	if (TREE_CODE(field) != FIELD_DECL || !DECL_NAME(field) || !RECORD_OR_UNION_TYPE_P(owner) ||
	    !kernel_type(p, owner) || !(agg = aggregate_name(p, owner)))
		return NULL;
	r = ks_strdupf("%s.%s", agg, IDENTIFIER_POINTER(DECL_NAME(field)));
	free(agg);
	return r;
}

/* Where a callback's declarator is spelled: from its name to its last
 * parameter (the types a macro of the module's may have named). */
static void declarator(struct ks_pshape *s, tree fn)
{
	tree last = NULL_TREE;

	for (tree a = DECL_ARGUMENTS(fn); a; a = DECL_CHAIN(a))
		last = a;
	s->decl = DECL_SOURCE_LOCATION(fn);
	s->decl_end = last ? DECL_SOURCE_LOCATION(last) : s->decl;
}

/* A member's read, write or initialization; a function of the module's
 * own stored there is a callback. */
static void member(struct walk *w, tree owner, tree field, enum ks_shape_what what, tree value,
		   location_t loc)
{
	char *name = member_name(w->p, owner, field);
	tree fn = value ? function_of(value) : NULL_TREE, callback = NULL_TREE;
	tree type = TREE_TYPE(field);
	char *probe;
	size_t n;

	if (!name)
		return;
	if (fn && kernel_decl(w->p, fn) && what != KS_SHAPE_READ) {
		/* the kernel's function: the target's, whose type may have
		 * changed with the member's (ethtool_op_get_ts_info) */
		probe = ks_strdupf("=%s", IDENTIFIER_POINTER(DECL_NAME(fn)));
	} else if (fn && what != KS_SHAPE_READ) {
		char *decl = spell_decl(w->p, build_pointer_type(TREE_TYPE(fn)));

		probe = decl ? ks_strdupf("%s|%s", IDENTIFIER_POINTER(DECL_NAME(fn)), decl) : NULL;
		free(decl);
		what = KS_SHAPE_CALLBACK;
		callback = fn;
	} else {
		/* what is read of an array is its first element's address */
		if (what == KS_SHAPE_READ && TREE_CODE(type) == ARRAY_TYPE)
			type = build_pointer_type(TREE_TYPE(type));
		probe = spell_decl(w->p, type);
	}
	n = w->p->a->nshapes;
	add(w->p, what, name, loc, w->fn, ks_type_printed(TREE_TYPE(field)), probe);
	if (callback && w->p->a->nshapes > n)
		declarator(&w->p->a->shapes[n], callback);
	free(name);
}

/* p->m or s.m: the member of the innermost named aggregate. */
static void component(struct walk *w, tree t, enum ks_shape_what what, tree value)
{
	tree base = TREE_OPERAND(t, 0);

	while (TREE_CODE(base) == COMPONENT_REF && !DECL_NAME(TREE_OPERAND(base, 1)))
		base = TREE_OPERAND(base, 0);
	member(w, TREE_TYPE(base), TREE_OPERAND(t, 1), what, value, w->loc);
	walk(w, TREE_OPERAND(t, 0), VALUE);
}

/* What the probe passes for an argument: "=NAME" for a function of the
 * kernel's (the target's function, whose type may have changed with the
 * parameter's), "=0" for a null pointer constant, else the type of the
 * value (a declarator, "@" its name). */
static char *arg_probe(struct walk *w, tree arg)
{
	tree fn = function_of(arg), v = arg;

	STRIP_NOPS(v);
	if (fn && kernel_decl(w->p, fn))
		return ks_strdupf("=%s", IDENTIFIER_POINTER(DECL_NAME(fn)));
	if (POINTER_TYPE_P(TREE_TYPE(arg)) && TREE_CODE(v) == INTEGER_CST && integer_zerop(v))
		return xstrdup("=0");
	return spell_decl(w->p, TREE_TYPE(arg));
}

/* "RET|ARG|ARG...": what the probe passes (arg_probe) and expects back
 * ("-": the value is not used); NULL if a type cannot be written. */
static char *call_probe(struct walk *w, tree call, enum use u)
{
	struct ks_buf b = KS_BUF_INIT;
	tree ret = TREE_TYPE(call);
	char *s = u == DISCARDED || VOID_TYPE_P(ret) ? xstrdup("-") : spell_decl(w->p, ret);
	bool ok = s != NULL;

	if (ok)
		ks_buf_adds(&b, s);
	free(s);
	for (int i = 0; ok && i < call_expr_nargs(call); i++) {
		s = arg_probe(w, CALL_EXPR_ARG(call, i));
		ok = s != NULL;
		if (ok)
			ks_buf_addf(&b, "|%s", s);
		free(s);
	}
	if (!ok) {
		ks_buf_free(&b);
		return NULL;
	}
	return ks_buf_steal(&b);
}

static void call(struct walk *w, tree t, enum use u)
{
	tree fn = get_callee_fndecl(t);
	size_t n = w->p->a->nshapes;

	if (fn && kernel_decl(w->p, fn)) {
		add(w->p, KS_SHAPE_CALL, IDENTIFIER_POINTER(DECL_NAME(fn)), w->loc, w->fn,
		    ks_type_printed(TREE_TYPE(fn)), call_probe(w, t, u));
		/* written by the module itself, over several lines */
		if (w->p->a->nshapes > n && w->p->a->shapes[n].loc == ks_where_spelling(w->loc))
			w->p->a->shapes[n].arglines = arg_lines(w->p, w->p->a->shapes[n].loc);
	}
	else if (!fn)
		walk(w, CALL_EXPR_FN(t), VALUE);
	for (int i = 0; i < call_expr_nargs(t); i++)
		walk(w, CALL_EXPR_ARG(t, i), VALUE);
}

/* An initializer of an aggregate of type type: designated members, nested
 * aggregates and arrays of them. owner is the named aggregate whose
 * members the elements are (an anonymous member's are its container's). */
/* Where the initializer that starts at from writes the designator
 * ".name": a constant's element has no location of its own. Read up to
 * the end of the declaration (a ';' outside braces). UNKNOWN_LOCATION:
 * it does not, and a kernel macro made the element (DEFINE_SPINLOCK()'s
 * .rlock), which is the target's own business, not the module's. */
static location_t designator(struct ks_plugin *p, location_t from, const char *name)
{
	expanded_location x = expand_location(from);
	size_t n = strlen(name);
	int depth = 0;

	if (!x.file || linemap_location_from_macro_expansion_p(line_table, from))
		return UNKNOWN_LOCATION;
	for (int l = 0; l < 200; l++) {
		struct ks_line line;
		size_t i = l ? 0 : (size_t)(x.column > 0 ? x.column - 1 : 0);

		if (!ks_text_line(p, x.file, x.line + l, &line))
			break;
		for (; i < line.len; i++) {
			char c = line.p[i];

			depth += c == '{' ? 1 : c == '}' ? -1 : 0;
			if (c == ';' && depth <= 0)
				return UNKNOWN_LOCATION;
			if (c != '.' || i + 1 + n > line.len || memcmp(line.p + i + 1, name, n) ||
			    (i + 1 + n < line.len && ISIDNUM(line.p[i + 1 + n])))
				continue;
			return linemap_position_for_line_and_column(
				line_table, linemap_check_ordinary(linemap_lookup(line_table, from)),
				x.line + l, (unsigned)i + 1);
		}
	}
	return UNKNOWN_LOCATION;
}

static void initializer(struct walk *w, tree owner, tree init)
{
	unsigned i;
	tree idx, val, type = TREE_TYPE(init);
	location_t saved = w->loc;

	if (TREE_CODE(init) != CONSTRUCTOR) {
		walk(w, init, VALUE);
		return;
	}
	FOR_EACH_CONSTRUCTOR_ELT(CONSTRUCTOR_ELTS(init), i, idx, val) {
		/* the value's, where the module spells it (THIS_MODULE is
		 * the kernel's: the designator's) */
		if (EXPR_P(val) && EXPR_HAS_LOCATION(val) &&
		    ks_api_written(w->p, EXPR_LOCATION(val)) != UNKNOWN_LOCATION)
			w->loc = EXPR_LOCATION(val);
		else if (idx && TREE_CODE(idx) == FIELD_DECL && DECL_NAME(idx))
			w->loc = designator(w->p, w->loc, IDENTIFIER_POINTER(DECL_NAME(idx)));
		if (w->loc == UNKNOWN_LOCATION) {
			w->loc = saved;
			continue;
		}
		if (TREE_CODE(type) == ARRAY_TYPE) {
			initializer(w, TREE_TYPE(type), val);
		} else if (idx && TREE_CODE(idx) == FIELD_DECL) {
			tree anon = DECL_NAME(idx) ? NULL_TREE : owner;

			if (!anon)
				member(w, owner, idx, KS_SHAPE_INIT, val, w->loc);
			initializer(w, anon ? anon : TREE_TYPE(idx), val);
		}
		w->loc = saved;
	}
}

/* A local declaration: its type's needs and its initializer (a static
 * one's is walked when it is finished, ks_shape_decl). */
static void local(struct walk *w, tree decl)
{
	if (TREE_CODE(decl) != VAR_DECL)
		return;
	need_decl(w->p, decl, w->fn);
	if (DECL_INITIAL(decl) && !TREE_STATIC(decl) && !DECL_EXTERNAL(decl)) {
		location_t saved = w->loc;

		w->loc = DECL_SOURCE_LOCATION(decl);
		initializer(w, TREE_TYPE(decl), DECL_INITIAL(decl));
		w->loc = saved;
	}
}

/* A global variable of the kernel's (declared in its headers, defined
 * elsewhere), at the expression that names it. */
static void variable(struct walk *w, tree decl)
{
	if (DECL_EXTERNAL(decl) && kernel_decl(w->p, decl))
		add(w->p, KS_SHAPE_VAR, IDENTIFIER_POINTER(DECL_NAME(decl)), w->loc, w->fn,
		    ks_type_printed(TREE_TYPE(decl)), NULL);
}

static void assign(struct walk *w, tree t)
{
	tree lhs = TREE_OPERAND(t, 0), rhs = TREE_OPERAND(t, 1);

	if (TREE_CODE(lhs) == COMPONENT_REF) {
		tree base = TREE_OPERAND(lhs, 0);

		while (TREE_CODE(base) == COMPONENT_REF && !DECL_NAME(TREE_OPERAND(base, 1)))
			base = TREE_OPERAND(base, 0);
		member(w, TREE_TYPE(base), TREE_OPERAND(lhs, 1), KS_SHAPE_WRITE, rhs, w->loc);
		w->seen->add(lhs);	/* a compound assignment reads it again */
		walk(w, TREE_OPERAND(lhs, 0), VALUE);
	} else {
		walk(w, lhs, STORED);
	}
	walk(w, rhs, VALUE);
}

/* Expressions and statements whose operands are walked in their own way. */
static bool special(struct walk *w, tree t, enum use u)
{
	switch (TREE_CODE(t)) {
	case STATEMENT_LIST:
		for (tree_stmt_iterator i = tsi_start(t); !tsi_end_p(i); tsi_next(&i))
			walk(w, tsi_stmt(i), DISCARDED);
		return true;
	case BIND_EXPR:
		walk(w, BIND_EXPR_BODY(t), DISCARDED);
		return true;
	case DECL_EXPR:
		local(w, DECL_EXPR_DECL(t));
		return true;
	case CALL_EXPR:
		call(w, t, u);
		return true;
	case ADDR_EXPR:
		if (TREE_CODE(TREE_OPERAND(t, 0)) == FUNCTION_DECL) {
			tree fn = TREE_OPERAND(t, 0);

			if (kernel_decl(w->p, fn))
				add(w->p, KS_SHAPE_ADDR, IDENTIFIER_POINTER(DECL_NAME(fn)), w->loc,
				    w->fn, ks_type_printed(TREE_TYPE(fn)), NULL);
			return true;
		}
		return false;
	case COMPONENT_REF:
		component(w, t, u == STORED ? KS_SHAPE_WRITE : KS_SHAPE_READ, NULL_TREE);
		return true;
	case MODIFY_EXPR:
	case INIT_EXPR:
		assign(w, t);
		return true;
	case PREINCREMENT_EXPR:
	case PREDECREMENT_EXPR:
	case POSTINCREMENT_EXPR:
	case POSTDECREMENT_EXPR:
		walk(w, TREE_OPERAND(t, 0), STORED);
		return true;
	case CONSTRUCTOR:
		initializer(w, TREE_TYPE(t), t);
		return true;
	case COMPOUND_EXPR:
		walk(w, TREE_OPERAND(t, 0), DISCARDED);
		walk(w, TREE_OPERAND(t, 1), u);
		return true;
	case COND_EXPR:
		walk(w, TREE_OPERAND(t, 0), VALUE);
		u = u == DISCARDED || VOID_TYPE_P(TREE_TYPE(t)) ? DISCARDED : VALUE;
		walk(w, TREE_OPERAND(t, 1), u);
		walk(w, TREE_OPERAND(t, 2), u);
		return true;
	case NOP_EXPR:
	case CONVERT_EXPR:
		if (!VOID_TYPE_P(TREE_TYPE(t)))
			return false;
		walk(w, TREE_OPERAND(t, 0), DISCARDED);
		return true;
	case VAR_DECL:
		variable(w, t);
		return true;
	default:
		return false;
	}
}

static void walk(struct walk *w, tree t, enum use u)
{
	location_t saved = w->loc;
	bool stmt;

	if (!t || t == error_mark_node || TYPE_P(t) || w->depth > MAX_DEPTH)
		return;
	if (!DECL_P(t) && TREE_CODE(t) != STATEMENT_LIST && w->seen->add(t))
		return;
	if (EXPR_P(t) && EXPR_HAS_LOCATION(t))
		w->loc = EXPR_LOCATION(t);
	w->depth++;
	stmt = TREE_CODE_CLASS(TREE_CODE(t)) == tcc_statement;
	if (!special(w, t, u) && (EXPR_P(t) || stmt)) {
		for (int i = 0; i < TREE_OPERAND_LENGTH(t); i++)
			walk(w, TREE_OPERAND(t, i), stmt ? DISCARDED : VALUE);
	}
	w->depth--;
	w->loc = saved;
}

/* A function of the module's own, before it is gimplified: its
 * parameters' and return type's typedef names, then its body. */
/* A name the module defines for itself, static at file scope: a kernel
 * that comes to declare it (6.12's abort(), which openafs defines)
 * breaks its build. */
static void defines_static(struct ks_plugin *p, tree decl)
{
	if (!TREE_PUBLIC(decl) && DECL_NAME(decl) && DECL_FILE_SCOPE_P(decl) &&
	    !DECL_ARTIFICIAL(decl))
		add(p, KS_SHAPE_STATIC, IDENTIFIER_POINTER(DECL_NAME(decl)),
		    DECL_SOURCE_LOCATION(decl), NULL_TREE, NULL, NULL);
}

void ks_shape_function(struct ks_plugin *p, tree fn)
{
	hash_set<tree> seen;
	struct walk w = { p, fn, DECL_SOURCE_LOCATION(fn), &seen, 0 };

	defines_static(p, fn);
	for (size_t i = 0; i < p->a->nprotos; i++)
		if (p->a->protos[i].fn == fn)
			add(p, KS_SHAPE_DECLARED, p->a->protos[i].tag, DECL_SOURCE_LOCATION(fn), fn,
			    NULL, ks_strdupf("@%zu", p->a->protos[i].nincludes));
	need_typedef(p, TREE_TYPE(TREE_TYPE(fn)), DECL_SOURCE_LOCATION(fn), fn);
	for (tree a = DECL_ARGUMENTS(fn); a; a = DECL_CHAIN(a))
		need_decl(p, a, fn);
	walk(&w, DECL_SAVED_TREE(fn), DISCARDED);
}

/* A prototype of the module's own, in its own files: the kernel structs
 * its parameters point to by their tags, remembered with how many of the
 * unit's includes were read by then, for the function's definition (the
 * same tree, once GCC merged them): where the target's headers declare
 * the tag only later, the prototype's parameter is a struct of its own
 * scope, and the definition conflicts with it (evdi's struct i2c_msg in
 * its own header, declared on 6.1 by <drm/drm_crtc_helper.h>). */
void ks_shape_prototype(struct ks_plugin *p, tree decl)
{
	/* most are the kernel's headers' own, read as they are declared */
	if (TREE_CODE(decl) != FUNCTION_DECL || DECL_INITIAL(decl) ||
	    ks_api_reading_foreign(p) ||
	    ks_api_foreign(p, ks_where_spelling(DECL_SOURCE_LOCATION(decl))))
		return;
	for (tree a = TYPE_ARG_TYPES(TREE_TYPE(decl)); a; a = TREE_CHAIN(a)) {
		tree t = TREE_VALUE(a);

		while (TREE_CODE(t) == POINTER_TYPE)
			t = TREE_TYPE(t);
		if (!RECORD_OR_UNION_TYPE_P(t) || !TYPE_NAME(t) ||
		    TREE_CODE(TYPE_NAME(t)) != IDENTIFIER_NODE || !kernel_type(p, t))
			continue;
		ks_array_room((void **)&p->a->protos, &p->a->capprotos, p->a->nprotos + 1,
			      sizeof(*p->a->protos));
		p->a->protos[p->a->nprotos++] = (struct ks_pproto){
			decl, ks_strdupf("%s %s", TREE_CODE(t) == UNION_TYPE ? "union" : "struct",
					 IDENTIFIER_POINTER(TYPE_NAME(t))),
			p->a->nincludes
		};
	}
}

/* A variable of static storage that the module's sources define: its
 * type's needs and its initializer, each element at its own place. */
void ks_shape_decl(struct ks_plugin *p, tree decl)
{
	hash_set<tree> seen;
	tree fn = DECL_CONTEXT(decl) && TREE_CODE(DECL_CONTEXT(decl)) == FUNCTION_DECL
			  ? DECL_CONTEXT(decl)
			  : NULL_TREE;
	struct walk w = { p, fn, DECL_SOURCE_LOCATION(decl), &seen, 0 };

	if (ks_api_foreign(p, ks_where_spelling(DECL_SOURCE_LOCATION(decl))))
		return;
	defines_static(p, decl);
	need_decl(p, decl, fn);
	if (DECL_INITIAL(decl))
		initializer(&w, TREE_TYPE(decl), DECL_INITIAL(decl));
	if (!fn)	/* a function's own are its scan's */
		ks_consts_scan(p, NULL_TREE, DECL_SOURCE_LOCATION(decl), input_location);
}

/* A struct or union of the module's own: the kernel's aggregates it
 * embeds and the typedef names its members write. */
void ks_shape_type(struct ks_plugin *p, tree type)
{
	if (!RECORD_OR_UNION_TYPE_P(type) || !COMPLETE_TYPE_P(type) || kernel_type(p, type))
		return;
	for (tree f = TYPE_FIELDS(type); f; f = DECL_CHAIN(f))
		if (TREE_CODE(f) == FIELD_DECL)
			need_decl(p, f, NULL_TREE);
}

/* By place (ks_cmp_place's order, from the places expanded once), name,
 * kind and probe. */
static int cmp_shape(const void *a, const void *b)
{
	const struct ks_pshape *x = (const struct ks_pshape *)a, *y = (const struct ks_pshape *)b;
	/* one file, one name: GCC's line maps share it */
	int r = x->at.file == y->at.file
			? 0
			: strcmp(x->at.file ? x->at.file : "", y->at.file ? y->at.file : "");

	if (!r && x->at.line != y->at.line)
		r = x->at.line < y->at.line ? -1 : 1;
	if (!r && x->at.column != y->at.column)
		r = x->at.column < y->at.column ? -1 : 1;
	r = r ? r : strcmp(x->name, y->name);
	r = r ? r : (int)x->what - (int)y->what;
	return r ? r : strcmp(x->probe, y->probe);
}

static bool same_shape(const struct ks_pshape *a, const struct ks_pshape *b)
{
	return a->loc == b->loc && a->what == b->what && !strcmp(a->name, b->name) &&
	       !strcmp(a->probe, b->probe);
}

void ks_shape_encode(struct ks_plugin *p, struct ks_buf *desc)
{
	for (size_t i = 0; i < p->a->nshapes; i++)
		p->a->shapes[i].at = expand_location(p->a->shapes[i].loc);
	if (p->a->nshapes)
		qsort(p->a->shapes, p->a->nshapes, sizeof(*p->a->shapes), cmp_shape);
	for (size_t i = 0; i < p->a->nshapes; i++) {
		const struct ks_pshape *s = &p->a->shapes[i];
		struct ks_record_use place;
		struct ks_record_shape rec;

		if (i && same_shape(&p->a->shapes[i - 1], s))
			continue;
		ks_record_place(p, s->loc, &place);
		rec.what = s->what;
		rec.name = s->name;
		rec.file = place.file;
		rec.line = place.line;
		rec.col = place.col;
		rec.function = s->func;
		rec.old = s->old;
		rec.probe = s->probe;
		rec.arglines = s->arglines;
		ks_record_encode_shape(desc, &rec);
	}
}

void ks_shape_free(struct ks_plugin *p)
{
	ks_consts_free(p);
	for (size_t i = 0; i < p->a->nshapes; i++) {
		free(p->a->shapes[i].name);
		free(p->a->shapes[i].func);
		free(p->a->shapes[i].old);
		free(p->a->shapes[i].probe);
		free(p->a->shapes[i].arglines);
	}
	free(p->a->shapes);
	p->a->shapes = NULL;
	p->a->nshapes = p->a->capshapes = 0;
	for (size_t i = 0; i < p->a->nprotos; i++)
		free(p->a->protos[i].tag);
	free(p->a->protos);
	p->a->protos = NULL;
	p->a->nprotos = p->a->capprotos = 0;
	XDELETEVEC(p->a->own_macros);
	p->a->own_macros = NULL;
	p->a->nown_macros = p->a->capown_macros = 0;
}
