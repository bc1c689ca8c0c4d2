/* A condition of the module's own #if rewritten for another kernel's
 * preprocessor (cond.h's ks_cond_resolve): the module's own macros are
 * replaced by what their #defines say where the condition is read, each
 * under the conditions of the branch that holds it; the command line's
 * by their values. What is left is the kernel's to answer. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "cond.h"

#define MAX_DEPTH 8		/* macros within macros */
#define MAX_LEN 8192		/* a rewritten condition no probe would read */

struct res {
	const struct ks_cond_ctx *c;
	size_t file;		/* where the condition is read */
	unsigned line;
	int depth;
	const char *why;	/* why it cannot be rewritten; NULL: it can */
	struct ks_buf *text;	/* where a why that names a macro is written */
};

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

static const char *blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static void rewrite(struct res *x, const char *text, struct ks_buf *out);

/* Whether cond, at line of cf, is an include guard's: "!defined(X)" where
 * the file's next #define or #undef after line defines X. */
static bool include_guard(const struct ks_cond_file *cf, const char *cond, unsigned line)
{
	static const char pre[] = "!defined(";
	const char *x = cond + sizeof(pre) - 1;
	size_t n;

	if (strncmp(cond, pre, sizeof(pre) - 1))
		return false;
	n = strcspn(x, ")");
	if (x[n] != ')' || x[n + 1])
		return false;
	for (size_t i = 0; i < cf->ndefs; i++)
		if (cf->defs[i].line > line)
			return !cf->defs[i].undef && strlen(cf->defs[i].name) == n &&
			       !strncmp(cf->defs[i].name, x, n);
	return false;
}

/* Whether line of cf is read whatever the conditions: outside any #if,
 * or inside include guards only. */
static bool unconditional(const struct ks_cond_file *cf, unsigned line)
{
	const struct ks_cond_branch *b = ks_cond_at(cf, line);

	for (size_t i = 0; b && i < b->nconds; i++)
		if (!include_guard(cf, b->conds[i], b->lines[i]))
			return false;
	return true;
}

/* The module's #defines of name (n bytes) that hold where the condition
 * is read: in another file (read before, as a header is), or earlier in
 * its file. -1: one is an #undef, which a rewrite cannot follow, among
 * #defines or inside an #if; -2: a configure script's header defines it
 * (or says it left it undefined): configure decides it for each kernel it
 * runs for; -3: it is only #undef'd, outside any #if but include guards,
 * or where nothing else defines it: undefined there. */
static int defs_of(struct res *x, const char *name, size_t n,
		   const struct ks_cond_define **v, size_t *files, size_t max)
{
	int k = 0, undefs = 0, whole = 0;

	for (size_t f = 0; f < x->c->nfiles; f++) {
		const struct ks_cond_file *cf = x->c->files[f].cond;

		for (size_t i = 0; i < cf->ndefs; i++) {
			const struct ks_cond_define *d = &cf->defs[i];

			if (strlen(d->name) != n || strncmp(d->name, name, n))
				continue;
			if (f == x->file && d->line >= x->line)
				continue;
			if (cf->configure)
				return -2;
			if (d->undef) {
				undefs++;
				whole += unconditional(cf, d->line);
				continue;
			}
			if ((size_t)k < max) {
				v[k] = d;
				files[k] = f;
			}
			k++;
		}
	}
	/* only #undefs, outside any #if but include guards: the macro is no
	 * more, on any kernel (dahdi's #undef CONFIG_VOICEBUS_ECREFERENCE in
	 * voicebus.h, guarded); nor where the #undefs are conditional but
	 * nothing else defines it (dahdi's USE_ASYNC_INIT, #undef'd in both
	 * branches of an #if) */
	if (undefs && !k &&
	    (whole == undefs || x->c->is(name, n, NULL, x->c->arg) == KS_IDENT_NONE))
		return -3;
	return undefs || (size_t)k > max ? -1 : k;
}

