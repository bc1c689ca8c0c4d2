/* A unit's probe source: the unit's kernel headers in its order (each
 * that the target lacks asked about and, when the target has a header of
 * that name in another folder, replaced by it), its questions to the
 * plugin (#pragma ksunset probe), then each use rebuilt on a line of its
 * own from the types the unit's code used, so that the target's compiler
 * says which still compile. Line numbers tie the compiler's errors to the
 * uses (struct ks_item). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "forecast/probe.h"

/* The probe source as it is written: each added line counted. */
struct writer {
	struct ks_buf *b;
	unsigned line;		/* the number of the next line */
};

static unsigned emit(struct writer *w, const char *fmt, ...) KS_PRINTF(2, 3);

/* Adds one line; its number. */
static unsigned emit(struct writer *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ks_buf_vaddf(w->b, fmt, ap);
	va_end(ap);
	ks_buf_addc(w->b, '\n');
	return w->line++;
}

void ks_member_split(const char *name, char **agg, const char **member)
{
	const char *dot = strrchr(name, '.');

	*agg = NULL;
	*member = NULL;
	if (!dot)
		return;
	*agg = ks_xstrndup(name, (size_t)(dot - name));
	*member = dot + 1;
}

/* The index of s in *v (n of them), added if new. */
static int intern(char ***v, size_t *n, const char *s)
{
	long i = ks_strv_find(*v, *n, s);

	if (i >= 0)
		return (int)i;
	ks_strv_add(v, n, s);
	return (int)*n - 1;
}

/* decl with its '@' made name: "int (*@)(void)" -> "int (*v)(void)". */
static char *declare(const char *decl, const char *name)
{
	const char *at = strchr(decl, '@');

	if (!at)
		return NULL;
	return ks_strdupf("%.*s%s%s", (int)(at - decl), decl, name, at + 1);
}

/* Whether a probe spelling can stand for a value: no array. */
static bool value_type(const char *t)
{
	return t && *t && strchr(t, '@') && !strchr(t, '[');
}

/* Whether the shape's question is asked where the unit uses it, among
 * the includes ("@N", asked_at_include()): an aggregate needed complete,
 * a tag a prototype of the module's own names. */
static bool asked_at(const struct ks_record_shape *sh)
{
	return (sh->what == KS_SHAPE_COMPLETE || sh->what == KS_SHAPE_DECLARED) &&
	       sh->probe[0] == '@';
}

/* Whether s (n bytes) can go into a probe's #pragma string or code: printable
 * ASCII, no quote or backslash (a record's names and types are C's). */
static bool writable_n(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] > 0x7e || s[i] == '"' || s[i] == '\\')
			return false;
	return true;
}

static bool writable(const char *s)
{
	return !s || writable_n(s, strlen(s));
}

/* Whether an include's header ("<a/b.h>" or "a/b.h" in quotes, as the
 * source writes it) can go into a probe's #include: writable between its
 * delimiters, which it does not hold itself. */
static bool header_writable(const char *h)
{
	size_t n = strlen(h);

	if (n < 3 || !((h[0] == '<' && h[n - 1] == '>') || (h[0] == '"' && h[n - 1] == '"')))
		return false;
	return writable_n(h + 1, n - 2) && !memchr(h + 1, '<', n - 2) && !memchr(h + 1, '>', n - 2);
}

/* The question of a shape, and its aggregate's alias. */
static void ask(struct ks_forecast_unit *u, const struct ks_record_shape *sh, struct ks_item *it)
{
	char *agg = NULL, *q;
	const char *member;

	it->alias = -1;
	if (!writable(sh->name) || !writable(sh->probe)) {
		it->question = KS_ITEM_UNWRITABLE;
		return;
	}
	if (ks_shape_member(sh->what)) {
		ks_member_split(sh->name, &agg, &member);
		if (!agg)
			return;
		it->alias = intern(&u->aliases, &u->naliases, agg);
		q = ks_strdupf("member __ks_a%d %s", it->alias, member);
	} else if (asked_at(sh)) {
		/* asked where it is used: after that many of the includes */
		q = ks_strdupf("%s%s %s", sh->what == KS_SHAPE_DECLARED ? "declared" : "complete",
			       sh->probe, sh->name);
	} else if (sh->what == KS_SHAPE_COMPLETE) {
		it->alias = intern(&u->aliases, &u->naliases, sh->name);
		q = ks_strdupf("complete __ks_a%d", it->alias);
	} else if (sh->what == KS_SHAPE_CALL || sh->what == KS_SHAPE_MACRO) {
		q = ks_strdupf("name %s", sh->name);
	} else {		/* the name without '(' after it */
		q = ks_strdupf("ident %s", sh->name);
	}
	it->question = intern(&u->questions, &u->nquestions, q);
	free(agg);
	free(q);
}

