/* A migration's rewrite applied to one line: the #include's header
 * renamed, a call's argument dropped or inserted, or the name called
 * replaced, found as the
 * preprocessor and the compiler read the line (names whole, strings and
 * comments skipped). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "file.h"
#include "report/column.h"
#include "report/rewrite.h"

#define MAX_ARGS 64

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* Past the string or character literal, or comment, that starts at s[i];
 * i itself when none starts there; len when it runs past the line. */
static size_t skip_literal(const char *s, size_t len, size_t i)
{
	if (s[i] == '"' || s[i] == '\'') {
		char q = s[i];

		for (i++; i < len && s[i] != q; i++)
			i += s[i] == '\\';
		return i < len ? i + 1 : len;
	}
	if (i + 1 < len && s[i] == '/' && s[i + 1] == '/')
		return len;
	if (i + 1 < len && s[i] == '/' && s[i + 1] == '*') {
		for (i += 2; i + 1 < len; i++)
			if (s[i] == '*' && s[i + 1] == '/')
				return i + 2;
		return len;
	}
	return i;
}

/* A call on a line: where its name starts, its '(' and ')', and where
 * each argument starts and ends, blanks around it left out. */
struct call {
	size_t name, open, close;
	size_t a[MAX_ARGS], b[MAX_ARGS];
	unsigned n;
};

/* The arguments of the call whose '(' is s[open]; false when its ')' is
 * not on the line. */
static bool arguments(const char *s, size_t len, struct call *c)
{
	unsigned depth = 0;
	size_t start = c->open + 1;

	c->n = 0;
	for (size_t i = c->open + 1; i < len;) {
		size_t j = skip_literal(s, len, i);

		if (j != i) {
			i = j;
			continue;
		}
		if (s[i] == '(' || s[i] == '[' || s[i] == '{') {
			depth++;
		} else if ((s[i] == ',' && !depth) || ((s[i] == ')' && !depth))) {
			size_t a = start, b = i;

			while (a < b && (s[a] == ' ' || s[a] == '\t'))
				a++;
			while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t'))
				b--;
			if (c->n == MAX_ARGS)
				return false;
			/* "()" has no argument */
			if (a < b || s[i] == ',' || c->n) {
				c->a[c->n] = a;
				c->b[c->n++] = b;
			}
			if (s[i] == ')') {
				c->close = i;
				return true;
			}
			start = i + 1;
		} else if (s[i] == ')' || s[i] == ']' || s[i] == '}') {
			depth--;
		}
		i++;
	}
	return false;
}

/* Where name stands whole on the line at or after byte from, outside
 * strings and comments; len when nowhere. */
static size_t find_name(const char *s, size_t len, const char *name, size_t from)
{
	size_t n = strlen(name);

	for (size_t i = from; i < len;) {
		size_t j = skip_literal(s, len, i);

		if (j != i) {
			i = j;
			continue;
		}
		if (i + n <= len && !memcmp(s + i, name, n) && (!i || !ident_char(s[i - 1])) &&
		    (i + n == len || !ident_char(s[i + n])))
			return i;
		i++;
	}
	return len;
}

/* The first call of name on the line whose arguments are all there. */
static bool find_call(const char *s, size_t len, const char *name, struct call *c)
{
	size_t n = strlen(name);

	for (size_t i = find_name(s, len, name, 0), k; i < len;
	     i = find_name(s, len, name, i + n)) {
		for (k = i + n; k < len && (s[k] == ' ' || s[k] == '\t'); k++)
			;
		c->name = i;
		c->open = k;
		if (k < len && s[k] == '(' && arguments(s, len, c))
			return true;
	}
	return false;
}

/* The argument's bytes that dropping or inserting it replaces, and with
 * what; false when the call has no such argument (or place for it). */
static bool call_span(const struct call *c, const struct ks_rewrite *rw, size_t at[2],
		      char **with)
{
	unsigned k = rw->arg - 1;

	if (rw->op == KS_RW_DROP) {
		if (k >= c->n)
			return false;
		if (c->n == 1) {
			at[0] = c->a[0], at[1] = c->b[0];
		} else if (k + 1 < c->n) {	/* "x, " of "x, y" */
			at[0] = c->a[k], at[1] = c->a[k + 1];
		} else {			/* ", y" of "x, y" */
			at[0] = c->b[k - 1], at[1] = c->b[k];
		}
		*with = ks_xstrdup("");
		return true;
	}
	if (k > c->n)
		return false;
	if (!c->n) {
		at[0] = at[1] = c->open + 1;
		*with = ks_xstrdup(rw->text);
	} else if (k < c->n) {
		at[0] = at[1] = c->a[k];
		*with = ks_strdupf("%s, ", rw->text);
	} else {
		at[0] = at[1] = c->b[k - 1];
		*with = ks_strdupf(", %s", rw->text);
	}
	return true;
}

static size_t skip_blanks(const char *s, size_t len, size_t i)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

