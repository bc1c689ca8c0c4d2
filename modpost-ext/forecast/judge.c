/* A probe's results judged: for each shape of the unit, the target's
 * fact (how it declares the name) and the compiler's errors on the line
 * that rebuilt the use give the kind of break, if any. The rule of each
 * kind is in kind_of(); every break is one site of a diff of the module
 * (struct ks_diff, grouped by kind and name). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array.h"
#include "forecast/probe.h"

static const char *const break_names[] = {
#define KS_BREAK(id, name, wording, sarif, decided, headers) [KS_BREAK_##id] = name,
#include "forecast/breaks.def"
#undef KS_BREAK
};
_Static_assert(KS_ARRAY_SIZE(break_names) == KS_NBREAKS, "a name per kind of break");

/* Whether other headers than the probe's could undo a kind of break. */
enum ks_undo { KS_STANDS, KS_UNLESS_DECLARED, KS_UNDONE };
static const enum ks_undo break_undo[] = {
#define KS_BREAK(id, name, wording, sarif, decided, headers) [KS_BREAK_##id] = headers,
#include "forecast/breaks.def"
#undef KS_BREAK
};
_Static_assert(KS_ARRAY_SIZE(break_undo) == KS_NBREAKS, "a HEADERS per kind of break");

const char *ks_break_name(enum ks_break k)
{
	return (unsigned)k < KS_NBREAKS ? break_names[k] : "?";
}

/* What judges one item: its fact, its errors, and the target's exports. */
struct judged {
	const struct ks_record_shape *sh;
	const struct ks_record_fact *fact;
	const struct ks_record_error *error;	/* the first on its use; NULL */
	bool exported;		/* a declared-only function or variable is exported */
	const char *header;	/* where the target's headers declare the name (an
				 * incomplete aggregate: define it); NULL */
	unsigned nargs;
};

#define NO_BREAK KS_NBREAKS

/* A name the unit's headers do not declare: declared elsewhere there, or
 * nowhere. */
static enum ks_break missing(const struct judged *j)
{
	return j->header ? KS_BREAK_NOT_INCLUDED : KS_BREAK_GONE;
}

/* "(a, b)" -> 2, "(fmt, ...)" -> 2 with *variadic. */
static unsigned count_params(const char *ps, bool *variadic)
{
	unsigned n = 0;

	*variadic = strstr(ps, "...") != NULL;
	if (!strcmp(ps, "()") || !*ps)
		return 0;
	for (n = 1; *ps; ps++)
		n += *ps == ',';
	return n;
}

/* Whether a function-like macro used with the old parameters (old) still
 * takes them: as a macro (new), or as a function of extra's parameters. */
static bool arity_fits(const char *old, const char *now, const char *extra, bool macro)
{
	bool ov, nv;
	unsigned o = count_params(old, &ov), n;

	if (ov)			/* how many the source passed is not recorded */
		return true;
	if (macro) {
		n = count_params(now, &nv);
		return nv ? o + 1 >= n : o == n;
	}
	if (!extra || *extra == '?')
		return true;
	n = (unsigned)strtoul(extra, (char **)&extra, 10);
	return *extra == '+' ? o >= n : o == n;
}

/* A function or variable only declared must be exported by the target
 * (or by a module given with it): else modpost refuses the module. */
static enum ks_break declared_only(const struct judged *j)
{
	return j->exported ? NO_BREAK : KS_BREAK_GONE;
}

/* Whether the error on a use names a function of the kernel's that the
 * use passes or stores ("=NAME" in its probe) as undeclared: that
 * function's own use (its address taken) is the break, not the callee or
 * the member. */
static bool named_undeclared(const char *message, const char *name)
{
	char *needle = ks_strdupf("'%.*s' undeclared", (int)strcspn(name, "|"), name);
	bool hit = strstr(message, needle);

	free(needle);
	return hit;
}