/* The conditions under which the #define d of file f is read, rewritten
 * and joined by &&; "1" when none. */
static void def_cond(struct res *x, size_t f, const struct ks_cond_define *d, struct ks_buf *out)
{
	const struct ks_cond_branch *b = ks_cond_at(x->c->files[f].cond, d->line);
	struct res in = { x->c, f, 0, x->depth + 1, NULL, x->text };

	if (!b || !b->nconds) {
		ks_buf_adds(out, "1");
		return;
	}
	for (size_t i = 0; i < b->nconds; i++) {
		in.line = b->lines[i];
		ks_buf_adds(out, i ? " && (" : "(");
		rewrite(&in, b->conds[i], out);
		ks_buf_addc(out, ')');
	}
	x->why = x->why ? x->why : in.why;
}

/* Why a macro's #defines cannot be followed (defs_of's k < 0). */
static void cannot_follow(struct res *x, const char *name, size_t n, int k)
{
	ks_buf_reset(x->text);
	ks_buf_addf(x->text,
		    k == -1 ? "it tests %.*s, which the module #undefs under a condition, "
			      "or defines in more places than a probe follows"
			    : "it tests %.*s, which the module's configure script sets for "
			      "the kernel it runs for",
		    (int)n, name);
	x->why = x->text->p;
}

/* defined(NAME): the kernel's answer, or one of the module's #defines. */
static void rewrite_defined(struct res *x, const char *name, size_t n, struct ks_buf *out)
{
	const struct ks_cond_define *v[16];
	size_t files[16];
	int k = defs_of(x, name, n, v, files, 16);

	if (k == -3) {
		ks_buf_adds(out, "0");
		return;
	}
	if (k < 0) {
		cannot_follow(x, name, n, k);
		return;
	}
	if (!k && x->c->is(name, n, NULL, x->c->arg) == KS_IDENT_FLAG) {
		ks_buf_adds(out, "1");
		return;
	}
	ks_buf_addf(out, "(defined(%.*s)", (int)n, name);
	for (int i = 0; i < k; i++) {
		ks_buf_adds(out, " || (");
		def_cond(x, files[i], v[i], out);
		ks_buf_addc(out, ')');
	}
	ks_buf_addc(out, ')');
}

/* The arguments of a function-like macro's use at p ("(a, (b, c))"),
 * each taken; *end after the ')'. 0, or 1: no arguments there. */
static int args_of(const char *p, char ***args, size_t *nargs, const char **end)
{
	int depth = 0;
	const char *start;

	p = blanks(p);
	if (*p != '(')
		return 1;
	start = ++p;
	for (; *p; p++) {
		if (*p == '(') {
			depth++;
		} else if ((*p == ',' && !depth) || (*p == ')' && !depth)) {
			char *a = ks_xstrndup(start, (size_t)(p - start));

			ks_strv_add(args, nargs, a);
			free(a);
			start = p + 1;
			if (*p == ')') {
				*end = p + 1;
				return 0;
			}
		} else if (*p == ')') {
			depth--;
		}
	}
	return 1;
}

/* body with each parameter (params: "a,b") replaced by its argument, in
 * parentheses. NULL: a body this cannot do (#, ##). */
static char *substitute(const char *params, const char *body, char **args, size_t nargs)
{
	struct ks_buf b = KS_BUF_INIT;

	if (strchr(body, '#'))
		return NULL;
	for (const char *p = body; *p;) {
		const char *id = p, *q = params;
		size_t n, i = 0;
		bool hit = false;

		if (!ident_char(*p) || (p > body && ident_char(p[-1]))) {
			ks_buf_addc(&b, *p++);
			continue;
		}
		while (ident_char(*p))
			p++;
		n = (size_t)(p - id);
		for (; *q && !hit; i++) {
			size_t len = strcspn(q, ",");

			hit = len == n && !strncmp(q, id, n);
			q += len + (q[len] == ',');
		}
		if (hit && i - 1 < nargs)
			ks_buf_addf(&b, "(%s)", args[i - 1]);
		else
			ks_buf_add(&b, id, n);
	}
	return ks_buf_steal(&b);
}

