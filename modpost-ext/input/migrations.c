/* A migrations file: "Field: value" lines, From and To first, then one
 * entry per header or call, entries apart by blank lines, '#' comments. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array.h"
#include "buf.h"
#include "file.h"
#include "input/ctext.h"
#include "input/migrations.h"
#include "schedule.h"

struct parse {
	struct ks_migrations *m;
	struct ks_diags *d;
	struct ks_migration *cur;	/* the entry being read; NULL: none */
	unsigned line;
	bool bad;
};

/* The line's error (msg, taken). */
static void bad(struct parse *p, char *msg)
{
	ks_diag_add(p->d, KS_ERROR, p->m->path, p->line, 0, "%s", msg);
	p->bad = true;
	free(msg);
}

/* says so and leaves the line */
#define BAD(p, ...)                              \
	do {                                     \
		bad(p, ks_strdupf(__VA_ARGS__)); \
		return;                          \
	} while (0)

/* "X.Y" */
static bool release(const char *s)
{
	size_t a = strspn(s, "0123456789"), b;

	if (!a || s[a] != '.')
		return false;
	b = strspn(s + a + 1, "0123456789");
	return b && !s[a + 1 + b];
}

/* A header's name: no blank, no <> or "" of its own. */
static bool header(const char *s)
{
	return *s && !s[strcspn(s, " \t<>\"")];
}

/* "N of M", N at most M. */
static bool count(const char *s, unsigned *n, unsigned *of)
{
	char *end;
	unsigned long a = strtoul(s, &end, 10), b;

	if (end == s || strncmp(end, " of ", 4))
		return false;
	s = end + 4;
	b = strtoul(s, &end, 10);
	if (end == s || *end || !a || a > b || b > 1000000)
		return false;
	*n = (unsigned)a;
	*of = (unsigned)b;
	return true;
}

/* "FILE:LINE -> FILE:LINE": the newer one kept. */
static char *example(const char *s)
{
	const char *arrow = strstr(s, " -> "), *colon;

	if (!arrow || !(colon = strrchr(arrow + 4, ':')) || colon == arrow + 4 || !colon[1] ||
	    colon[1 + strspn(colon + 1, "0123456789")] || !strchr(s, ':') || strchr(s, ':') > arrow)
		return NULL;
	return ks_xstrdup(arrow + 4);
}

static const char *const op_names[] = {
	[KS_RW_HEADER] = "header", [KS_RW_DROP] = "drop",   [KS_RW_INSERT] = "insert",
	[KS_RW_RENAME] = "rename", [KS_RW_CALL] = "call",   [KS_RW_CONST] = "const",
	[KS_RW_RETYPE] = "retype", [KS_RW_INCLUDE] = "include", [KS_RW_DELETE] = "delete",
	[KS_RW_OMIT] = "omit",     [KS_RW_REPLACE] = "replace", [KS_RW_LOCAL] = "local",
	[KS_RW_WRAP] = "wrap",
};
_Static_assert(KS_ARRAY_SIZE(op_names) == KS_NRW_OPS, "a name per rewrite");

const char *ks_rewrite_op_name(enum ks_rewrite_op op)
{
	return op_names[op];
}

/* "struct NAME", "union NAME" or "enum NAME". */
static bool tag_type(const char *s)
{
	const char *sp = strchr(s, ' ');

	return sp && (!strncmp(s, "struct ", 7) || !strncmp(s, "union ", 6) ||
		      !strncmp(s, "enum ", 5)) &&
	       ks_is_identifier(sp + 1);
}

/* "retype N"'s types: "struct OLD struct NEW" (or union, enum), into rw. */
static bool retype(const char *s, struct ks_rewrite *rw)
{
	const char *sp = strchr(s, ' '), *mid = sp ? strchr(sp + 1, ' ') : NULL;
	char *from;

	if (!mid || !tag_type(mid + 1))
		return false;
	from = ks_xstrndup(s, (size_t)(mid - s));
	if (!tag_type(from)) {
		free(from);
		return false;
	}
	rw->from = from;
	rw->text = ks_xstrdup(mid + 1);
	return true;
}