static bool argument_gone(const struct judged *j)
{
	const char *p = j->sh->probe;

	if (*p == '=' && named_undeclared(j->error->message, p + 1))
		return true;
	for (p = strstr(p, "|="); p; p = strstr(p + 2, "|="))
		if (named_undeclared(j->error->message, p + 2))
			return true;
	return false;
}

static enum ks_break kind_of_name(const struct judged *j)
{
	enum ks_fact_status st = j->fact->status;

	switch (j->sh->what) {
	case KS_SHAPE_CALL:
		if (st == KS_FACT_NONE)
			return missing(j);
		if ((st == KS_FACT_FUNCTION || st == KS_FACT_VAR) && declared_only(j) != NO_BREAK)
			return KS_BREAK_GONE;
		if (!j->error || argument_gone(j))
			return NO_BREAK;
		return st == KS_FACT_FMACRO && !arity_fits(j->sh->old, j->fact->shape, NULL, true)
			       ? KS_BREAK_ARITY
			       : KS_BREAK_PROTOTYPE;
	case KS_SHAPE_MACRO:
		if (st == KS_FACT_NONE)
			return missing(j);
		if (st == KS_FACT_FMACRO || st == KS_FACT_FUNCTION || st == KS_FACT_INLINE) {
			if (!arity_fits(j->sh->old, j->fact->shape, j->fact->extra,
					st == KS_FACT_FMACRO))
				return KS_BREAK_ARITY;
			/* made a function: the call rebuilt with the types the
			 * source passes */
			if (st != KS_FACT_FMACRO && j->error && !argument_gone(j))
				return KS_BREAK_PROTOTYPE;
			return st == KS_FACT_FUNCTION ? declared_only(j) : NO_BREAK;
		}
		return NO_BREAK;
	case KS_SHAPE_OBJECT:
	case KS_SHAPE_ENUM:
		/* without parentheses a function-like macro does not expand */
		return st == KS_FACT_NONE ? missing(j) : st == KS_FACT_FMACRO ? KS_BREAK_GONE : NO_BREAK;
	case KS_SHAPE_ADDR:
	case KS_SHAPE_VAR:
		if (st == KS_FACT_NONE)
			return missing(j);
		if (st == KS_FACT_FMACRO)
			return KS_BREAK_GONE;
		return st == KS_FACT_FUNCTION || st == KS_FACT_VAR ? declared_only(j) : NO_BREAK;
	case KS_SHAPE_TYPEDEF:
		return st == KS_FACT_TYPEDEF ? NO_BREAK : st == KS_FACT_NONE ? missing(j)
									     : KS_BREAK_GONE;
	case KS_SHAPE_STATIC:
		/* declared in a header there, not a compiler's built-in */
		return st != KS_FACT_NONE && j->fact->file && *j->fact->file &&
				       *j->fact->file != '<'
			       ? KS_BREAK_CLASH
			       : NO_BREAK;
	default:
		return NO_BREAK;
	}
}

static enum ks_break kind_of_member(const struct judged *j)
{
	switch (j->fact->status) {
	case KS_FACT_NONE:
		return KS_BREAK_GONE;		/* the aggregate's typedef name is gone */
	case KS_FACT_INCOMPLETE:
		return KS_BREAK_INCOMPLETE;
	case KS_FACT_NO_MEMBER:
		return KS_BREAK_MEMBER_GONE;
	default:
		break;
	}
	if (j->sh->what == KS_SHAPE_WRITE && !strcmp(j->fact->extra, "ro"))
		return KS_BREAK_READ_ONLY;
	if (!j->error || argument_gone(j))
		return NO_BREAK;
	return j->sh->what == KS_SHAPE_CALLBACK ? KS_BREAK_CALLBACK_PROTOTYPE : KS_BREAK_MEMBER_TYPE;
}