/* The statement "OBJ->MEMBER OP VALUE;" (or OBJ.MEMBER) that the line is,
 * as the call in-tree code made of it: "NAME(OBJ, VALUE);" (&OBJ for '.',
 * VALUE without its '~' for &=). Its bytes in at[], the call in *with. */
static bool assign_span(const char *s, size_t len, const char *name, const char *call,
			size_t at[2], char **with)
{
	const char *sp = strchr(name, ' '), *op = sp + 1;
	char *member = ks_xstrndup(name, (size_t)(sp - name));
	size_t start = skip_blanks(s, len, 0), n = strlen(member), i, dot, v, end = 0;
	char *obj, *value;
	bool arrow;

	i = find_name(s, len, member, start);
	free(member);
	if (i == len)
		return false;
	/* OBJ, then -> or . */
	for (dot = i; dot > start && (s[dot - 1] == ' ' || s[dot - 1] == '\t'); dot--)
		;
	arrow = dot >= start + 2 && s[dot - 2] == '-' && s[dot - 1] == '>';
	if (!arrow && !(dot > start && s[dot - 1] == '.'))
		return false;
	dot -= arrow ? 2 : 1;
	while (dot > start && (s[dot - 1] == ' ' || s[dot - 1] == '\t'))
		dot--;
	if (dot == start || memchr(s + start, '=', dot - start) || memchr(s + start, ';', dot - start))
		return false;
	/* OP, exactly */
	v = skip_blanks(s, len, i + n);
	if (len - v < strlen(op) + 1 || memcmp(s + v, op, strlen(op)) || s[v + strlen(op)] == '=')
		return false;
	v = skip_blanks(s, len, v + strlen(op));
	for (size_t k = v; k < len;) {
		size_t j = skip_literal(s, len, k);

		if (j != k) {
			k = j;
			continue;
		}
		if (s[k] == ';') {
			end = k;
			break;
		}
		k++;
	}
	if (!end || end == v)
		return false;
	if (!strcmp(op, "&=")) {	/* &= ~X: X */
		if (s[v] != '~')
			return false;
		v = skip_blanks(s, len, v + 1);
	}
	value = ks_xstrndup(s + v, end - v);
	for (size_t k = strlen(value); k && (value[k - 1] == ' ' || value[k - 1] == '\t'); k--)
		value[k - 1] = '\0';
	obj = ks_xstrndup(s + start, dot - start);
	*with = ks_strdupf("%s(%s%s, %s);", call, arrow ? "" : "&", obj, value);
	at[0] = start;
	at[1] = end + 1;
	free(obj);
	free(value);
	return true;
}

/* Past the words a definition's head may start with before its type. */
static size_t past_storage(const char *s, size_t len, size_t i)
{
	static const char *const words[] = { "static", "inline", "__always_inline", "noinline",
					     "__maybe_unused", "notrace" };

	for (size_t k = 0; k < KS_ARRAY_SIZE(words);) {
		size_t n = strlen(words[k]);

		i = skip_blanks(s, len, i);
		if (i + n < len && !memcmp(s + i, words[k], n) && !ident_char(s[i + n])) {
			i += n;
			k = 0;
		} else {
			k++;
		}
	}
	return i;
}

/* What rw (CONST, RETYPE) changes of the head of callback fn's definition
 * on the line: "const " before the parameter's type (or the return
 * type's), or the struct's name in the parameter's type replaced; *from
 * where the head starts. */
static bool callback_span(const char *s, size_t len, const char *fn, const struct ks_rewrite *rw,
			  size_t at[2], char **with, size_t *from)
{
	struct call c;
	size_t i, k = rw->arg - 1, n;

	if (!fn || !find_call(s, len, fn, &c))
		return false;
	*from = skip_blanks(s, len, 0);
	if (rw->op == KS_RW_CONST) {
		/* the return type, when the line has it; the parameter's */
		i = rw->arg ? (k < c.n ? c.a[k] : len) : past_storage(s, len, 0);
		if (i >= (rw->arg ? len : c.name) || (len - i > 6 && !memcmp(s + i, "const", 5) &&
						      !ident_char(s[i + 5])))
			return false;
		at[0] = at[1] = i;
		*with = ks_xstrdup("const ");
		return true;
	}
	if (k >= c.n)
		return false;
	/* "struct NAME": the keyword, then the name it replaces */
	n = strcspn(rw->text, " ");
	for (i = c.a[k]; i < c.b[k]; i = find_name(s, c.b[k], rw->text, i) + n) {
		char *kw = ks_xstrndup(rw->text, n);

		i = find_name(s, c.b[k], kw, i);
		free(kw);
		if (i == c.b[k])
			return false;
		at[0] = skip_blanks(s, c.b[k], i + n);
		for (at[1] = at[0]; at[1] < c.b[k] && ident_char(s[at[1]]); at[1]++)
			;
		if (at[1] == at[0] || !strncmp(s + at[0], rw->text + n + 1, at[1] - at[0]))
			return false;
		*with = ks_xstrdup(rw->text + n + 1);
		return true;
	}
	return false;
}