/* An argument's text as an Argument: entry names it: no blank. */
static bool argument_text(const char *s)
{
	return *s && !s[strcspn(s, " \t")];
}

/* "local N"'s rest: "F K", a function's name and a parameter's place
 * (from 1), into rw. */
static bool local(const char *s, struct ks_rewrite *rw)
{
	const char *sp = strchr(s, ' ');
	char *end;
	unsigned long k = sp ? strtoul(sp + 1, &end, 10) : 0;

	if (!sp || sp[1] < '1' || sp[1] > '9' || k > 64 || *end)
		return false;
	rw->text = ks_xstrndup(s, (size_t)(sp - s));
	rw->param = (unsigned)k;
	return ks_is_identifier(rw->text);
}

/* "NAME N TEXT": a function's or macro's name, an argument's place (from
 * 1) and its text; into *n the place, *text where the text starts. */
static bool argument_name(const char *s, unsigned *n, const char **text)
{
	const char *sp = strchr(s, ' ');
	char *name = sp ? ks_xstrndup(s, (size_t)(sp - s)) : NULL, *end;
	unsigned long k = sp ? strtoul(sp + 1, &end, 10) : 0;
	bool ok = name && ks_is_identifier(name) && sp[1] >= '1' && sp[1] <= '9' && k <= 64 &&
		  *end == ' ' && argument_text(end + 1);

	free(name);
	if (ok) {
		*n = (unsigned)k;
		*text = end + 1;
	}
	return ok;
}

/* "wrap W N TEXT": the wrapper's name, the argument's place (from 1) and
 * the text it passes there (no blank), into rw. */
static bool wrap(const char *s, struct ks_rewrite *rw)
{
	const char *text;

	if (!argument_name(s, &rw->arg, &text))
		return false;
	rw->text = ks_xstrndup(s, strcspn(s, " "));
	rw->from = ks_xstrdup(text);
	return true;
}

/* A Rewrite: value: "drop N", "insert N TEXT", "rename NAME", "call
 * NAME", "const N" (N from 0), "retype N struct OLD struct NEW", "include
 * HEADER", "delete", "omit", "replace TEXT", "local N F K" or "wrap W N
 * TEXT". */
static bool rewrite(const char *s, struct ks_rewrite *rw)
{
	char *end;
	unsigned long n;
	size_t k = 1, len;

	if (!strcmp(s, op_names[KS_RW_DELETE]) || !strcmp(s, op_names[KS_RW_OMIT])) {
		rw->op = *s == 'd' ? KS_RW_DELETE : KS_RW_OMIT;
		return true;
	}
	while (k < KS_NRW_OPS && (len = strlen(op_names[k]), strncmp(s, op_names[k], len) ||
							       s[len] != ' '))
		k++;
	if (k == KS_NRW_OPS || k == KS_RW_DELETE || k == KS_RW_OMIT)
		return false;
	rw->op = (enum ks_rewrite_op)k;
	s += strlen(op_names[k]) + 1;
	if (rw->op == KS_RW_RENAME || rw->op == KS_RW_CALL) {
		if (!ks_is_identifier(s))
			return false;
		rw->text = ks_xstrdup(s);
		return true;
	}
	if (rw->op == KS_RW_WRAP)
		return wrap(s, rw);
	if (rw->op == KS_RW_INCLUDE || rw->op == KS_RW_REPLACE) {
		if (rw->op == KS_RW_INCLUDE ? !header(s) : !argument_text(s))
			return false;
		rw->text = ks_xstrdup(s);
		return true;
	}
	n = strtoul(s, &end, 10);
	if (end == s || *s == '-' || *s == '+' || (!n && rw->op != KS_RW_CONST) || n > 64)
		return false;
	if (rw->op == KS_RW_DROP || rw->op == KS_RW_CONST ? *end != '\0' : *end != ' ' || !end[1])
		return false;
	rw->arg = (unsigned)n;
	if (rw->op == KS_RW_RETYPE)
		return n && retype(end + 1, rw);
	if (rw->op == KS_RW_LOCAL)
		return local(end + 1, rw);
	rw->text = rw->op == KS_RW_INSERT ? ks_xstrdup(end + 1) : NULL;
	return true;
}