/* The kind of break of one shape, or NO_BREAK. */
static enum ks_break kind_of(const struct judged *j)
{
	if (ks_shape_member(j->sh->what))
		return kind_of_member(j);
	if (j->sh->what == KS_SHAPE_COMPLETE)
		return j->fact->status == KS_FACT_COMPLETE ? NO_BREAK : KS_BREAK_INCOMPLETE;
	/* its two prototypes conflict where the tag is not declared */
	if (j->sh->what == KS_SHAPE_DECLARED)
		return j->error ? KS_BREAK_NOT_INCLUDED : NO_BREAK;
	return kind_of_name(j);
}

/* The diff of kind k and name in v, added if new. */
static struct ks_diff *diff_for(struct ks_verdict *v, enum ks_break k, const char *name)
{
	struct ks_diff *d;

	for (size_t i = 0; i < v->ndiffs; i++)
		if (v->diffs[i].kind == k && !strcmp(v->diffs[i].name, name))
			return &v->diffs[i];
	ks_array_grow((void **)&v->diffs, v->ndiffs, 1, sizeof(*v->diffs));
	d = &v->diffs[v->ndiffs++];
	memset(d, 0, sizeof(*d));
	d->kind = k;
	d->name = ks_xstrdup(name);
	return d;
}

static void opt_dup(char **to, const char *s)
{
	if (!*to && s)
		*to = ks_xstrdup(s);
}

static enum ks_use_kind use_kind(enum ks_shape_what w)
{
	return w == KS_SHAPE_CALL || w == KS_SHAPE_MACRO ? KS_USE_CALL
	       : w == KS_SHAPE_ADDR			 ? KS_USE_ADDR
							 : KS_USE_DATA;
}

/* The line GCC reports the break at: a bad argument's own line ("passing
 * argument 2 of 'f'" where the argument starts on another line than the
 * call), else the use's. */
static unsigned break_line(const struct ks_record_shape *sh, const char *message)
{
	const char *p = sh->arglines, *arg = message ? strstr(message, "passing argument ") : NULL;
	unsigned long n;

	if (!p || !*p || !arg)
		return sh->line;
	n = strtoul(arg + strlen("passing argument "), NULL, 10);
	for (unsigned long i = 1; i < n && p; i++)
		p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
	n = p && n ? strtoul(p, NULL, 10) : 0;
	return n ? (unsigned)n : sh->line;
}

/* One break at a place of the unit's source (of a call at call_line when
 * it is an argument's). */
static void add_site(struct ks_diff *d, const char *file, unsigned line, unsigned col,
		     const char *fn, enum ks_use_kind kind, const char *note, unsigned call_line)
{
	struct ks_use u = { .symbol = ks_xstrdup(d->name), .kind = kind, .file = ks_xstrdup(file),
			    .line = line, .col = col, .function = ks_xstrdup(fn ? fn : ""),
			    .source = KS_SOURCE_PLUGIN, .call_line = call_line,
			    .note = note ? ks_xstrdup(note) : NULL };
	bool seen = false;

	for (size_t i = 0; i < d->sites.n; i++)
		if (d->sites.v[i].line == line && d->sites.v[i].col == col &&
		    !strcmp(d->sites.v[i].file, file))
			seen = true;
	if (!seen)
		ks_uses_add(&d->sites, &u);
	free(u.symbol);
	free(u.file);
	free(u.function);
	free(u.note);
}

/* The probe's own words in the compiler's message put in the module's
 * terms: an aggregate's alias ('__ks_a1' {aka 'struct x'}) by the
 * aggregate, the variable that held a value by what it held. */