/* One #define's replacement for the use, rewritten in turn. */
static void def_body(struct res *x, const struct ks_cond_define *d, char **args, size_t nargs,
		     struct ks_buf *out)
{
	char *body = d->params ? substitute(d->params, d->body, args, nargs) : ks_xstrdup(d->body);
	struct res in = { x->c, x->file, x->line, x->depth + 1, NULL, x->text };

	if (!body) {
		x->why = x->why ? x->why : "a macro it uses pastes or stringizes its arguments";
		return;
	}
	ks_buf_addc(out, '(');
	rewrite(&in, *body ? body : "0", out);
	free(body);
	x->why = x->why ? x->why : in.why;
	ks_buf_addc(out, ')');
}

/* Where no #define of the module's holds: the kernel's macro, with its
 * arguments rewritten, else what an undefined name is in #if (an object-
 * like name is kept: the target answers either way). */
static void fallback(struct res *x, const char *name, size_t n, bool fun, char **args,
		     size_t nargs, struct ks_buf *out)
{
	struct res in = { x->c, x->file, x->line, x->depth + 1, NULL, x->text };

	if (!fun) {
		ks_buf_add(out, name, n);
		return;
	}
	if (x->c->is(name, n, NULL, x->c->arg) != KS_IDENT_KERNEL) {
		ks_buf_adds(out, "0");
		return;
	}
	ks_buf_addf(out, "%.*s(", (int)n, name);
	for (size_t i = 0; i < nargs; i++) {
		if (i)
			ks_buf_addc(out, ',');
		rewrite(&in, args[i], out);
	}
	x->why = x->why ? x->why : in.why;
	ks_buf_addc(out, ')');
}

/* NAME, a macro of the module's: ((C1) ? (BODY1) : (C2) ? (BODY2) :
 * FALLBACK), each #define under the conditions of its branch. */
static void rewrite_own(struct res *x, const char *name, size_t n, const char **p,
			const struct ks_cond_define **v, const size_t *files, int k,
			struct ks_buf *out)
{
	char **args = NULL;
	size_t nargs = 0;
	bool fun = v[0]->params != NULL;

	for (int i = 1; i < k; i++)
		if ((v[i]->params != NULL) != fun)
			x->why = "a macro it uses is defined both with and without parameters";
	if (x->why)
		return;
	/* a function-like macro's name without arguments is no use of it */
	if (fun && args_of(*p, &args, &nargs, p)) {
		ks_strv_free(args, nargs);
		ks_buf_adds(out, "0");
		return;
	}
	ks_buf_addc(out, '(');
	for (int i = 0; i < k; i++) {
		ks_buf_adds(out, "(");
		def_cond(x, files[i], v[i], out);
		ks_buf_adds(out, ") ? ");
		def_body(x, v[i], args, nargs, out);
		ks_buf_adds(out, " : ");
	}
	fallback(x, name, n, fun, args, nargs, out);
	ks_strv_free(args, nargs);
	ks_buf_addc(out, ')');
}

/* An identifier that is not "defined": the module's macro rewritten, the
 * command line's replaced by its value, the rest kept for the target. */
static void rewrite_ident(struct res *x, const char *name, size_t n, const char **p,
			  struct ks_buf *out)
{
	const struct ks_cond_define *v[16];
	size_t files[16];
	const char *value = NULL;
	int k = defs_of(x, name, n, v, files, 16);