/* Whether rewrite op of entry e is its only one: a wrapper's, a member
 * gone's initializer deleted. */
static bool sole(const struct ks_migration *e, enum ks_rewrite_op op)
{
	return op == KS_RW_WRAP || (e->callback && op == KS_RW_DELETE);
}

/* Whether a Rewrite: rw belongs to entry e. */
static bool fits(const struct ks_migration *e, const struct ks_rewrite *rw)
{
	enum ks_rewrite_op op = rw->op;

	if (e->nrw && (sole(e, e->rw[0].op) || sole(e, op)))
		return false;
	if (e->callback)	/* a local: after its parameter's drop */
		return op == KS_RW_DELETE || op == KS_RW_CONST || op == KS_RW_RETYPE ||
		       op == KS_RW_DROP ||
		       (op == KS_RW_LOCAL && e->nrw == 1 && e->rw[0].op == KS_RW_DROP &&
			rw->arg == e->rw[0].arg);
	if (e->include)
		return op == KS_RW_INCLUDE;
	if (e->assign || e->read)
		return op == KS_RW_CALL;
	if (e->argument && op == KS_RW_WRAP) {	/* of the call that passes the text */
		unsigned n;
		const char *text;

		return argument_name(e->name, &n, &text) && rw->arg == n && !strcmp(rw->from, text);
	}
	if (e->argument)
		return op == KS_RW_REPLACE;
	return op == KS_RW_DROP || op == KS_RW_INSERT || op == KS_RW_RENAME || op == KS_RW_DELETE ||
	       op == KS_RW_OMIT || op == KS_RW_WRAP;
}

bool ks_migration_head(const struct ks_migration *e)
{
	return e->callback && !(e->nrw && e->rw[0].op == KS_RW_DELETE);
}

const struct ks_rewrite *ks_migration_local(const struct ks_migration *e,
					    const struct ks_rewrite *rw)
{
	const struct ks_rewrite *l = &e->rw[1];

	return e->callback && rw == &e->rw[0] && rw->op == KS_RW_DROP && e->nrw == 2 &&
			       l->op == KS_RW_LOCAL && l->arg == rw->arg && l->count >= 3
		       ? l
		       : NULL;
}

/* "struct S.MEMBER" (or union). */
static bool member_name(const char *s)
{
	const char *dot = strrchr(s, '.');
	char *t;
	bool ok;

	if (!dot || (strncmp(s, "struct ", 7) && strncmp(s, "union ", 6)) ||
	    !ks_is_identifier(dot + 1))
		return false;
	t = ks_xstrndup(s, (size_t)(dot - s));
	ok = tag_type(t);
	free(t);
	return ok;
}

/* A Read: entry's name: "struct S.MEMBER" or "struct S.MEMBER.FIELD";
 * into e its member and field. */
static bool read_name(const char *s, struct ks_migration *e)
{
	char *t = ks_xstrdup(s), *dot = strrchr(t, '.'), *first = strchr(t, '.');
	bool ok;

	if (dot && dot != first) {	/* a field */
		*dot = '\0';
		ok = ks_is_identifier(dot + 1) && member_name(t);
		if (ok) {
			e->field = ks_xstrdup(dot + 1);
			e->member = ks_xstrdup(strrchr(t, '.') + 1);
		}
	} else {
		ok = member_name(t);
		if (ok)
			e->member = ks_xstrdup(dot + 1);
	}
	free(t);
	return ok;
}

/* "MEMBER OP": a member's name, an operator of assignment; or "MEMBER =
 * F()": a member's, '=' and a function's or macro's name. */