static char *module_terms(const struct ks_forecast_unit *u, const char *msg)
{
	static const char *const says[][2] = {
		{ "variable 's' has initializer but incomplete type", "its type is incomplete there" },
		{ "storage size of 's' isn't known", "its type is incomplete there" },
		{ "storage size of 'v' isn't known", "its type is incomplete there" },
	};
	struct ks_buf b = KS_BUF_INIT;

	for (size_t i = 0; i < KS_ARRAY_SIZE(says); i++)
		if (!strncmp(msg, says[i][0], strlen(says[i][0])))
			return ks_strdupf("%s%s", says[i][1], msg + strlen(says[i][0]));
	for (const char *p = msg; *p;) {
		char *end;
		unsigned long k;

		if (strncmp(p, "__ks_a", 6) || !isdigit((unsigned char)p[6])) {
			ks_buf_addc(&b, *p++);
			continue;
		}
		k = strtoul(p + 6, &end, 10);
		if (k >= u->naliases) {
			ks_buf_addc(&b, *p++);
			continue;
		}
		ks_buf_adds(&b, u->aliases[k]);
		p = end;
		/* "'__ks_a1' {aka 'struct x'}": the aggregate once */
		if (!strncmp(p, "' {aka '", 8) &&
		    !strncmp(p + 8, u->aliases[k], strlen(u->aliases[k])) &&
		    !strncmp(p + 8 + strlen(u->aliases[k]), "'}", 2)) {
			p += 8 + strlen(u->aliases[k]) + 2;
			ks_buf_addc(&b, '\'');
		}
	}
	return ks_buf_steal(&b);
}

/* A shape's break: its diff's shapes and the site. */
static void add_break(const struct ks_forecast_unit *u, struct ks_verdict *v,
		      const struct judged *j, enum ks_break k)
{
	const struct ks_record_shape *sh = j->sh;
	char *agg = NULL, *note;
	unsigned line;
	const char *member, *name = sh->name;
	struct ks_diff *d;

	/* a gone typedef name of an aggregate is a break of that name */
	if (k == KS_BREAK_GONE && ks_shape_member(sh->what)) {
		ks_member_split(sh->name, &agg, &member);
		name = agg ? agg : name;
	}
	d = diff_for(v, k, name);
	opt_dup(&d->old, sh->old);
	opt_dup(&d->now, j->fact->shape ? j->fact->shape : "");	/* "": no fact */
	opt_dup(&d->header,
		k == KS_BREAK_NOT_INCLUDED || k == KS_BREAK_INCOMPLETE ? j->header : NULL);
	if (sh->what == KS_SHAPE_CALLBACK && !d->callback)
		d->callback = ks_xstrndup(sh->probe, strcspn(sh->probe, "|"));
	/* what GCC says of the module's function, not of the probe's two
	 * prototypes */
	note = sh->what == KS_SHAPE_DECLARED ? ks_strdupf("conflicting types for '%s'", sh->function)
	       : j->error			? module_terms(u, j->error->message)
						: NULL;
	line = break_line(sh, j->error ? j->error->message : NULL);
	add_site(d, sh->file, line, line == sh->line ? sh->col : 0, sh->function,
		 use_kind(sh->what), note, line == sh->line ? 0 : sh->line);
	free(note);
	free(agg);
}

/* The first error on line (0: none). */
static const struct ks_record_error *error_on(const struct ks_forecast_unit *u, unsigned line)
{
	for (size_t i = 0; line && i < u->nerrors; i++)
		if (u->errors[i].line == line)
			return &u->errors[i];
	return NULL;
}

/* Whether the symbol a function or variable the headers declare is
 * imported by (its name, or the asm label in extra: " =SYMBOL") resolves:
 * the target or a module given with it exports it, or the module defines
 * it itself. */
static bool exported(const struct ks_symvers *sv, const struct ks_symvers *run,
		     const struct ks_verdict *v, const struct ks_record_fact *f, const char *name)
{
	const char *as = f->extra ? strstr(f->extra, " =") : NULL;	/* NULL: no fact */

	name = as ? as + 2 : name;
	return ks_symvers_lookup(sv, name) || (run && ks_symvers_lookup(run, name)) ||
	       ks_strmap_get(&v->defined, name);
}

/* The guard of a place of the unit's that the target's build may not
 * compile as this build did: its branch is not taken there, or whether it
 * is cannot be asked (it also tests the module's own macros). NULL: the
 * place is compiled there too. */