/* "a1, a2" and "T1 a1, T2 a2" from "RET|T1|T2"; an argument "=EXPR"
 * (a function of the kernel's, a null pointer) is passed as written. */
static int call_args(const char *probe, struct ks_buf *params, struct ks_buf *args,
		     unsigned *n)
{
	const char *p = strchr(probe, '|');
	int r = 0;

	*n = 0;
	while (p && !r) {
		const char *next = strchr(p + 1, '|');
		char *t = next ? ks_xstrndup(p + 1, (size_t)(next - p - 1)) : ks_xstrdup(p + 1);
		char *name = ks_strdupf("a%u", ++*n);
		char *d = declare(t, name);

		if (*t == '=') {
			ks_buf_addf(args, "%s%s", *n > 1 ? ", " : "", t + 1);
		} else if (!d) {
			r = -EINVAL;
		} else {
			ks_buf_addf(params, "%s%s", params->len ? ", " : "", d);
			ks_buf_addf(args, "%s%s", *n > 1 ? ", " : "", name);
		}
		free(t);
		free(name);
		free(d);
		p = next;
	}
	if (!r && !params->len)
		ks_buf_adds(params, "void");
	return r;
}

#define SNIPPET "static void __attribute__((unused)) __ks_u%zu("

/* A call, as the unit made it: the types it passed, and the value kept
 * in the type it had, unless the unit did not use it. A type that cannot
 * be written: no use. */
static void use_call(struct writer *w, const struct ks_record_shape *sh, struct ks_item *it,
		     size_t i)
{
	struct ks_buf params = KS_BUF_INIT, args = KS_BUF_INIT;
	char *ret, *rd = NULL;
	int r;

	if (!*sh->probe)
		return;
	ret = ks_xstrndup(sh->probe, strcspn(sh->probe, "|"));
	r = call_args(sh->probe, &params, &args, &it->nargs);
	if (!r && strcmp(ret, "-") && !(rd = declare(ret, "r")))
		r = -EINVAL;
	if (!r && rd)
		it->line = emit(w, SNIPPET "%s) { %s = %s(%s); (void)r; }", i, params.p, rd,
				sh->name, args.p ? args.p : "");
	else if (!r)
		it->line = emit(w, SNIPPET "%s) { %s(%s); }", i, params.p, sh->name,
				args.p ? args.p : "");
	free(ret);
	free(rd);
	ks_buf_free(&params);
	ks_buf_free(&args);
}

/* A member read, written, initialized or given a callback, through a
 * pointer to its aggregate (written by the alias, which the facts ask
 * about too). */
static void use_member(struct writer *w, const struct ks_forecast_unit *u,
		       const struct ks_record_shape *sh, struct ks_item *it, size_t i)
{
	const char *member = strrchr(sh->name, '.') + 1;
	const char *type = sh->probe;
	char *v;

	if (sh->what == KS_SHAPE_CALLBACK)
		type = strchr(sh->probe, '|') ? strchr(sh->probe, '|') + 1 : "";
	if (*type == '=' && sh->what == KS_SHAPE_WRITE) {	/* a function of the kernel's */
		it->line = emit(w, SNIPPET "__ks_a%d *p) { p->%s = %s; }", i, it->alias, member,
				type + 1);
		return;
	}
	if (*type == '=' && sh->what == KS_SHAPE_INIT) {
		it->line = emit(w, SNIPPET "void) { __ks_a%d s = { .%s = %s }; (void)s; }", i,
				it->alias, member, type + 1);
		return;
	}
	if (sh->what == KS_SHAPE_READ && !value_type(type)) {
		it->line = emit(w, SNIPPET "__ks_a%d *p) { (void)p->%s; }", i, it->alias, member);
		return;
	}
	if (!value_type(type))
		return;
	v = declare(type, "v");
	if (sh->what == KS_SHAPE_READ)
		it->line = emit(w, SNIPPET "__ks_a%d *p) { %s = p->%s; (void)v; }", i, it->alias, v,
				member);
	else if (sh->what == KS_SHAPE_WRITE)
		it->line = emit(w, SNIPPET "__ks_a%d *p, %s) { p->%s = v; }", i, it->alias, v, member);
	else
		it->line = emit(w, SNIPPET "%s) { __ks_a%d s = { .%s = v }; (void)s; }", i, v,
				it->alias, member);
	free(v);
	(void)u;
}