static bool member_op(const char *s)
{
	const char *sp = strchr(s, ' ');
	size_t n = sp ? strlen(sp + 1) : 0;
	char *m;
	bool ok;

	if (!sp || (strcmp(sp + 1, "=") && strcmp(sp + 1, "|=") && strcmp(sp + 1, "&=") &&
		    (strncmp(sp + 1, "= ", 2) || n < 5 || strcmp(sp + n - 1, "()"))))
		return false;
	m = n >= 5 && sp[2] == ' ' ? ks_xstrndup(sp + 3, n - 4) : NULL;
	ok = !m || ks_is_identifier(m);
	free(m);
	m = ks_xstrndup(s, (size_t)(sp - s));
	ok = ok && ks_is_identifier(m);
	free(m);
	return ok;
}

/* A new entry of name: field is Header:, Call:, Assign:, Callback:, Read:,
 * Include: or Argument:. */
static void start_entry(struct parse *p, const char *field, const char *name)
{
	struct ks_migrations *m = p->m;
	struct ks_migration *e;
	bool call = *field != 'H', assign = !strcmp(field, "Assign"),
	     callback = !strcmp(field, "Callback"), read = *field == 'R', include = *field == 'I',
	     argument = !strcmp(field, "Argument");
	unsigned n;
	const char *text;
	struct ks_migration r = { 0 };

	if (p->cur)
		BAD(p, "'%s': an entry starts after a blank line", name);
	if (assign ? !member_op(name)
	    : argument ? !argument_name(name, &n, &text)
	    : read ? !read_name(name, &r)
	    : callback ? !member_name(name)
	    : include ? !ks_is_identifier(name) && !tag_type(name)
	    : call ? !ks_is_identifier(name)
	    : !header(name))
		BAD(p, assign ? "expected a member's name and '=', '|=', '&=' or '= NAME()', not '%s'"
		    : read ? "expected 'struct NAME.MEMBER' or 'struct NAME.MEMBER.FIELD', not '%s'"
		    : argument ? "expected a function's or macro's name, an argument's place "
				 "(from 1) and the argument's text without blanks, not '%s'"
		    : callback || read ? "expected 'struct NAME.MEMBER', not '%s'"
		    : include ? "expected a name or 'struct NAME', not '%s'"
		    : call ? "expected a function's or macro's name, not '%s'"
		    : "expected a header's name as #include <...> names it, not '%s'",
		    name);
	if (include ? ks_migrations_include(m, name) != NULL
	    : ks_migrations_find(m, name, call) != NULL) {
		free(r.member);
		free(r.field);
		BAD(p, "%s '%s' listed twice", call ? "entry" : "header", name);
	}
	ks_array_grow((void **)&m->v, m->n, 1, sizeof(*m->v));
	e = p->cur = &m->v[m->n++];
	memset(e, 0, sizeof(*e));
	e->name = ks_xstrdup(name);
	e->call = call;
	e->assign = assign;
	e->callback = callback;
	e->read = read;
	e->include = include;
	e->argument = argument;
	e->member = r.member;
	e->field = r.field;
	e->line = p->line;
}