int ks_edit_line(const struct ks_migration *e, const struct ks_rewrite *rw, const char *s,
		 size_t len, const char *fn, struct ks_edit *ed)
{
	size_t from, to;
	struct ks_buf after = KS_BUF_INIT;

	memset(ed, 0, sizeof(*ed));
	if (rw->op == KS_RW_CONST || rw->op == KS_RW_RETYPE) {
		struct call c;

		if (!callback_span(s, len, fn, rw, ed->at, &ed->with, &from) ||
		    !find_call(s, len, fn, &c))
			return -ERANGE;
		to = c.close + 1;
	} else if (rw->op == KS_RW_HEADER) {
		long at = ks_include_name_at(s, len, e->name);

		if (at < 0)
			return -ERANGE;
		from = ed->at[0] = (size_t)at;
		to = ed->at[1] = (size_t)at + strlen(e->name);
		ed->with = ks_xstrdup(rw->text);
	} else if (rw->op == KS_RW_CALL) {
		if (!assign_span(s, len, e->name, rw->text, ed->at, &ed->with))
			return -ERANGE;
		from = ed->at[0];
		to = ed->at[1];
	} else if (rw->op == KS_RW_RENAME) {
		/* the name alone: the arguments may run on */
		from = ed->at[0] = find_name(s, len, e->name, 0);
		if (from == len)
			return -ERANGE;
		to = ed->at[1] = from + strlen(e->name);
		ed->with = ks_xstrdup(rw->text);
	} else {
		struct call c;

		if (!find_call(s, len, e->name, &c) || !call_span(&c, rw, ed->at, &ed->with))
			return -ERANGE;
		from = c.name;
		to = c.close + 1;
	}
	ed->before = ks_xstrndup(s + from, to - from);
	ks_buf_add(&after, s + from, ed->at[0] - from);
	ks_buf_adds(&after, ed->with);
	ks_buf_add(&after, s + ed->at[1], to - ed->at[1]);
	ed->after = ks_buf_steal(&after);
	for (int i = 0; i < 2; i++)
		ks_columns_at(s, ed->at[i], &ed->dcol[i], &ed->ucol[i]);
	return 0;
}

unsigned ks_definition_line(const char *path, const char *fn)
{
	struct ks_buf text = KS_BUF_INIT;
	unsigned line = 0, found = 0, head = 0;	/* head: a line that ends a head of
						   fn's, blank lines after it */

	if (ks_buf_read_file(&text, path) < 0)
		return 0;
	for (size_t at = 0; at < text.len && !found;) {
		const char *s = text.p + at, *nl = memchr(s, '\n', text.len - at);
		size_t len = nl ? (size_t)(nl - s) : text.len - at, i;
		struct call c;

		line++;
		i = skip_blanks(s, len, 0);
		if (head && i < len)
			found = s[i] == '{' ? head : 0;
		head = i == len ? head : 0;
		if (!found && find_call(s, len, fn, &c)) {
			i = skip_blanks(s, len, c.close + 1);
			head = i == len ? line : 0;
			found = i < len && s[i] == '{' ? line : 0;
		}
		at += len + 1;
	}
	ks_buf_free(&text);
	return found;
}

int ks_edit_file(const struct ks_migration *e, const struct ks_rewrite *rw, const char *path,
		 unsigned lineno, const char *fn, struct ks_edit *ed)
{
	char *line;
	size_t len;
	int r;

	memset(ed, 0, sizeof(*ed));
	/* a callback's rewrite is at its definition */
	if (e->callback && !(lineno = fn ? ks_definition_line(path, fn) : 0))
		return -ERANGE;
	r = ks_file_line(path, lineno, &line, &len);
	if (!r)
		r = ks_edit_line(e, rw, line, len, fn, ed);
	ed->line = lineno;
	free(line);
	return r;
}

void ks_edit_free(struct ks_edit *ed)
{
	free(ed->with);
	free(ed->before);
	free(ed->after);
	memset(ed, 0, sizeof(*ed));
}

void ks_edit_missing(struct ks_buf *b, const struct ks_migration *e, const struct ks_rewrite *rw)
{
	if (rw->op == KS_RW_HEADER)
		ks_buf_addf(b, "no longer includes <%s> (changed since the build)", e->name);
	else if (rw->op == KS_RW_RENAME)
		ks_buf_addf(b, "no longer names %s (changed since the build)", e->name);
	else if (rw->op == KS_RW_CALL)
		ks_buf_addf(b, "is no statement of its own that assigns with '%s' (another "
			       "operator, or changed since the build)",
			    e->name);
	else if (e->callback)
		ks_buf_addf(b, "has no definition of the callback whose head the file has on one "
			       "line, with the parameter %s rewrites (defined in another file, "
			       "or changed since the build)",
			    ks_rewrite_op_name(rw->op));
	else
		ks_buf_addf(b, "has no call of %s() with all its arguments (changed since the build, "
			       "or a call over several lines)",
			    e->name);
}