static const struct ks_record_guard *unseen(const struct ks_forecast_unit *u, const char *file,
					    unsigned line)
{
	const struct ks_record_guard *g = ks_unit_guard(&u->one.v[0], file, line);
	size_t k = g ? (size_t)(g - u->one.v[0].guards) : 0;
	int q;

	if (!g)
		return NULL;
	q = u->guard_questions ? u->guard_questions[k] : -1;
	if (g->own || (u->guard_failed && u->guard_failed[k]))
		return g;
	return q >= 0 && u->facts[q].status == KS_FACT_OFF ? g : NULL;
}

const char *ks_verdict_unjudged(const struct ks_verdict *v, const char *file, unsigned line)
{
	char *key;
	const char *why;

	if (!v->unjudged.n)
		return NULL;
	key = ks_strdupf("%s:%u", file, line);
	why = ks_strmap_get(&v->unjudged, key);
	free(key);
	return why;
}

void ks_verdict_unjudge(struct ks_verdict *v, const char *file, unsigned line, const char *why)
{
	char *key = ks_strdupf("%s:%u", file, line);
	void **slot;

	if (!ks_strmap_put(&v->unjudged, key, &slot)) {
		free(key);
		return;
	}
	*slot = ks_xstrdup(why);	/* the key stays, freed with the map */
}

/* Says why the use at sh was not judged (why, taken), and once for the
 * module why its verdict cannot be that it builds. */
static void unjudged(struct ks_verdict *v, const struct ks_record_shape *sh, char *why)
{
	ks_verdict_unjudge(v, sh->file, sh->line, why);
	if (!v->why) {
		v->why = why;
		why = NULL;
	}
	free(why);
}

/* The use at sh is under guard g, which the target's build may not take
 * as this build did. */
static void say_unseen(const struct ks_forecast_unit *u, struct ks_verdict *v,
		       const struct ks_record_shape *sh, const struct ks_record_guard *g)
{
	bool failed = u->guard_failed && u->guard_failed[g - u->one.v[0].guards];
	char *at = g->first == g->last ? ks_strdupf("%s:%u", g->file, g->first)
				       : ks_strdupf("%s:%u-%u", g->file, g->first, g->last);
	char *why = failed ? ks_strdupf("the target's preprocessor cannot evaluate the condition "
					"of %s, %s",
					at, g->cond)
		    : g->own && strcmp(g->cond, "1")
			? ks_strdupf("whether the target compiles %s is unknown: %s", at, g->cond)
		    : g->own ? ks_strdupf("whether the target compiles %s depends on the module's "
					  "own macros as well as the kernel's",
					  at)
			     : ks_strdupf("the target does not compile %s, which needs %s, but "
					  "another branch of that #if, which this build did not "
					  "compile",
					  at, g->cond);

	free(at);
	unjudged(v, sh, why);
}

/* Whether the scan of the target's headers (ks_headers_where()) finds
 * where they declare the shape's name, when they do: a function's or a
 * macro's, an aggregate's definition; a typedef's, a variable's or an
 * enumeration constant's it does not index, and finding none of those
 * says nothing. */
static bool scan_finds(const struct judged *j)
{
	enum ks_shape_what w = j->sh->what;

	return w != KS_SHAPE_TYPEDEF && w != KS_SHAPE_VAR && w != KS_SHAPE_ENUM;
}

/* Whether break k stands whatever headers the target's build includes
 * (breaks.def's HEADERS): a name declared nowhere there, or declared but
 * not exported, is gone whichever headers the unit reads. */
static bool stands(const struct judged *j, enum ks_break k, const struct ks_headers *h)
{
	if (break_undo[k] == KS_UNLESS_DECLARED)
		return j->fact->status != KS_FACT_NONE ||
		       (h && h->scanned && !j->header && scan_finds(j));
	return break_undo[k] == KS_STANDS;
}

/* The header that defines the aggregate of name ("struct S" or "struct
 * S.MEMBER"); NULL: none of the target's. The scan keeps "struct S" only
 * for a definition. */