static void field(struct parse *p, const char *name, const char *value)
{
	struct ks_migrations *m = p->m;
	struct ks_migration *e = p->cur;
	struct ks_rewrite *rw = e && e->nrw ? &e->rw[e->nrw - 1] : NULL;
	char **head = !strcmp(name, "From") ? &m->from : !strcmp(name, "To") ? &m->to : NULL;
	static const char *const known[] = { "From",	 "To",	    "Header",  "Call",
					     "Assign",	 "Callback", "Read",    "Include",
					     "Argument", "Instead", "Rewrite", "Count",
					     "Example" };
	size_t k = 0;
	unsigned n, of;

	while (k < KS_ARRAY_SIZE(known) && strcmp(known[k], name))
		k++;
	if (k == KS_ARRAY_SIZE(known))
		BAD(p, "unknown field '%s'", name);

	if (head) {
		if (m->n || *head)
			BAD(p, "'%s:' belongs once at the top, before the entries", name);
		if (!release(value))
			BAD(p, "expected a release X.Y, not '%s'", value);
		*head = ks_xstrdup(value);
	} else if (k >= 2 && k <= 8) {		/* Header ... Argument */
		start_entry(p, name, value);
	} else if (!e) {
		bad(p, ks_strdupf("'%s:' outside an entry (an entry starts with Header:, Call:, "
				  "Assign:, Callback:, Read:, Include: or Argument:)",
				  name));
	} else if (!strcmp(name, "Instead") || !strcmp(name, "Rewrite")) {
		struct ks_rewrite next = { .op = KS_RW_HEADER };

		if ((*name == 'I') == e->call)
			BAD(p, "'%s:' belongs to a %s entry", name,
			    e->call ? "Header:" : "Call:, Assign:, Callback:, Read:, Include: or "
						  "Argument:");
		if (e->nrw == KS_ARRAY_SIZE(e->rw) || (!e->call && e->nrw))
			BAD(p, "'%s': an entry has %s", value,
			    e->call ? "at most two rewrites" : "one Instead:");
		if (rw && (!rw->count || !rw->example))
			BAD(p, "'%s': the rewrite before lacks Count: or Example:", value);
		if (e->call ? !rewrite(value, &next) || !fits(e, &next) : !header(value)) {
			free(next.text);
			free(next.from);
			BAD(p, e->assign || e->read ? "expected 'call NAME', not '%s'"
			    : e->argument ? "expected 'replace TEXT' (TEXT without blanks), or alone "
					    "'wrap NAME N TEXT' of the entry's N and TEXT, not '%s'"
			    : e->include ? "expected 'include HEADER', not '%s'"
			    : e->callback ? "expected 'const N', 'drop N', 'retype N struct OLD struct NEW', "
					    "'delete' alone or, after a 'drop N', 'local N FUNCTION K', "
					    "not '%s'"
			    : e->call ? "expected 'drop N', 'insert N ARGUMENT', 'rename NAME', "
					"'delete', 'omit' or 'wrap NAME N ARGUMENT', not '%s'"
			    : "expected one header's name, not '%s'",
			    value);
		}
		if (!e->call)
			next.text = ks_xstrdup(value);
		if (e->argument && next.op == KS_RW_REPLACE) {	/* its place, the text it replaces */
			const char *text;

			(void)argument_name(e->name, &next.arg, &text);
			next.from = ks_xstrdup(text);
		}
		e->rw[e->nrw++] = next;
	} else if (!rw) {
		BAD(p, "'%s:' before the entry's %s", name, e->call ? "Rewrite:" : "Instead:");
	} else if (!strcmp(name, "Count")) {
		if (rw->count || !count(value, &n, &of) || (e->of && of != e->of))
			BAD(p, "expected 'N of M' (M as in the entry's first Count:), not '%s'", value);
		rw->count = n;
		e->of = of;
	} else if (rw->example || !(rw->example = example(value))) {
		BAD(p, "expected 'FILE:LINE -> FILE:LINE', not '%s'", value);
	}
}

/* The end of an entry: every field there. */
static void close_entry(struct parse *p)
{
	struct ks_migration *e = p->cur;
	unsigned line = p->line;
	bool whole;

	p->cur = NULL;
	if (!e)
		return;
	whole = e->nrw > 0;
	for (unsigned i = 0; i < e->nrw; i++)
		whole = whole && e->rw[i].count && e->rw[i].example;
	if (whole)
		return;
	p->line = e->line;
	bad(p, ks_strdupf("entry '%s' lacks %s, Count: or Example:", e->name,
			  e->call ? "Rewrite:" : "Instead:"));
	p->line = line;
}