static void use(struct writer *w, struct ks_forecast_unit *u, size_t i)
{
	const struct ks_record_shape *sh = &u->one.v[0].shapes[i];

	if (u->items[i].question == KS_ITEM_UNWRITABLE)
		return;
	if (sh->what == KS_SHAPE_CALL) {
		use_call(w, sh, &u->items[i], i);
	} else if (sh->what == KS_SHAPE_MACRO && *sh->probe) {
		/* a macro's use, rebuilt where the target made it a function (as
		 * a macro there it takes its arguments as tokens: the arity says) */
		emit(w, "#ifndef %s", sh->name);
		use_call(w, sh, &u->items[i], i);
		emit(w, "#endif");
	} else if (ks_shape_member(sh->what) && u->items[i].alias >= 0) {
		use_member(w, u, sh, &u->items[i], i);
	}
}

/* The last path component of a header as written: "<asm/unaligned.h>"
 * -> "unaligned.h". */
static char *base_of(const char *header)
{
	size_t n = strlen(header);
	const char *s = header + 1, *slash;

	if (n < 3)
		return NULL;
	while ((slash = memchr(s, '/', (size_t)(header + n - 1 - s))))
		s = slash + 1;
	return ks_xstrndup(s, (size_t)(header + n - 1 - s));
}

/* One include, tried first: a header the target lacks is a question of
 * its own, and its namesake elsewhere in the target stands in for it. */
static void include(struct writer *w, struct ks_forecast_unit *u, size_t j, struct ks_headers *h)
{
	const struct ks_record_include *inc = &u->one.v[0].includes[j];
	const struct ks_record_guard *g = ks_unit_guard(&u->one.v[0], inc->file, inc->line);
	struct ks_item *it = &u->items[u->one.v[0].nshapes + j];
	char *q = ks_strdupf("header-gone %zu", j), *base = base_of(inc->header);

	it->alias = -1;
	if (!header_writable(inc->header)) {	/* left out, as one that does not compile */
		it->question = KS_ITEM_UNWRITABLE;
		u->dropped[j] = true;
		if (!u->dropped_why)
			u->dropped_why = ks_strdupf("an include whose record (%s:%u) holds "
						    "bytes no probe can write",
						    inc->file, inc->line);
		free(q);
		free(base);
		return;
	}
	it->question = intern(&u->questions, &u->nquestions, q);
	if (base && h)
		it->alt = ks_headers_find_file(h, base, inc->header);
	it->first = w->line;
	if (g && !g->own)	/* included there only if its branch is taken there */
		emit(w, "#if %s", g->cond);
	emit(w, "#if __has_include(%s)", inc->header);
	if (u->dropped && u->dropped[j])	/* it does not compile outside the module */
		emit(w, "/* %s left out */", inc->header);
	else
		it->line = emit(w, "#include %s", inc->header);
	emit(w, "#else");
	emit(w, "#pragma ksunset probe \"%d header-gone\"", it->question + 1);
	if (it->alt) {
		emit(w, "#if __has_include(<%s>)", it->alt);
		emit(w, "#include <%s>", it->alt);
		emit(w, "#endif");
	}
	emit(w, "#endif");
	if (g && !g->own)
		emit(w, "#endif");
	free(q);
	free(base);
}

static bool ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* Adds to *tags (n of them) every "struct TAG" and "union TAG" of text. */
static void find_tags(const char *text, char ***tags, size_t *n)
{
	for (const char *p = text; *p;) {
		const char *q = p;
		size_t len;

		while (ident(*q))
			q++;
		if (q == p) {
			p++;
			continue;
		}
		len = (size_t)(q - p);
		if (((len == 6 && !strncmp(p, "struct", 6)) || (len == 5 && !strncmp(p, "union", 5))) &&
		    *q == ' ' && ident(q[1])) {
			const char *t = q + 1;
			char *tag;

			while (ident(*t))
				t++;
			tag = ks_strdupf("%.*s", (int)(t - p), p);
			ks_strv_add_unique(tags, n, tag);
			free(tag);
			q = t;
		}
		p = q;
	}
}

/* "struct NAME;" for every tag the uses and aliases name: the module's
 * own structs are declared nowhere in the kernel's headers. */
static void declare_tags(struct writer *w, const struct ks_forecast_unit *u)
{
	const struct ks_unit *un = &u->one.v[0];
	char **tags = NULL;
	size_t n = 0;

	for (size_t i = 0; i < un->nshapes; i++)
		find_tags(un->shapes[i].probe, &tags, &n);
	for (size_t k = 0; k < u->naliases; k++)
		find_tags(u->aliases[k], &tags, &n);
	for (size_t i = 0; i < n; i++) {
		emit(w, "%s;", tags[i]);
		free(tags[i]);
	}
	free(tags);
}