static const char *defined_in(struct ks_headers *h, const char *name)
{
	char *agg = ks_xstrndup(name, strcspn(name, "."));
	const char *r = ks_headers_where(h, agg);

	free(agg);
	return r;
}

static void judge_shape(const struct ks_forecast_unit *u, size_t i, const struct ks_symvers *sv,
			const struct ks_symvers *run, struct ks_headers *h, struct ks_verdict *v,
			const struct ks_record_guard *headers)
{
	const struct ks_item *it = &u->items[i];
	struct judged j = { &u->one.v[0].shapes[i], NULL, NULL, false, NULL, it->nargs };
	const struct ks_record_guard *g = unseen(u, j.sh->file, j.sh->line);
	enum ks_break k;

	if (it->question == KS_ITEM_UNWRITABLE) {
		unjudged(v, j.sh, ks_strdupf("the record of its use at %s:%u holds bytes no probe "
					     "can write",
					     j.sh->file, j.sh->line));
		return;
	}
	if (it->question < 0)
		return;
	if (g) {		/* not compiled there as here: no break of its */
		say_unseen(u, v, j.sh, g);
		return;
	}
	j.fact = &u->facts[it->question];
	j.error = error_on(u, it->line);
	if (!j.error && it->alias >= 0)
		j.error = error_on(u, u->alias_lines[it->alias]);
	j.exported = exported(sv, run, v, j.fact, j.sh->name);
	if (j.fact->status == KS_FACT_NONE && h)
		j.header = ks_headers_where(h, j.sh->name);
	k = kind_of(&j);
	if (k == NO_BREAK)
		return;
	if (k == KS_BREAK_INCOMPLETE && h)
		j.header = defined_in(h, j.sh->name);
	if (headers && !stands(&j, k, h)) { /* the headers there are not these */
		say_unseen(u, v, j.sh, headers);
		return;
	}
	/* a name the probe's headers do not declare may be declared by an
	 * include it had to leave out, unless no header of the target does */
	if (j.fact->status == KS_FACT_NONE && u->dropped_why &&
	    (j.header || !h || !h->scanned || !scan_finds(&j))) {
		unjudged(v, j.sh, ks_strdupf("whether the target declares '%s' is unknown: the "
					     "probe left out %s",
					     j.sh->name, u->dropped_why));
		return;
	}
	add_break(u, v, &j, k);
}

/* An include the target lacks: a break at the #include. */
static void judge_include(const struct ks_forecast_unit *u, size_t j, struct ks_verdict *v)
{
	const struct ks_record_include *inc = &u->one.v[0].includes[j];
	const struct ks_item *it = &u->items[u->one.v[0].nshapes + j];
	struct ks_diff *d;

	if (it->question < 0 || u->facts[it->question].status != KS_FACT_HEADER_GONE)
		return;
	d = diff_for(v, KS_BREAK_HEADER_GONE, inc->header);
	opt_dup(&d->old, "");
	opt_dup(&d->now, "");
	opt_dup(&d->header, it->alt);
	add_site(d, inc->file, inc->line, 0, "", KS_USE_DATA, NULL, 0);
}

void ks_probe_judge(const struct ks_forecast_unit *u, const struct ks_symvers *sv,
		    const struct ks_symvers *run, struct ks_headers *h, struct ks_verdict *v)
{
	const struct ks_unit *un = &u->one.v[0];
	const struct ks_record_guard *headers = NULL;

	/* an include the target's build may not read: its headers differ */
	for (size_t j = 0; !headers && j < un->nincludes; j++)
		headers = unseen(u, un->includes[j].file, un->includes[j].line);
	for (size_t i = 0; i < un->nshapes; i++)
		judge_shape(u, i, sv, run, h, v, headers);
	for (size_t j = 0; j < un->nincludes; j++)
		if (!unseen(u, un->includes[j].file, un->includes[j].line))
			judge_include(u, j, v);
}