static void one_line(struct parse *p, char *s)
{
	char *colon, *v;

	s[strcspn(s, "\r")] = '\0';
	if (*s == '#')
		return;
	if (!*s) {
		close_entry(p);
		return;
	}
	colon = strchr(s, ':');
	if (!colon || colon == s ||
	    s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")] != ':')
		BAD(p, "expected 'Field: value', not '%s'", s);
	*colon = '\0';
	v = colon + 1 + strspn(colon + 1, " \t");
	for (size_t n = strlen(v); n && (v[n - 1] == ' ' || v[n - 1] == '\t'); n--)
		v[n - 1] = '\0';
	field(p, s, v);
}

int ks_migrations_load(struct ks_migrations *m, const char *path, struct ks_diags *d)
{
	struct ks_buf text = KS_BUF_INIT;
	struct parse p = { .m = m, .d = d };
	int e;
	char *s, *nl;

	memset(m, 0, sizeof(*m));
	m->path = ks_xstrdup(path);
	if ((e = ks_buf_read_file(&text, path)) < 0) {
		ks_diag_add(d, KS_ERROR, path, 0, 0, "cannot read: %s", strerror(-e));
		ks_buf_free(&text);
		ks_migrations_free(m);
		return e;
	}
	if (text.len && memchr(text.p, '\0', text.len)) {
		ks_diag_add(d, KS_ERROR, path, 0, 0, "holds a NUL byte: not a migrations file");
		ks_buf_free(&text);
		ks_migrations_free(m);
		return -EINVAL;
	}
	ks_buf_addc(&text, '\0');	/* an empty file is one empty line */
	for (s = text.p;; s = nl + 1) {
		nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		p.line++;
		one_line(&p, s);
		if (!nl)
			break;
	}
	p.line++;
	close_entry(&p);
	if (!p.bad && (!m->from || !m->to)) {
		p.line = 0;
		bad(&p, ks_xstrdup("no From: and To: releases"));
	}
	ks_buf_free(&text);
	if (!p.bad)
		return 0;
	free(m->path);
	m->path = NULL;
	ks_migrations_free(m);
	return -EINVAL;
}

const struct ks_migration *ks_migrations_find(const struct ks_migrations *m, const char *name,
					      bool call)
{
	for (size_t i = 0; m && i < m->n; i++)
		if (m->v[i].call == call && !m->v[i].include && !strcmp(m->v[i].name, name))
			return &m->v[i];
	return NULL;
}

const struct ks_migration *ks_migrations_include(const struct ks_migrations *m, const char *name)
{
	for (size_t i = 0; m && i < m->n; i++)
		if (m->v[i].include && !strcmp(m->v[i].name, name))
			return &m->v[i];
	return NULL;
}

/* An argument that names nothing of a caller's own: a number, NULL,
 * true, false, or a name in capitals (a macro or an enumerator). */
static bool constant(const char *s)
{
	if (!strcmp(s, "NULL") || !strcmp(s, "true") || !strcmp(s, "false"))
		return true;
	if (*s == '-')
		s++;
	if (*s >= '0' && *s <= '9')
		return !s[strspn(s, "0123456789abcdefABCDEFxXuUlL")];
	return *s >= 'A' && *s <= 'Z' && !s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")];
}

const struct ks_migration *ks_migrations_target_include(struct ks_migrations *m, const char *name,
							const char *header)
{
	struct ks_migration *e;

	for (size_t i = 0; i < m->ntarget; i++)
		if (!strcmp(m->target[i]->name, name) && !strcmp(m->target[i]->rw[0].text, header))
			return m->target[i];
	e = ks_xcalloc(1, sizeof(*e));
	e->name = ks_xstrdup(name);
	e->call = e->include = e->target = true;
	e->rw[0] = (struct ks_rewrite){ KS_RW_INCLUDE, 0, ks_xstrdup(header), 0, NULL, NULL, 0 };
	e->nrw = 1;
	ks_array_grow((void **)&m->target, m->ntarget, 1, sizeof(*m->target));
	m->target[m->ntarget++] = e;
	return e;
}

const struct ks_rewrite *ks_migration_rewrite(const struct ks_migration *e)
{
	const struct ks_rewrite *rw = &e->rw[0];

	if (e->target || (e->nrw && rw->op == KS_RW_WRAP))	/* a definition: no count */
		return rw;
	if (!e->nrw || rw->count < 3 || rw->count * 3 < e->of * 2)
		return NULL;
	if (rw->op == KS_RW_REPLACE)	/* a global's address: &nop_mnt_idmap */
		return constant(rw->text) ||
		       (rw->text[0] == '&' && ks_is_identifier(rw->text + 1)) ? rw : NULL;
	return rw->op != KS_RW_INSERT || constant(rw->text) ? rw : NULL;
}

/* The call whose value s (after an assignment's '=') is, up to the ';'
 * that ends the statement: "F()"; NULL: none, or not a whole call. */
static char *value_call(const char *s)
{
	size_t len = strlen(s), a = strspn(s, " \t"), n = a, end;
	struct ks_call c;
	char *name, *r = NULL;

	while (n < len && ks_ident_char(s[n]))
		n++;
	if (n == a || isdigit((unsigned char)s[a]))
		return NULL;
	name = ks_xstrndup(s + a, n - a);
	if (ks_find_call(s, len, name, &c) && c.name == a) {
		end = c.close + 1 + strspn(s + c.close + 1, " \t");
		if (s[end] == ';')
			r = ks_strdupf("%s()", name);
	}
	free(name);
	return r;
}

/* "vm_flags |=", and in *call "i_ctime = current_time()" when the value
 * is a whole call (else NULL): how line lineno of path assigns member, as
 * one read of the line; NULL: it does not. */
static char *assigned(const char *member, const char *path, unsigned lineno, char **call)
{
	static const char *const ops[] = { "|=", "&=", "=" };
	char *line, *r = NULL, *at, *f;
	size_t len, n = strlen(member);

	*call = NULL;
	if (ks_file_line(path, lineno, &line, &len) < 0)
		return NULL;
	line[len] = '\0';
	for (at = strstr(line, member); at && !r; at = strstr(at + 1, member)) {
		const char *p = at + n + strspn(at + n, " \t");

		if (at > line && (at[-1] == '_' || isalnum((unsigned char)at[-1])))
			continue;
		for (size_t i = 0; i < KS_ARRAY_SIZE(ops) && !r; i++) {
			size_t k = strlen(ops[i]);

			if (strncmp(p, ops[i], k) || p[k] == '=')
				continue;
			r = ks_strdupf("%s %s", member, ops[i]);
			if (i == 2 && (f = value_call(p + k))) {
				*call = ks_strdupf("%s = %s", member, f);
				free(f);
			}
		}
	}
	free(line);
	return r;
}

char *ks_assigned_with(const char *member, const char *path, unsigned lineno)
{
	char *call, *r = assigned(member, path, lineno, &call);

	free(call);
	return r;
}

/* The Assign: entry of ms named call, else op (either NULL); NULL: none. */
static const struct ks_migration *assign_entry(const struct ks_migrations *ms, const char *call,
					       const char *op)
{
	const struct ks_migration *e = call ? ks_migrations_find(ms, call, true) : NULL;

	if (!e || !e->assign)
		e = op ? ks_migrations_find(ms, op, true) : NULL;
	return e && e->assign ? e : NULL;
}

const struct ks_migration *ks_migrations_assign(const struct ks_migrations *ms, const char *member,
						const char *path, unsigned lineno)
{
	char *call, *op = assigned(member, path, lineno, &call);
	const struct ks_migration *e = assign_entry(ms, call, op);

	free(call);
	free(op);
	return e;
}

char *ks_migration_example_text(const struct ks_migrations *m, const struct ks_rewrite *rw)
{
	const char *colon = rw->example ? strrchr(rw->example, ':') : NULL;
	char *path, *line = NULL, *r = NULL;
	size_t len, a = 0;
	unsigned long n;

	if (!m->source || !colon || !(n = strtoul(colon + 1, NULL, 10)) || n > UINT_MAX)
		return NULL;
	path = ks_strdupf("%s/%.*s", m->source, (int)(colon - rw->example), rw->example);
	if (!ks_file_line(path, (unsigned)n, &line, &len)) {
		while (a < len && (line[a] == ' ' || line[a] == '\t'))
			a++;
		while (len > a && (line[len - 1] == ' ' || line[len - 1] == '\t' ||
				   line[len - 1] == '\r'))
			len--;
		r = len > a ? ks_xstrndup(line + a, len - a) : NULL;
	}
	free(line);
	free(path);
	return r;
}

const struct ks_migration *ks_migrations_argument(const struct ks_migrations *ms,
						  const char *name, const char *path,
						  unsigned lineno)
{
	const struct ks_migration *e = NULL;
	struct ks_call c;
	char *line, *key;
	size_t len;

	if (ks_file_line(path, lineno, &line, &len) < 0)
		return NULL;
	if (!ks_find_call(line, len, name, &c))
		c.n = 0;
	for (unsigned k = 0; !e && k < c.n; k++) {
		key = ks_strdupf("%s %u %.*s", name, k + 1, (int)(c.b[k] - c.a[k]), line + c.a[k]);
		e = ks_migrations_find(ms, key, true);
		e = e && e->argument ? e : NULL;
		free(key);
	}
	free(line);
	return e;
}

char *ks_migration_callee(const struct ks_migration *e)
{
	return ks_xstrndup(e->name, strcspn(e->name, " "));
}

/* The field of member that line lineno of path reads at the member's
 * first read there ("tv_sec" of "inode->i_mtime.tv_sec"), to free; NULL:
 * none, or the whole member. */
static char *field_read(const char *member, const char *path, unsigned lineno)
{
	char *line, *r = NULL;
	size_t len, i, a, f, k;

	if (ks_file_line(path, lineno, &line, &len) < 0)
		return NULL;
	if ((i = ks_find_member(line, len, member, 0)) < len) {
		for (a = i + strlen(member); a < len && (line[a] == ' ' || line[a] == '\t'); a++)
			;
		if ((k = ks_past_field(line, len, a, &f)) != a)
			r = ks_xstrndup(line + f, k - f);
	}
	free(line);
	return r;
}

const struct ks_migration *ks_migrations_read(const struct ks_migrations *ms, const char *name,
					      const char *path, unsigned lineno)
{
	const char *dot = strrchr(name, '.');
	char *field = dot ? field_read(dot + 1, path, lineno) : NULL, *key;
	const struct ks_migration *at = NULL;

	if (field) {
		key = ks_strdupf("%s.%s", name, field);
		at = ks_migrations_find(ms, key, true);
		free(key);
		free(field);
	}
	if (!at || !at->read)
		at = ks_migrations_find(ms, name, true);
	return at && at->read ? at : NULL;
}

const struct ks_migration *ks_migration_at(const struct ks_migrations *ms,
					   const struct ks_migration *e, const char *path,
					   unsigned lineno)
{
	char *member, *op, *call;
	const struct ks_migration *at;

	if (e && e->argument) {
		call = ks_migration_callee(e);
		at = ks_migrations_argument(ms, call, path, lineno);
		free(call);
		return at;
	}
	if (!e || !(e->assign || e->read))
		return e;
	member = e->assign ? ks_xstrndup(e->name, strcspn(e->name, " ")) : ks_xstrdup(e->member);
	/* a read's entry at a line that assigns the member: its Assign: one */
	op = assigned(member, path, lineno, &call);
	if (e->assign || op) {
		at = assign_entry(ms, call, op);
	} else {	/* the whole member's, or the field's the line reads */
		char *base = ks_xstrndup(e->name, strlen(e->name) -
							  (e->field ? strlen(e->field) + 1 : 0));

		at = ks_migrations_read(ms, base, path, lineno);
		free(base);
	}
	free(call);
	free(op);
	free(member);
	return at;
}

static void entry_free(struct ks_migration *e)
{
	free(e->name);
	free(e->member);
	free(e->field);
	for (unsigned k = 0; k < e->nrw; k++) {
		free(e->rw[k].text);
		free(e->rw[k].from);
		free(e->rw[k].example);
	}
}

void ks_migrations_free(struct ks_migrations *m)
{
	for (size_t i = 0; i < m->n; i++)
		entry_free(&m->v[i]);
	for (size_t i = 0; i < m->ntarget; i++) {
		entry_free(m->target[i]);
		free(m->target[i]);
	}
	free(m->target);
	free(m->v);
	free(m->from);
	free(m->to);
	free(m->path);
	memset(m, 0, sizeof(*m));
}