	if (k == -3) {
		ks_buf_adds(out, "0");
		return;
	}
	if (k < 0) {
		cannot_follow(x, name, n, k);
		return;
	}
	if (k) {
		rewrite_own(x, name, n, p, v, files, k, out);
		return;
	}
	switch (x->c->is(name, n, &value, x->c->arg)) {
	case KS_IDENT_FLAG:
		if (value) {
			struct res in = { x->c, x->file, x->line, x->depth + 1, NULL, x->text };

			ks_buf_addc(out, '(');
			rewrite(&in, *value ? value : "1", out);
			x->why = x->why ? x->why : in.why;
			ks_buf_addc(out, ')');
			return;
		}
		x->why = "a macro it uses comes from the command line with parameters";
		return;
	case KS_IDENT_OWN:
		x->why = "a macro it uses is the module's, but no file read defines it";
		return;
	case KS_IDENT_NONE:
		/* a call of a name no kernel here defines (RHEL_RELEASE_VERSION
		 * in a branch the rewrite merged in) is no #if's syntax: 0, as
		 * where it is not a macro */
		if (*blanks(*p) == '(') {
			char **args = NULL;
			size_t nargs = 0;

			args_of(*p, &args, &nargs, p);
			ks_strv_free(args, nargs);
			ks_buf_adds(out, "0");
			return;
		}
		break;
	case KS_IDENT_KERNEL:
	case KS_IDENT_SAME:
		break;
	}
	ks_buf_add(out, name, n);
}

/* "defined X", "defined(X)": X and *p after it; NULL: malformed. */
static const char *defined_operand(const char **p, size_t *n)
{
	const char *q = blanks(*p), *id;
	bool paren = *q == '(';

	q = blanks(q + paren);
	id = q;
	while (ident_char(*q))
		q++;
	*n = (size_t)(q - id);
	q = blanks(q);
	if (!*n || (paren && *q != ')'))
		return NULL;
	*p = q + paren;
	return id;
}

static void rewrite(struct res *x, const char *text, struct ks_buf *out)
{
	const char *p = text;

	if (x->depth > MAX_DEPTH)
		x->why = x->why ? x->why : "its macros nest too deep";
	while (*p && !x->why) {
		const char *id = p;
		size_t n;

		if (*p == '"' || *p == '\'') {	/* a string, a character */
			char end = *p;

			while (*++p && *p != end)
				p += *p == '\\' && p[1];
			p += *p != '\0';
			ks_buf_add(out, id, (size_t)(p - id));
		} else if (*p >= '0' && *p <= '9') {	/* a number and its suffix */
			while (ident_char(*p) || *p == '.')
				p++;
			ks_buf_add(out, id, (size_t)(p - id));
		} else if (!ident_char(*p)) {
			ks_buf_addc(out, *p++);
		} else {
			while (ident_char(*p))
				p++;
			n = (size_t)(p - id);
			if (n == 7 && !strncmp(id, "defined", 7)) {
				const char *name = defined_operand(&p, &n);

				if (!name)
					x->why = "a defined() it holds is malformed";
				else
					rewrite_defined(x, name, n, out);
			} else if (n > 6 && !strncmp(id, "__has_", 6)) {
				/* __has_include(<x.h>), __has_builtin(x): kept whole */
				const char *q = blanks(p);
				int depth = 0;

				if (*q == '(') {
					do {
						depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
						q++;
					} while (*q && depth);
				}
				ks_buf_add(out, id, (size_t)(q - id));
				p = q;
			} else {
				rewrite_ident(x, id, n, &p, out);
			}
		}
		if (out->len > MAX_LEN)
			x->why = "its macros make it too long";
	}
}

char *ks_cond_resolve(const struct ks_cond_ctx *c, size_t file, unsigned line, const char *cond,
		      char **why)
{
	struct ks_buf text = KS_BUF_INIT, out = KS_BUF_INIT;
	struct res x = { c, file, line, 0, NULL, &text };

	rewrite(&x, cond, &out);
	*why = x.why ? ks_xstrdup(x.why) : NULL;
	ks_buf_free(&text);
	if (x.why) {
		ks_buf_free(&out);
		return NULL;
	}
	return ks_buf_steal(&out);
}