/* The questions asked where the unit uses their answer, after n of its
 * includes: whether a tag a prototype of the module's own names is
 * declared by then ("declared@N struct TAG": two prototypes of one
 * function with it, which conflict where it is not, each a struct of its
 * prototype's own), then whether an aggregate is complete ("complete@N
 * struct TAG", whose typedef declares the tag). */
static void asked_at_include(struct writer *w, struct ks_forecast_unit *u, size_t n)
{
	static const char *const kinds[] = { "declared@", "complete@" };

	for (size_t k = 0; k < KS_ARRAY_SIZE(kinds); k++) {
		size_t len = strlen(kinds[k]);

		for (size_t q = 0; q < u->nquestions; q++) {
			const char *s = u->questions[q], *name;
			char *end;
			unsigned line;

			if (strncmp(s, kinds[k], len) || strtoul(s + len, &end, 10) != n ||
			    *end != ' ')
				continue;
			name = end + 1;
			if (k) {
				emit(w, "typedef %s __ks_c%zu;", name, q);
				emit(w, "#pragma ksunset probe \"%zu complete __ks_c%zu\"", q + 1, q);
				continue;
			}
			emit(w, "void __ks_d%zu(%s *);", q, name);
			line = emit(w, "void __ks_d%zu(%s *);", q, name);
			for (size_t i = 0; i < u->one.v[0].nshapes; i++)
				if (u->items[i].question == (int)q)
					u->items[i].line = line;
		}
	}
}

/* Whether each branch of the unit's #if that tests the kernel is taken
 * there too: the target's preprocessor says, after the unit's headers
 * (a guard that also tests the module's own macros cannot be asked). */
static void guards(struct writer *w, struct ks_forecast_unit *u)
{
	const struct ks_unit *un = &u->one.v[0];

	u->guard_questions = ks_xcalloc(un->nguards, sizeof(int));
	u->guard_lines = ks_xcalloc(un->nguards, sizeof(unsigned));
	u->guard_failed = ks_xcalloc(un->nguards, sizeof(bool));
	for (size_t k = 0; k < un->nguards; k++) {
		char *q = ks_strdupf("off %zu", k);

		u->guard_questions[k] = intern(&u->questions, &u->nquestions, q);
		free(q);
		if (un->guards[k].own)
			continue;
		u->guard_lines[k] = emit(w, "#if !(%s)", un->guards[k].cond);
		emit(w, "#pragma ksunset probe \"%d off\"", u->guard_questions[k] + 1);
		emit(w, "#endif");
	}
}

void ks_probe_write(struct ks_forecast_unit *u, struct ks_headers *h)
{
	const struct ks_unit *un = &u->one.v[0];
	struct writer w = { &u->source, 1 };

	ks_probe_reset(u);
	if (!u->dropped)
		u->dropped = ks_xcalloc(un->nincludes + 1, sizeof(bool));
	u->nitems = un->nshapes + un->nincludes;
	u->items = ks_xcalloc(u->nitems, sizeof(*u->items));
	emit(&w, "/* ksunset probe of %s */", un->source);
	/* the questions asked among the includes first, then the others */
	for (size_t i = 0; i < un->nshapes; i++)
		if (asked_at(&un->shapes[i]))
			ask(u, &un->shapes[i], &u->items[i]);
	asked_at_include(&w, u, 0);
	for (size_t j = 0; j < un->nincludes; j++) {
		include(&w, u, j, h);
		asked_at_include(&w, u, j + 1);
	}
	for (size_t i = 0; i < un->nshapes; i++)
		if (!asked_at(&un->shapes[i]))
			ask(u, &un->shapes[i], &u->items[i]);
	declare_tags(&w, u);
	u->alias_lines = ks_xcalloc(u->naliases, sizeof(*u->alias_lines));
	for (size_t k = 0; k < u->naliases; k++)
		u->alias_lines[k] = emit(&w, "typedef %s __ks_a%zu;", u->aliases[k], k);
	for (size_t q = 0; q < u->nquestions; q++)
		if (strncmp(u->questions[q], "header-gone", 11) &&
		    strncmp(u->questions[q], "complete@", 9) &&
		    strncmp(u->questions[q], "declared@", 9))
			emit(&w, "#pragma ksunset probe \"%zu %s\"", q + 1, u->questions[q]);
	guards(&w, u);
	for (size_t i = 0; i < un->nshapes; i++)
		use(&w, u, i);
	u->hash = ks_hash_bytes(u->source.p, u->source.len, 0x70726f6265);
}
