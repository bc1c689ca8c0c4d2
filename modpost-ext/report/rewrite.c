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
#include "array.h"
#include "buf.h"
#include "file.h"
#include "forecast/forecast.h"
#include "input/ctext.h"
#include "module/elfmod.h"
#include "report/column.h"
#include "report/rewrite.h"
#include "rules/rules.h"

/* Whether the call c of line s passes text as its argument k (from 0). */
static bool passes(const char *s, const struct ks_call *c, unsigned k, const char *text)
{
	size_t n = strlen(text);

	return k < c->n && c->b[k] - c->a[k] == n && !memcmp(s + c->a[k], text, n);
}

/* The argument's bytes that dropping, inserting or replacing it replaces
 * in line s, and with what (a wrapper's: the whole call); false when the
 * call has no such argument (or place for it), or passes another text
 * there than the one replaced (or the wrapper passes). */
static bool call_span(const char *s, const struct ks_call *c, const struct ks_rewrite *rw,
		      size_t at[2], char **with)
{
	unsigned k = rw->arg - 1;

	if (rw->op == KS_RW_REPLACE) {
		if (!passes(s, c, k, rw->from))
			return false;
		at[0] = c->a[k], at[1] = c->b[k];
		*with = ks_xstrdup(rw->text);
		return true;
	}

	if (rw->op == KS_RW_WRAP) {	/* the whole call: the wrapper's, without it */
		struct ks_buf b = KS_BUF_INIT;

		if (!passes(s, c, k, rw->from))
			return false;
		ks_buf_addf(&b, "%s(", rw->text);
		for (unsigned i = 0; i < c->n; i++)
			if (i != k)
				ks_buf_addf(&b, "%s%.*s", b.p[b.len - 1] == '(' ? "" : ", ",
					    (int)(c->b[i] - c->a[i]), s + c->a[i]);
		ks_buf_addc(&b, ')');
		at[0] = c->name, at[1] = c->close + 1;
		*with = ks_buf_steal(&b);
		return true;
	}
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

/* Back from s[o - 1], a ']' or ')', to its '[' or '('; o itself when
 * that is not on the line. */
static size_t back_over(const char *s, size_t o)
{
	char close = s[o - 1], open = close == ']' ? '[' : '(';
	unsigned depth = 0;
	size_t k = o;

	do {
		k--;
		depth += s[k] == close;
		depth -= s[k] == open;
	} while (k && depth);
	return depth ? o : k;
}

/* Where the object of a member access ends at s[end] ("p->fd" of
 * "p->fd.file") starts: names, '.', '->', [...] and, before a '.' or
 * '->', a call's (...) back from end ("F(a)" of "F(a)->x", not the cast
 * of "(long)ip->x"); end: none. */
static size_t object_start(const char *s, size_t end)
{
	size_t o = end, k;

	while (o) {
		if (ks_ident_char(s[o - 1])) {
			o--;
		} else if (s[o - 1] == '.' || (o >= 2 && s[o - 1] == '>' && s[o - 2] == '-')) {
			o -= s[o - 1] == '.' ? 1 : 2;
		} else if (s[o - 1] == ']' ||
			   (s[o - 1] == ')' && (o == end || s[o] == '.' || s[o] == '-'))) {
			if ((k = back_over(s, o)) == o)
				return end;
			o = k;
		} else {
			break;
		}
	}
	/* it starts with a name, or (...) */
	while (o < end && (s[o] == '.' || s[o] == '-' || s[o] == '>'))
		o++;
	return o < end && (s[o] == '(' || (ks_ident_char(s[o]) && !(s[o] >= '0' && s[o] <= '9')))
		       ? o
		       : end;
}

/* Where the value of an assignment that starts at s[v] ends: the ';'
 * after it; 0: none on the line, or the value assigns too ("a = b = c",
 * the chain's inner link first). */
static size_t value_end(const char *s, size_t len, size_t v)
{
	unsigned depth = 0;

	for (size_t k = v; k < len;) {
		size_t j = ks_skip_literal(s, len, k);

		if (j != k) {
			k = j;
			continue;
		}
		if (s[k] == '(' || s[k] == '[' || s[k] == '{')
			depth++;
		else if ((s[k] == ')' || s[k] == ']' || s[k] == '}') && depth)
			depth--;
		else if (s[k] == ';' && !depth)
			return k;
		else if (s[k] == '=' && !depth && (k + 1 == len || s[k + 1] != '=') &&
			 (k == v || !strchr("=!<>", s[k - 1]) ||
			  (k >= v + 2 && s[k - 1] == s[k - 2])))
			return 0;
		k++;
	}
	return 0;
}

/* The assignment "OBJ->MEMBER OP VALUE" (or OBJ.MEMBER) on the line, as
 * the call in-tree code made of it: "NAME(OBJ, VALUE)" (&OBJ for '.',
 * VALUE without its '~' for &=); for an entry "MEMBER = F()", whose VALUE
 * is a whole call of F, "NAME(OBJ)". A statement of its own keeps its
 * ';'; the inner link of a chain of '=' ("a->m = b->n = V;") is rewritten
 * as a value. Its bytes in at[], the call in *with. */
static bool assign_span(const char *s, size_t len, const char *name, const char *call,
			size_t at[2], char **with)
{
	const char *sp = strchr(name, ' ');
	char *member = ks_xstrndup(name, (size_t)(sp - name)), *f = NULL;
	size_t start = skip_blanks(s, len, 0), n = strlen(member), i, dot, o, v = 0, end = 0;
	const char *op = sp + 1;
	size_t oplen = strcspn(op, " ");
	char *obj, *value;
	bool arrow, link = false;

	if (op[oplen])		/* "= F()": F */
		f = ks_xstrndup(op + oplen + 1, strlen(op + oplen + 1) - 2);
	for (i = ks_find_name(s, len, member, start); i < len; i = ks_find_name(s, len, member, i + n)) {
		v = skip_blanks(s, len, i + n);
		if (len - v > oplen && !memcmp(s + v, op, oplen) && s[v + oplen] != '=')
			break;
	}
	free(member);
	if (i == len)
		goto no;
	/* OBJ, then -> or . */
	for (dot = i; dot > start && (s[dot - 1] == ' ' || s[dot - 1] == '\t'); dot--)
		;
	arrow = dot >= start + 2 && s[dot - 2] == '-' && s[dot - 1] == '>';
	if (!arrow && !(dot > start && s[dot - 1] == '.'))
		goto no;
	dot -= arrow ? 2 : 1;
	while (dot > start && (s[dot - 1] == ' ' || s[dot - 1] == '\t'))
		dot--;
	if (dot == start || memchr(s + start, ';', dot - start))
		goto no;
	o = start;
	/* a chain's inner link: after '=', of '=' (a setter that returns
	 * what it set; a compound one's returns nothing) */
	if (memchr(s + start, '=', dot - start)) {
		size_t k;

		if (oplen != 1)
			goto no;
		o = object_start(s, dot);
		for (k = o; k > start && (s[k - 1] == ' ' || s[k - 1] == '\t'); k--)
			;
		if (o == dot || k == start || s[k - 1] != '=' ||
		    (k >= start + 2 && strchr("=!<>", s[k - 2])))
			goto no;
		link = true;
	}
	v = skip_blanks(s, len, v + oplen);
	if (!(end = value_end(s, len, v)) || end == v)
		goto no;
	if (!strncmp(op, "&=", oplen)) {	/* &= ~X: X */
		if (s[v] != '~')
			goto no;
		v = skip_blanks(s, len, v + 1);
	}
	value = ks_xstrndup(s + v, end - v);
	for (size_t k = strlen(value); k && (value[k - 1] == ' ' || value[k - 1] == '\t'); k--)
		value[k - 1] = '\0';
	/* "= F()": the value a whole call of F */
	if (f) {
		struct ks_call c;
		size_t vl = strlen(value);

		if (!ks_find_call(value, vl, f, &c) || c.name || c.close + 1 != vl) {
			free(value);
			goto no;
		}
	}
	obj = ks_xstrndup(s + o, dot - o);
	if (f)
		*with = ks_strdupf("%s(%s%s)%s", call, arrow ? "" : "&", obj, link ? "" : ";");
	else
		*with = ks_strdupf("%s(%s%s, %s)%s", call, arrow ? "" : "&", obj, value,
				   link ? "" : ";");
	at[0] = o;
	at[1] = link ? end : end + 1;
	if (link)	/* up to the value's last byte */
		while (at[1] > v && (s[at[1] - 1] == ' ' || s[at[1] - 1] == '\t'))
			at[1]--;
	free(obj);
	free(value);
	free(f);
	return true;
no:
	free(f);
	return false;
}

/* Whether s[a] starts an assignment (=, op=) or an increment, not a
 * comparison (==, <=, >=). */
static bool written(const char *s, size_t len, size_t a)
{
	if (a < len && s[a] == '=')
		return a + 1 == len || s[a + 1] != '=';
	if (a + 2 < len && (s[a] == '<' || s[a] == '>'))
		return s[a + 1] == s[a] && s[a + 2] == '=';	/* <<=, >>= */
	return a + 1 < len && s[a] && strchr("+-*/%&|^", s[a]) &&
	       (s[a + 1] == '=' || (s[a] == s[a + 1] && (s[a] == '+' || s[a] == '-')));
}

/* Past ".FIELD" at s[a], field the one there (NULL: any); a itself when
 * none is there. */
static size_t past_field(const char *s, size_t len, size_t a, const char *field)
{
	size_t f, k = ks_past_field(s, len, a, &f);

	if (k != a && field && (k - f != strlen(field) || memcmp(s + f, field, k - f)))
		return a;
	return k;
}

/* Every read of member on the line ("OBJ.member", "OBJ->member"; not
 * assigned, incremented or its address taken, nor a field of it written)
 * as in-tree code wrote it instead: "call(OBJ)"; of field, only the reads
 * of that field of it ("OBJ->member.field"), each whole. The bytes from
 * the first read to the last in at[], them rewritten in *with. */
static bool read_span(const char *s, size_t len, const char *member, const char *field,
		      const char *call, size_t at[2], char **with)
{
	struct ks_buf out = KS_BUF_INIT;
	size_t n = strlen(member), done = 0;

	at[0] = len;
	for (size_t i = ks_find_name(s, len, member, 0); i < len; i = ks_find_name(s, len, member, i + n)) {
		size_t end = i, o, k, a = skip_blanks(s, len, i + n), past = past_field(s, len, a, field);

		while (end > done && (s[end - 1] == ' ' || s[end - 1] == '\t'))
			end--;
		if (end > done && s[end - 1] == '.')
			end--;
		else if (end >= done + 2 && s[end - 1] == '>' && s[end - 2] == '-')
			end -= 2;
		else
			continue;
		while (end > done && (s[end - 1] == ' ' || s[end - 1] == '\t'))
			end--;
		o = object_start(s, end);
		if (o == end || o < done)
			continue;
		/* written, not read: =, op=, ++, --, or a field of it so; or its
		 * address taken; of a field, another read */
		if (written(s, len, a) || written(s, len, skip_blanks(s, len, past)) ||
		    (field && past == a))
			continue;
		for (k = o; k && (s[k - 1] == ' ' || s[k - 1] == '\t'); k--)
			;
		if (k && s[k - 1] == '&' && (k < 2 || s[k - 2] != '&'))
			continue;
		if (at[0] == len)
			at[0] = o;
		else
			ks_buf_add(&out, s + done, o - done);
		ks_buf_addf(&out, "%s(%.*s)", call, (int)(end - o), s + o);
		done = at[1] = field ? past : i + n;
	}
	if (at[0] == len) {
		ks_buf_free(&out);
		return false;
	}
	*with = ks_buf_steal(&out);
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
		if (i + n < len && !memcmp(s + i, words[k], n) && !ks_ident_char(s[i + n])) {
			i += n;
			k = 0;
		} else {
			k++;
		}
	}
	return i;
}

/* The head of a definition of fn among lines p[0..n): where its name is,
 * and where each parameter starts and ends (line, byte), over as many
 * lines as it takes. */
#define MAX_HEAD_LINES 16
struct head {
	size_t line, name;
	size_t pl[KS_CALL_MAX_ARGS], pa[KS_CALL_MAX_ARGS], pb[KS_CALL_MAX_ARGS];	/* line, start, end */
	unsigned n;
	char end;		/* head_at()'s */
	size_t bl, bi;		/* end '{': where it is (line, byte) */
	int fit;		/* all_heads()'s */
};

/* Reads the parameters of the head whose '(' is p[k][open] into h; false
 * when they do not close within MAX_HEAD_LINES lines or are too many.
 * *k, *i: after its ')'. */
static bool parameters(const char *const *p, const size_t *len, size_t n, size_t *k, size_t *i,
		       struct head *h)
{
	unsigned depth = 0;
	bool start = true;

	h->n = 0;
	for (size_t first = *k; *k < n && *k < first + MAX_HEAD_LINES; (*k)++, *i = 0) {
		for (; *i < len[*k];) {
			const char *s = p[*k];
			size_t j = ks_skip_literal(s, len[*k], *i);

			if (j != *i) {
				*i = j;
				continue;
			}
			if (start && s[*i] != ' ' && s[*i] != '\t' && s[*i] != ')') {
				if (h->n == KS_CALL_MAX_ARGS)
					return false;
				h->pl[h->n] = *k;
				h->pa[h->n] = h->pb[h->n] = *i;
				h->n++;
				start = false;
			}
			if (s[*i] == '(' || s[*i] == '[') {
				depth++;
			} else if (!depth && (s[*i] == ',' || s[*i] == ')')) {
				start = s[*i] == ',';
				if (s[*i] == ')') {
					/* "(void)": none */
					if (h->n == 1 && h->pb[0] - h->pa[0] == 4 &&
					    !memcmp(p[h->pl[0]] + h->pa[0], "void", 4))
						h->n = 0;
					(*i)++;
					return true;
				}
			} else if (s[*i] == ')' || s[*i] == ']') {
				depth--;
			}
			if (!start && h->n && h->pl[h->n - 1] == *k && s[*i] != ' ' && s[*i] != '\t')
				h->pb[h->n - 1] = *i + 1;
			(*i)++;
		}
	}
	return false;
}

/* The parameters of a function pointer type ("int (*)(struct device *,
 * char *)"): where each starts (past its blanks) and ends, into at[]; how
 * many (0: "(void)"); -1: type is none, or not one, or has too many. */
static int type_params(const char *type, size_t at[][2])
{
	const char *p = type ? strstr(type, "(*)(") : NULL;
	size_t start;
	int depth = 0, n = 0;

	if (!p)
		return -1;
	start = (size_t)(p + 4 - type);
	if (!strncmp(type + start, "void)", 5))
		return 0;
	for (size_t i = start; type[i]; i++) {
		depth += type[i] == '(' ? 1 : type[i] == ')' ? -1 : 0;
		if (depth < 0 || (type[i] == ',' && !depth)) {
			if (n == KS_CALL_MAX_ARGS)
				return -1;
			at[n][0] = start + strspn(type + start, " ");
			at[n++][1] = i;
			start = i + 1;
		}
		if (depth < 0)
			return at[0][0] == at[0][1] ? 0 : n;
	}
	return -1;
}

/* How well head h fits the function pointer type (the member's where the
 * module was built): 2, each parameter spells every word of the type's
 * ("umode_t *mode" for "umode_t *", not "mode_t *mode"); 1, as many
 * parameters; 0, neither, or the type is not known. */
static int fits(const char *const *p, const struct head *h, const char *type)
{
	size_t at[KS_CALL_MAX_ARGS][2];
	int n = type_params(type, at);

	if (n < 0 || (unsigned)n != h->n)
		return 0;
	for (int k = 0; k < n; k++) {
		for (size_t i = at[k][0]; i < at[k][1];) {
			size_t j = i;
			char *word;
			bool in;

			while (j < at[k][1] && ks_ident_char(type[j]))
				j++;
			if (j == i) {
				i++;
				continue;
			}
			word = ks_xstrndup(type + i, j - i);
			in = ks_find_name(p[h->pl[k]], h->pb[k], word, h->pa[k]) < h->pb[k];
			free(word);
			if (!in)
				return 1;
			i = j;
		}
	}
	return 2;
}

/* The head of fn whose name is p[k][at]: its parameters into *h, then
 * '{' (blank lines, directives and other heads of fn between allowed), a
 * declaration's ';', or nothing more (the last line given ends the head):
 * h->end that character, or '\0'. False when there is no head there. */
static bool head_at(const char *const *p, const size_t *len, size_t n, const char *fn, size_t k,
		    size_t at, struct head *h)
{
	size_t i = skip_blanks(p[k], len[k], at + strlen(fn)), m = k;

	if (i == len[k] || p[k][i] != '(')
		return false;
	i++;
	h->line = k;
	h->name = at;
	if (!parameters(p, len, n, &m, &i, h))
		return false;
	/* between the head and its body: directives, and other heads of fn
	 * (one per kernel version under #if, their body shared) */
	for (i = skip_blanks(p[m], len[m], i); i == len[m] && m + 1 < n;) {
		size_t name, j, o;
		struct head other;

		m++;
		name = ks_find_name(p[m], len[m], fn, 0);
		i = skip_blanks(p[m], len[m], 0);
		j = name < len[m] ? skip_blanks(p[m], len[m], name + strlen(fn)) : len[m];
		if (i < len[m] && p[m][i] == '#') {
			i = len[m];
		} else if (j < len[m] && p[m][j] == '(') {
			o = m;
			j++;
			if (parameters(p, len, n, &o, &j, &other)) {
				m = o;
				i = skip_blanks(p[m], len[m], j);
			}
		}
	}
	h->end = i == len[m] ? '\0' : p[m][i];
	h->bl = m;
	h->bi = i;
	return !h->end || h->end == '{' || h->end == ';';
}

/* Every head of fn among the lines (head_at()), h->fit how well it fits
 * type (fits()); how many, into *v (to free). */
static size_t all_heads(const char *const *p, const size_t *len, size_t n, const char *fn,
			const char *type, struct head **v)
{
	struct head got;
	size_t count = 0;

	*v = NULL;
	for (size_t k = 0; k < n; k++) {
		for (size_t at = ks_find_name(p[k], len[k], fn, 0); at < len[k];
		     at = ks_find_name(p[k], len[k], fn, at + 1)) {
			if (!head_at(p, len, n, fn, k, at, &got))
				continue;
			got.fit = fits(p, &got, type);
			ks_array_grow((void **)v, count, 1, sizeof(**v));
			(*v)[count++] = got;
		}
	}
	return count;
}

/* A definition of fn among the heads v[0..n): of several, the one that
 * fits its type best (fits()), the first of those; NULL: none. */
static const struct head *definition(const struct head *v, size_t n)
{
	const struct head *h = NULL;

	for (size_t i = 0; i < n; i++)
		if (v[i].end != ';' && (!h || v[i].fit > h->fit))
			h = &v[i];
	return h;
}

/* Whether head h is a declaration of the function: a ';' after it, a type
 * before its name on its line (words and '*', the first no keyword of a
 * statement: not "return f(x);"), and each parameter spelling every word
 * of the type's. */
static bool declaration(const char *const *p, const size_t *len, const struct head *h)
{
	static const char *const statements[] = { "return", "else", "do", "case", "goto",
						   "sizeof" };
	const char *s = p[h->line];
	size_t a = skip_blanks(s, len[h->line], 0), w;

	if (h->end != ';' || h->fit != 2 || a == h->name)
		return false;
	for (size_t i = a; i < h->name; i++)
		if (!ks_ident_char(s[i]) && !strchr(" \t*", s[i]))
			return false;
	for (w = a; w < h->name && ks_ident_char(s[w]); w++)
		;
	for (size_t i = 0; i < KS_ARRAY_SIZE(statements); i++)
		if (w - a == strlen(statements[i]) && !strncmp(s + a, statements[i], w - a))
			return false;
	return true;
}

/* Whether the definition h is static (the word before its name, on its
 * line or the one before). */
static bool is_static(const char *const *p, const size_t *len, const struct head *h)
{
	if (ks_find_name(p[h->line], h->name, "static", 0) < h->name)
		return true;
	return h->line && skip_blanks(p[h->line], len[h->line], 0) == h->name &&
	       ks_find_name(p[h->line - 1], len[h->line - 1], "static", 0) < len[h->line - 1];
}

/* Whether the use of a parameter at s[u] (nlen bytes) is a whole
 * argument of a call whose Call: entry of ms drops it there: "time" of
 * "generic_update_time(inode, time, flags)", the second dropped. */
static bool passed_to_drop(const char *s, size_t len, size_t u, size_t nlen,
			   const struct ks_migrations *ms)
{
	const struct ks_migration *e;
	const struct ks_rewrite *rw;
	struct ks_call c;
	unsigned depth = 0;
	size_t o = u, b;
	char *callee;
	bool ok = false;

	while (o && (depth || s[o - 1] != '(')) {
		o--;
		if (s[o] == ')' || s[o] == ']')
			depth++;
		else if ((s[o] == '(' || s[o] == '[') && depth)
			depth--;
		else if (strchr(";{}", s[o]))
			return false;
	}
	if (!o)
		return false;
	for (b = o - 1; b && (s[b - 1] == ' ' || s[b - 1] == '\t'); b--)
		;
	for (o = b; o && ks_ident_char(s[o - 1]); o--)
		;
	if (o == b)
		return false;
	callee = ks_xstrndup(s + o, b - o);
	if (ks_find_call(s, len, callee, &c) && c.name == o && (e = ks_migrations_find(ms, callee, true)) &&
	    (rw = ks_migration_rewrite(e)) && rw->op == KS_RW_DROP && rw->arg && rw->arg <= c.n)
		ok = c.a[rw->arg - 1] == u && c.b[rw->arg - 1] == u + nlen;
	free(callee);
	return ok;
}

/* Whether the body of the definition h among lines p[0..n) names its
 * parameter k only where ms's Call: entries drop it (passed_to_drop()),
 * members of the same name aside; a declaration's head has none. */
static bool unused_after_drop(const char *const *p, const size_t *len, size_t n,
			      const struct head *h, unsigned k, const struct ks_migrations *ms)
{
	const char *s = p[h->pl[k]];
	size_t b = h->pb[k], a = b, nlen;
	unsigned depth = 0;
	char *name;
	bool ok = true;

	if (h->end == ';')
		return true;
	if (h->end != '{')
		return false;
	while (a > h->pa[k] && ks_ident_char(s[a - 1]))
		a--;
	if (a == b)
		return false;
	name = ks_xstrndup(s + a, b - a);
	nlen = b - a;
	for (size_t l = h->bl, i = h->bi; ok && l < n; l++, i = 0) {
		size_t end = len[l];

		/* up to the body's '}' */
		for (size_t j = i; j < len[l]; j++) {
			size_t x = ks_skip_literal(p[l], len[l], j);

			if (x != j) {
				j = x - 1;
				continue;
			}
			if (p[l][j] == '{')
				depth++;
			else if (p[l][j] == '}' && !--depth) {
				end = j;
				break;
			}
		}
		for (size_t u = ks_find_name(p[l], end, name, i); ok && u < end;
		     u = ks_find_name(p[l], end, name, u + nlen))
			ok = ks_member_at(p[l], u) || (ms && passed_to_drop(p[l], len[l], u, nlen, ms));
		if (end < len[l])
			break;
	}
	free(name);
	return ok;
}

/* The declaration of the parameter k of the definition h among lines
 * p[0..n) as a local set by fn->local's function called with its
 * parameter (after the drop): "\tconst struct i2c_device_id *id =
 * i2c_client_get_device_id(client);", indented as the body's first line;
 * NULL: no local known, or the body's '{' ends no line of its own. */
static char *local_decl(const char *const *p, const size_t *len, size_t n, const struct head *h,
			unsigned k, const struct ks_callee *fn)
{
	const struct ks_rewrite *l = fn ? fn->local : NULL;
	unsigned q = l && l->param ? l->param - 1 : 0;
	size_t a, b, c, d;

	q += q >= k;	/* the parameter's place before the drop */
	if (!l || !l->param || q >= h->n || h->end != '{' ||
	    skip_blanks(p[h->bl], len[h->bl], h->bi + 1) != len[h->bl])
		return NULL;
	/* the parameter's name: the last word of its declaration */
	for (b = h->pb[q], a = b; a > h->pa[q] && ks_ident_char(p[h->pl[q]][a - 1]); a--)
		;
	if (a == b || !ks_ident_char(p[h->pl[k]][h->pb[k] - 1]))
		return NULL;
	/* the indentation of the body's first line with code */
	for (c = h->bl + 1; c < n && skip_blanks(p[c], len[c], 0) == len[c]; c++)
		;
	d = c < n ? skip_blanks(p[c], len[c], 0) : 0;
	return ks_strdupf("%.*s%.*s = %s(%.*s);", (int)(d ? d : 1), d ? p[c] : "\t",
			  (int)(h->pb[k] - h->pa[k]), p[h->pl[k]] + h->pa[k], l->text, (int)(b - a),
			  p[h->pl[q]] + a);
}

/* What rw (CONST, RETYPE, DROP) changes of the head h among lines
 * p[0..n): "const " before the parameter's type (or the return type's,
 * on the name's line or the one before it), the old struct's name in the
 * parameter's type replaced by the new one's, or the parameter taken out
 * with the ", " between it and one beside it on its line (a definition
 * whose body passes it on only where ms's Call: entries drop it, ms of
 * fn, or uses it otherwise with fn's local; "void" for the only one);
 * *line: the line it is on; *local (local not NULL): that local's
 * declaration (local_decl()), NULL where the body needs none. */
static bool head_edit(const char *const *p, const size_t *len, size_t nl, const struct head *h,
		      const struct ks_rewrite *rw, const struct ks_callee *fn, size_t *line,
		      size_t at[2], char **with, char **local)
{
	size_t k = rw->arg - 1, i, n, b;
	const char *s;

	if (rw->op == KS_RW_DROP) {
		char *decl = NULL;

		if (!rw->arg || k >= h->n)
			return false;
		/* a body that uses it otherwise: with its local */
		if (!unused_after_drop(p, len, nl, h, (unsigned)k, fn ? fn->ms : NULL) &&
		    !(decl = local_decl(p, len, nl, h, (unsigned)k, fn)))
			return false;
		*line = h->pl[k];
		if (h->n == 1) {
			at[0] = h->pa[k], at[1] = h->pb[k];
			*with = ks_xstrdup("void");
		} else if (k + 1 < h->n && h->pl[k + 1] == h->pl[k]) {
			at[0] = h->pa[k], at[1] = h->pa[k + 1];
			*with = ks_xstrdup("");
		} else if (k && h->pl[k - 1] == h->pl[k]) {
			at[0] = h->pb[k - 1], at[1] = h->pb[k];
			*with = ks_xstrdup("");
		} else {
			free(decl);
			return false;
		}
		if (local)
			*local = decl;
		else
			free(decl);
		return true;
	}

	if (rw->op == KS_RW_CONST && !rw->arg) {
		*line = h->line;
		i = past_storage(p[h->line], len[h->line], 0);
		if (i == h->name && h->line) {	/* "static char *\nname(": the line before */
			*line = h->line - 1;
			i = past_storage(p[*line], len[*line], 0);
			if (i == len[*line])
				return false;
		} else if (i >= h->name) {
			return false;
		}
	} else if (k < h->n) {
		*line = h->pl[k];
		i = h->pa[k];
	} else {
		return false;
	}
	s = p[*line];
	n = len[*line];
	if (rw->op == KS_RW_CONST) {
		if (n - i > 6 && !memcmp(s + i, "const", 5) && !ks_ident_char(s[i + 5]))
			return false;
		at[0] = at[1] = i;
		*with = ks_xstrdup("const ");
		return true;
	}
	/* "struct OLD": the keyword, then the name it replaces */
	b = h->pb[k];
	n = strcspn(rw->from, " ");
	for (; i < b; i++) {
		char *kw = ks_xstrndup(rw->from, n);

		i = ks_find_name(s, b, kw, i);
		free(kw);
		if (i == b)
			return false;
		at[0] = skip_blanks(s, b, i + n);
		for (at[1] = at[0]; at[1] < b && ks_ident_char(s[at[1]]); at[1]++)
			;
		if (at[1] - at[0] != strlen(rw->from + n + 1) ||
		    memcmp(s + at[0], rw->from + n + 1, at[1] - at[0]))
			continue;
		*with = ks_xstrdup(rw->text + strcspn(rw->text, " ") + 1);
		return true;
	}
	return false;
}

/* ks_edit_callback(); at: the head edited is the one (fn's definition,
 * or a declaration of it) whose edit is on line at (1-based), else the
 * definition. */
static int edit_callback(const struct ks_rewrite *rw, const char *const *p, const size_t *len,
			 size_t n, const struct ks_callee *fn, unsigned at, struct ks_edit *ed)
{
	struct ks_buf after = KS_BUF_INIT;
	const struct head *h = NULL;
	struct head *v;
	size_t nv, line, from, to;

	memset(ed, 0, sizeof(*ed));
	if (!fn || !fn->name)
		return -ERANGE;
	nv = all_heads(p, len, n, fn->name, fn->type, &v);
	for (size_t i = 0; at && i < nv && !h; i++) {
		if ((v[i].end == ';' && !declaration(p, len, &v[i])) ||
		    !head_edit(p, len, n, &v[i], rw, fn, &line, ed->at, &ed->with, &ed->local))
			continue;
		if (line + 1 == at) {
			h = &v[i];
		} else {
			free(ed->with);
			free(ed->local);
			ed->with = ed->local = NULL;
		}
	}
	if (!h && (!(h = definition(v, nv)) ||
		   !head_edit(p, len, n, h, rw, fn, &line, ed->at, &ed->with, &ed->local))) {
		free(v);
		return -ERANGE;
	}
	/* a parameter dropped that the body uses: its local, after the '{' */
	if (ed->local) {
		ed->local_line = (unsigned)h->bl + 1;
		ed->local_at = h->bi + 1;
		ks_columns_at(p[h->bl], ed->local_at, &ed->local_col[0], &ed->local_col[1]);
	}
	free(v);
	/* before and after: the line, its blanks around left out */
	from = skip_blanks(p[line], len[line], 0);
	for (to = len[line]; to > from && (p[line][to - 1] == ' ' || p[line][to - 1] == '\t'); to--)
		;
	ed->line = (unsigned)line + 1;
	ed->before = ks_xstrndup(p[line] + from, to - from);
	ks_buf_add(&after, p[line] + from, ed->at[0] - from);
	ks_buf_adds(&after, ed->with);
	ks_buf_add(&after, p[line] + ed->at[1], to - ed->at[1]);
	ed->after = ks_buf_steal(&after);
	for (int i = 0; i < 2; i++)
		ks_columns_at(p[line], ed->at[i], &ed->dcol[i], &ed->ucol[i]);
	return 0;
}

int ks_edit_callback(const struct ks_rewrite *rw, const char *const *p, const size_t *len,
		     size_t n, const struct ks_callee *fn, struct ks_edit *ed)
{
	return edit_callback(rw, p, len, n, fn, 0, ed);
}

void ks_callback_heads(const struct ks_rewrite *rw, const struct ks_lines *ls,
		       const struct ks_callee *fn, struct ks_heads *out)
{
	struct head *v = NULL;
	const struct head *def;
	size_t nv = fn && fn->name ? all_heads(ls->p, ls->len, ls->n, fn->name, fn->type, &v) : 0;
	size_t at[2], line;
	char *with;

	memset(out, 0, sizeof(*out));
	if ((def = definition(v, nv)) &&
	    head_edit(ls->p, ls->len, ls->n, def, rw, fn, &line, at, &with, NULL)) {
		out->def = (unsigned)line + 1;
		out->local = is_static(ls->p, ls->len, def);
		free(with);
	}
	for (size_t i = 0; i < nv; i++) {
		if (!declaration(ls->p, ls->len, &v[i]) ||
		    !head_edit(ls->p, ls->len, ls->n, &v[i], rw, fn, &line, at, &with, NULL))
			continue;
		free(with);
		ks_array_grow((void **)&out->decl, out->ndecl, 1, sizeof(*out->decl));
		out->decl[out->ndecl++] = (unsigned)line + 1;
	}
	free(v);
}

void ks_heads_free(struct ks_heads *h)
{
	free(h->decl);
	memset(h, 0, sizeof(*h));
}

void ks_sources_init(struct ks_sources *s, const struct ks_module *m, const char *below)
{
	memset(s, 0, sizeof(*s));
	s->m = m;
	s->below = below ? ks_xstrdup(below) : NULL;
}

/* Adds the file at path to s, once, when it is below (NULL: anywhere):
 * its index in s; -1: unreadable, or not below. */
static long sources_add(struct ks_sources *s, const char *path, const char *below)
{
	char *real = realpath(path, NULL);
	size_t n = below ? strlen(below) : 0;
	long i = -1;

	if (real && (!below || (!strncmp(real, below, n) && real[n] == '/')) &&
	    (i = ks_strv_find(s->path, s->n, real)) < 0) {
		ks_array_grow((void **)&s->path, s->n, 1, sizeof(*s->path));
		ks_array_grow((void **)&s->ls, s->n, 1, sizeof(*s->ls));
		if (ks_lines_read(&s->ls[s->n], real) < 0) {
			ks_lines_free(&s->ls[s->n]);
		} else {
			i = (long)s->n;
			s->path[s->n++] = real;
			real = NULL;
		}
	}
	free(real);
	return i;
}

void ks_sources_load(struct ks_sources *s)
{
	char **held = NULL;
	size_t nheld = 0;

	if (s->read || !s->m)
		return;
	s->read = true;
	for (size_t i = 0; i < s->m->units.n; i++) {
		const struct ks_unit *u = &s->m->units.v[i];

		if (u->source)
			sources_add(s, u->source, NULL);
		for (size_t k = 0; s->below && k < u->nincludes; k++)
			if (u->includes[k].file)
				ks_strv_add_unique(&held, &nheld, u->includes[k].file);
	}
	for (size_t i = 0; i < nheld; i++)
		sources_add(s, held[i], s->below);
	ks_strv_free(held, nheld);
}

void ks_sources_free(struct ks_sources *s)
{
	for (size_t i = 0; i < s->n; i++)
		ks_lines_free(&s->ls[i]);
	free(s->ls);
	ks_strv_free(s->path, s->n);
	free(s->below);
	memset(s, 0, sizeof(*s));
}

long ks_sources_definition(struct ks_sources *s, const char *skip, const struct ks_rewrite *rw,
			   const struct ks_callee *fn, unsigned *line)
{
	ks_sources_load(s);
	for (size_t i = 0; fn && fn->name && i < s->n; i++) {
		struct ks_heads h;
		bool found;

		if (skip && !strcmp(s->path[i], skip))
			continue;
		ks_callback_heads(rw, &s->ls[i], fn, &h);
		found = h.def && !h.local;
		*line = h.def;
		ks_heads_free(&h);
		if (found)
			return (long)i;
	}
	return -1;
}

/* The line (1-based) of ls that first names name: "struct i2c_msg",
 * the keyword before the tag; "vmap", a call of it (no member's); 0:
 * none. */
static unsigned names_at(const struct ks_lines *ls, const char *name)
{
	const char *word = strrchr(name, ' ') ? strrchr(name, ' ') + 1 : name;
	size_t kw = (size_t)(word - name), n = strlen(word);

	for (size_t k = 0; k < ls->n; k++) {
		const char *p = ls->p[k];

		for (size_t i = ks_find_name(p, ls->len[k], word, 0); i < ls->len[k];
		     i = ks_find_name(p, ls->len[k], word, i + n)) {
			size_t a = i, b = skip_blanks(p, ls->len[k], i + n);

			while (a && (p[a - 1] == ' ' || p[a - 1] == '\t'))
				a--;
			if (kw ? a >= kw - 1 && !memcmp(p + a - (kw - 1), name, kw - 1) &&
					 (a == kw - 1 || !ks_ident_char(p[a - kw]))
			       : b < ls->len[k] && p[b] == '(' && !(a && (p[a - 1] == '.' || p[a - 1] == '>')))
				return (unsigned)k + 1;
		}
	}
	return 0;
}

struct ks_strv {
	char **v;
	size_t n;
};

static bool directive(const char *s, size_t len, char word[8], size_t *rest);

/* The first header that file ls (at path) reads with #include "x.h"
 * before line lineno (0: all of it), x.h beside it, or one of those
 * headers reads so in turn, that names name: its index in src, *line the
 * line that names it; -1: none. seen: the headers read so far, each read
 * once. */
static long header_naming(struct ks_sources *src, const char *path, const struct ks_lines *file,
			  unsigned lineno, const char *name, struct ks_strv *seen, unsigned *line)
{
	/* a copy: src's arrays move as it grows, not the lines they hold */
	const struct ks_lines ls = *file;
	const char *slash = strrchr(path, '/');
	size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
	char word[8];
	size_t rest;

	for (size_t k = 0; k < ls.n && (!lineno || k + 1 < lineno); k++) {
		const char *p = ls.p[k];
		size_t len = ls.len[k], end;
		char *header;
		long i, h;

		if (!directive(p, len, word, &rest) || strcmp(word, "include") || rest == len ||
		    p[rest] != '"' || (end = rest + 1 + strcspn(p + rest + 1, "\"")) >= len)
			continue;
		header = ks_strdupf("%.*s%.*s", (int)dir, path, (int)(end - rest - 1), p + rest + 1);
		i = sources_add(src, header, NULL);
		free(header);
		/* each header once */
		if (i < 0 || ks_strv_find(seen->v, seen->n, src->path[i]) >= 0)
			continue;
		ks_strv_add(&seen->v, &seen->n, src->path[i]);
		if ((*line = names_at(&src->ls[i], name)))
			return i;
		/* src's paths stay where they are as it grows */
		if ((h = header_naming(src, src->path[i], &src->ls[i], 0, name, seen, line)) >= 0)
			return h;
	}
	return -1;
}

int ks_edit_use(const struct ks_migration *e, const struct ks_rewrite *rw,
		const struct ks_finding *f, const char *path, unsigned lineno,
		struct ks_sources *src, const char **at, struct ks_edit *ed)
{
	struct ks_callee fn = { f->diff ? f->diff->callback : NULL, f->diff ? f->diff->old : NULL,
				f->fixes, ks_migration_local(e, rw) };
	char *name, *real;
	unsigned line;
	long i;
	int r;

	*at = path;
	/* an #include: in the first of the module's headers that names it
	 * before the use, where it is first named ("struct i2c_msg" in a
	 * prototype) */
	if (e->include && src && (i = sources_add(src, path, NULL)) >= 0) {
		struct ks_strv seen = { NULL, 0 };

		i = header_naming(src, src->path[i], &src->ls[i], lineno, e->name, &seen, &line);
		ks_strv_free(seen.v, seen.n);
		if (i >= 0) {
			if (!(r = ks_edit_at(e, rw, &src->ls[i], line, NULL, ed)))
				*at = src->path[i];
			return r;
		}
	}
	r = ks_edit_file(e, rw, path, lineno, &fn, ed);
	if (r != -ERANGE || !ks_migration_head(e) || !src)
		return r;
	fn.name = name = ks_callback_at(e, path, lineno, fn.name);
	real = realpath(path, NULL);
	if ((i = ks_sources_definition(src, real ? real : path, rw, &fn, &line)) >= 0) {
		ks_edit_free(ed);
		if (!(r = ks_edit_at(e, rw, &src->ls[i], line, &fn, ed)))
			*at = src->path[i];
	}
	free(real);
	free(name);
	return r;
}

/* Where the line's code ends: past its last byte that is neither blank
 * nor in a comment (0: none). */
static size_t code_end(const char *s, size_t len)
{
	size_t end = 0;

	for (size_t i = 0; i < len;) {
		size_t j = ks_skip_literal(s, len, i);

		if (j != i && s[i] == '/') {	/* a comment */
			i = j;
		} else if (j != i) {		/* a literal */
			end = i = j;
		} else {
			if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
				end = i + 1;
			i++;
		}
	}
	return end;
}

/* Whether s[from..end) holds no block and its brackets close there
 * (literals skipped); *eq: past the first '=' of an assignment outside
 * brackets (not "==", "<=", ">=", "!="), 0 when none. */
static bool closes_in(const char *s, size_t len, size_t from, size_t end, size_t *eq)
{
	int depth = 0;

	*eq = 0;
	for (size_t i = from; i < end;) {
		size_t j = ks_skip_literal(s, len, i);

		if (j != i) {
			i = j;
			continue;
		}
		if (s[i] == '{' || s[i] == '}')
			return false;
		if (!depth && !*eq && s[i] == '=' && (i + 1 == end || s[i + 1] != '=') && i > from &&
		    !strchr("=<>!", s[i - 1]))
			*eq = i + 1;
		depth += (s[i] == '(' || s[i] == '[') - (s[i] == ')' || s[i] == ']');
		if (depth < 0)
			return false;
		i++;
	}
	return !depth;
}

/* Whether the line is a statement or a designated initializer of its own
 * whose whole work is name, to delete: "NAME(...);", "LHS = NAME;" or
 * ".MEMBER = NAME," (&NAME too; without its ',' when it is the
 * initializer's last, closes). Its brackets close on it, it holds no
 * block, and it starts with no keyword of a statement that governs
 * another. */
static bool own_statement(const char *s, size_t len, const char *name, bool closes)
{
	static const char *const governs[] = { "if",	 "else", "while", "for",     "do",
					       "switch", "case", "return", "default", "goto" };
	size_t a = skip_blanks(s, len, 0), end = code_end(s, len), n = strlen(name), w, eq;

	if (end <= a || (s[end - 1] != ';' && (s[end - 1] != ',' || s[a] != '.') &&
			 (!closes || s[a] != '.')))
		return false;
	/* the statement without its ';' or ',' */
	end -= s[end - 1] == ';' || s[end - 1] == ',';
	for (w = a; w < end && ks_ident_char(s[w]); w++)
		;
	for (size_t i = 0; i < KS_ARRAY_SIZE(governs); i++)
		if (w - a == strlen(governs[i]) && !strncmp(s + a, governs[i], w - a))
			return false;
	if (!closes_in(s, len, a, end, &eq))
		return false;
	if (w - a == n && !strncmp(s + a, name, n))	/* NAME(...); */
		return skip_blanks(s, len, w) < end && s[skip_blanks(s, len, w)] == '(' &&
		       s[end - 1] == ')';
	if (!eq)
		return false;
	eq = skip_blanks(s, len, eq);
	if (eq < end && s[eq] == '&')
		eq = skip_blanks(s, len, eq + 1);
	return eq + n <= end && !strncmp(s + eq, name, n) && skip_blanks(s, len, eq + n) >= end;
}

/* "NAME |" or "| NAME" on the line, blanks beside the '|' with it (not
 * "||", nor "|="): its bytes in at[], *zero false; else NAME standing
 * alone, an argument or a value ('(', ',', an assignment's '=' or the
 * line's start before it, ',', ')' or ';' or its end after it): *zero,
 * it becomes 0. */
static bool omit_span(const char *s, size_t len, const char *name, size_t at[2], bool *zero)
{
	size_t n = strlen(name);

	*zero = false;
	for (size_t i = ks_find_name(s, len, name, 0); i < len; i = ks_find_name(s, len, name, i + n)) {
		size_t b = skip_blanks(s, len, i + n), a = i;

		if (b < len && s[b] == '|' && (b + 1 == len || (s[b + 1] != '|' && s[b + 1] != '='))) {
			at[0] = i;
			at[1] = skip_blanks(s, len, b + 1);
			return true;
		}
		while (a && (s[a - 1] == ' ' || s[a - 1] == '\t'))
			a--;
		if (a && s[a - 1] == '|' && (a < 2 || s[a - 2] != '|')) {
			for (a--; a && (s[a - 1] == ' ' || s[a - 1] == '\t'); a--)
				;
			at[0] = a;
			at[1] = i + n;
			return true;
		}
		/* '=' of an assignment, not "==" nor "&=" */
		if ((!a || strchr("(,=", s[a - 1])) && (b == len || strchr(",);", s[b])) &&
		    !(a >= 2 && s[a - 1] == '=' && strchr("=!<>|&^+-*/%", s[a - 2]))) {
			at[0] = i;
			at[1] = i + n;
			*zero = true;
			return true;
		}
	}
	return false;
}

/* Whether the line is a designated initializer of member of its own:
 * ".MEMBER = VALUE," (without its ',' when it is the initializer's last,
 * closes), its brackets closing on it. */
static bool own_initializer(const char *s, size_t len, const char *member, bool closes)
{
	size_t a = skip_blanks(s, len, 0), n = strlen(member), end = code_end(s, len), eq;

	if (a >= end || s[a] != '.' || (s[end - 1] != ',' && !closes))
		return false;
	a = skip_blanks(s, len, a + 1);
	if (a + n > end || strncmp(s + a, member, n) || ks_ident_char(s[a + n]))
		return false;
	a = skip_blanks(s, len, a + n);
	if (a + 1 >= end || s[a] != '=' || s[a + 1] == '=')
		return false;
	return closes_in(s, len, a + 1, end, &eq);
}

/* ks_edit_line(); closes: the line is followed by a '}' (of an
 * initializer whose last member it may set without a ','). */
static int edit_line(const struct ks_migration *e, const struct ks_rewrite *rw, const char *s,
		     size_t len, const struct ks_callee *fn, bool closes, struct ks_edit *ed)
{
	size_t from, to;
	struct ks_buf after = KS_BUF_INIT;

	memset(ed, 0, sizeof(*ed));
	if (ks_migration_head(e))
		return ks_edit_callback(rw, &s, &len, 1, fn, ed);
	if (e->include)		/* an insertion: ks_edit_at() */
		return -ERANGE;
	if (rw->op == KS_RW_HEADER) {
		long at = ks_include_name_at(s, len, e->name);

		if (at < 0)
			return -ERANGE;
		from = ed->at[0] = (size_t)at;
		to = ed->at[1] = (size_t)at + strlen(e->name);
		ed->with = ks_xstrdup(rw->text);
	} else if (rw->op == KS_RW_CALL && e->read) {
		if (!read_span(s, len, e->member, e->field, rw->text, ed->at, &ed->with))
			return -ERANGE;
		from = ed->at[0];
		to = ed->at[1];
	} else if (rw->op == KS_RW_CALL) {
		if (!assign_span(s, len, e->name, rw->text, ed->at, &ed->with))
			return -ERANGE;
		from = ed->at[0];
		to = ed->at[1];
	} else if (rw->op == KS_RW_OMIT || rw->op == KS_RW_DELETE) {
		/* the whole line before and after */
		bool zero = false;

		from = skip_blanks(s, len, 0);
		to = code_end(s, len);
		if (rw->op == KS_RW_OMIT    ? !omit_span(s, len, e->name, ed->at, &zero)
		    : e->callback	    ? !own_initializer(s, len, strrchr(e->name, '.') + 1, closes)
					    : !own_statement(s, len, e->name, closes))
			return -ERANGE;
		if (rw->op == KS_RW_DELETE) {
			ed->at[0] = from;
			ed->at[1] = to;
		}
		ed->with = ks_xstrdup(zero ? "0" : "");
	} else if (rw->op == KS_RW_RENAME) {
		/* the name alone: the arguments may run on */
		from = ed->at[0] = ks_find_name(s, len, e->name, 0);
		if (from == len)
			return -ERANGE;
		to = ed->at[1] = from + strlen(e->name);
		ed->with = ks_xstrdup(rw->text);
	} else {
		struct ks_call c;
		char *callee = e->argument ? ks_migration_callee(e) : NULL;
		bool found = ks_find_call(s, len, callee ? callee : e->name, &c);

		free(callee);
		if (!found || !call_span(s, &c, rw, ed->at, &ed->with))
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

int ks_edit_line(const struct ks_migration *e, const struct ks_rewrite *rw, const char *s,
		 size_t len, const struct ks_callee *fn, struct ks_edit *ed)
{
	return edit_line(e, rw, s, len, fn, false, ed);
}

/* The module's function that line s (len bytes) stores in member
 * (".devnode = f", "c->devnode = &f"), to free; NULL: none. */
static char *stored(const char *member, const char *s, size_t len)
{
	size_t n = strlen(member);
	char *r = NULL;

	for (size_t i = ks_find_name(s, len, member, 0); i < len && !r;
	     i = ks_find_name(s, len, member, i + n)) {
		size_t a = skip_blanks(s, len, i + n), b;

		if (a == len || s[a] != '=' || (a + 1 < len && s[a + 1] == '='))
			continue;
		a = skip_blanks(s, len, a + 1);
		if (a < len && s[a] == '&')
			a = skip_blanks(s, len, a + 1);
		for (b = a; b < len && ks_ident_char(s[b]); b++)
			;
		if (b > a && !(s[a] >= '0' && s[a] <= '9'))
			r = ks_xstrndup(s + a, b - a);
	}
	return r;
}

char *ks_callback_at(const struct ks_migration *e, const char *path, unsigned lineno,
		     const char *fallback)
{
	const char *member = strrchr(e->name, '.');
	char *line, *r = NULL;
	size_t len;

	if (member && !ks_file_line(path, lineno, &line, &len)) {
		r = stored(member + 1, line, len);
		free(line);
	}
	return r ? r : fallback ? ks_xstrdup(fallback) : NULL;
}

/* Whether line s (len bytes) is a directive: its word in word ("if",
 * "include"...; "" when longer than word holds), *rest where what follows
 * the word starts. */
static bool directive(const char *s, size_t len, char word[8], size_t *rest)
{
	size_t i = skip_blanks(s, len, 0), a, b, n;

	if (i == len || s[i] != '#')
		return false;
	a = skip_blanks(s, len, i + 1);
	for (b = a; b < len && ks_ident_char(s[b]); b++)
		;
	n = b - a < 8 ? b - a : 0;	/* longer than word holds: "" */
	memcpy(word, s + a, n);
	word[n] = '\0';
	*rest = skip_blanks(s, len, b);
	return true;
}

/* The name at s[*at] (after a directive's word), to free; *at: past it
 * and the blanks after it. */
static char *name_at(const char *s, size_t len, size_t *at)
{
	size_t b;
	char *name;

	for (b = *at; b < len && ks_ident_char(s[b]); b++)
		;
	name = ks_xstrndup(s + *at, b - *at);
	*at = skip_blanks(s, len, b);
	return name;
}

/* An Include: entry's rewrite rw for a use at line use (1-based) among
 * p[0..n): its header's #include goes after the last #include before the
 * use that no conditional holds (a header's include guard aside: its
 * first two directives #ifndef NAME and #define NAME, of no value); in a
 * header that has none there, after its guard's #define. -ERANGE when
 * there is neither, or the file has the #include there already. */
static int edit_include(const struct ks_rewrite *rw, const char *const *p, const size_t *len,
			size_t n, unsigned use, struct ks_edit *ed)
{
	unsigned depth = 0, base = 0, ndir = 0;
	size_t last = n, guarded = n, rest;
	char word[8], *guard = NULL;

	for (size_t k = 0; k < n && k + 1 < use; k++) {
		if (!directive(p[k], len[k], word, &rest))
			continue;
		if (++ndir == 1 && !strcmp(word, "ifndef")) {
			guard = name_at(p[k], len[k], &rest);
		} else if (ndir == 2 && guard && !strcmp(word, "define")) {
			char *name = name_at(p[k], len[k], &rest);

			/* the guard's #define is of its name alone, not of a
			 * value ("#ifndef pr_fmt / #define pr_fmt(fmt) ...") */
			base = *name && !strcmp(name, guard) && !code_end(p[k] + rest, len[k] - rest);
			guarded = base ? k : n;
			free(name);
		}
		if (!strncmp(word, "if", 2)) {
			depth++;
		} else if (!strcmp(word, "endif") && depth) {
			depth--;
		} else if (!strcmp(word, "include") && depth == base) {
			if (ks_include_name_at(p[k], len[k], rw->text) >= 0) {
				free(guard);	/* there already */
				return -ERANGE;
			}
			last = k;
		}
	}
	free(guard);
	/* a header that includes nothing there: after its guard's #define */
	last = last == n ? guarded : last;
	if (last == n)
		return -ERANGE;
	ed->line = (unsigned)last + 2;
	ed->dcol[0] = ed->dcol[1] = ed->ucol[0] = ed->ucol[1] = 1;
	ed->after = ks_strdupf("#include <%s>", rw->text);
	ed->with = ks_strdupf("%s\n", ed->after);
	return 0;
}

/* Whether line lineno of ls comes after a whole statement, a block's
 * edge, an initializer, a directive or nothing of code: a line deleted
 * there governs nothing else ("if (x)" before it would take the next). */
static bool follows_statement(const struct ks_lines *ls, unsigned lineno)
{
	const char *cur = ls->p[lineno - 1];
	size_t c = skip_blanks(cur, ls->len[lineno - 1], 0);
	bool member = c < ls->len[lineno - 1] && cur[c] == '.';

	for (size_t k = lineno - 1; k-- > 0;) {
		const char *p = ls->p[k];
		size_t a = skip_blanks(p, ls->len[k], 0), end = code_end(p, ls->len[k]);

		if (!end)
			continue;	/* blank, or a comment */
		/* an initializer's line ends with ','; the deleted one too */
		return p[a] == '#' || strchr(";{}", p[end - 1]) || (p[end - 1] == ',' && member);
	}
	return true;
}

/* Whether the next line of code after line lineno of ls starts with '}'. */
static bool closes(const struct ks_lines *ls, unsigned lineno)
{
	for (size_t k = lineno; k < ls->n; k++) {
		size_t a = skip_blanks(ls->p[k], ls->len[k], 0);

		if (code_end(ls->p[k], ls->len[k]))
			return ls->p[k][a] == '}';
	}
	return false;
}

int ks_edit_at(const struct ks_migration *e, const struct ks_rewrite *rw,
	       const struct ks_lines *ls, unsigned lineno, const struct ks_callee *fn,
	       struct ks_edit *ed)
{
	const char *member = strrchr(e->name, '.');
	char *cb;
	int r;

	memset(ed, 0, sizeof(*ed));
	if (ks_migration_head(e)) {	/* at the definition of what the use stores */
		struct ks_callee stores = { NULL, fn ? fn->type : NULL, fn ? fn->ms : NULL,
					    fn ? fn->local : NULL };

		stores.name = cb = lineno && lineno <= ls->n && member
					   ? stored(member + 1, ls->p[lineno - 1], ls->len[lineno - 1])
					   : NULL;
		r = edit_callback(rw, ls->p, ls->len, ls->n, cb ? &stores : fn, cb ? 0 : lineno, ed);
		free(cb);
		return r;
	}
	if (!lineno || lineno > ls->n)
		return -ERANGE;
	if (e->include)
		return edit_include(rw, ls->p, ls->len, ls->n, lineno, ed);
	if (rw->op == KS_RW_DELETE && !follows_statement(ls, lineno))
		return -ERANGE;
	r = edit_line(e, rw, ls->p[lineno - 1], ls->len[lineno - 1], fn, closes(ls, lineno), ed);
	ed->line = lineno;
	return r;
}

int ks_edit_file(const struct ks_migration *e, const struct ks_rewrite *rw, const char *path,
		 unsigned lineno, const struct ks_callee *fn, struct ks_edit *ed)
{
	struct ks_lines ls;
	int r = ks_lines_read(&ls, path);

	memset(ed, 0, sizeof(*ed));
	if (!r)
		r = ks_edit_at(e, rw, &ls, lineno, fn, ed);
	ks_lines_free(&ls);
	return r;
}

void ks_edit_free(struct ks_edit *ed)
{
	free(ed->local);
	free(ed->with);
	free(ed->before);
	free(ed->after);
	memset(ed, 0, sizeof(*ed));
}

size_t ks_edit_compose(const struct ks_migration *const *e, const struct ks_rewrite *const *rw,
		       size_t n, const char *s, size_t len, char **out, bool *done)
{
	char *text = ks_xstrndup(s, len);
	size_t made = 0;

	for (size_t i = 0; i < n; i++)
		done[i] = false;
	for (bool progress = true; progress;) {
		progress = false;
		for (size_t i = 0; i < n; i++) {
			struct ks_edit ed;
			char *next;

			if (done[i] || e[i]->callback || e[i]->include ||
			    edit_line(e[i], rw[i], text, strlen(text), NULL, false, &ed) < 0)
				continue;
			next = ks_strdupf("%.*s%s%s", (int)ed.at[0], text, ed.with, text + ed.at[1]);
			free(text);
			text = next;
			ks_edit_free(&ed);
			done[i] = progress = true;
			made++;
		}
	}
	*out = text;
	return made;
}

char *ks_line_code(const char *s, size_t len)
{
	size_t a = skip_blanks(s, len, 0), b = code_end(s, len);

	return ks_xstrndup(s + a, b > a ? b - a : 0);
}

size_t ks_fix_entries(const struct ks_finding *f, const struct ks_loc *l,
		      const struct ks_migration *e[2], const struct ks_rewrite *rw[2])
{
	const struct ks_migration *rd;
	const struct ks_rewrite *read;
	struct ks_edit ed;
	size_t n = 0;

	e[0] = ks_migration_at(f->fixes, f->fix, l->file, l->line);
	if (!e[0] || !(rw[0] = ks_migration_rewrite(e[0])))
		return 0;
	n = 1;
	/* a line that assigns a member gone and reads it too
	 * ("inode->i_ctime = dir->i_ctime;"): the reads' rewrite as well */
	rd = f->fix->read && e[0]->assign && f->diff
		     ? ks_migrations_read(f->fixes, f->diff->name, l->file, l->line)
		     : NULL;
	read = rd ? ks_migration_rewrite(rd) : NULL;
	if (read && !ks_edit_file(rd, read, l->file, l->line, NULL, &ed)) {
		e[n] = rd;
		rw[n++] = read;
	}
	if (read)
		ks_edit_free(&ed);
	return n;
}

/* Whether line s (len bytes) still names a member that a break of all
 * on line l of f's module says is gone. */
static bool names_gone(const struct ks_findings *all, const struct ks_finding *f,
		       const struct ks_loc *l, const char *s, size_t len)
{
	for (size_t i = 0; i < all->n; i++) {
		const struct ks_finding *g = &all->v[i];

		if (!g->diff || g->diff->kind != KS_BREAK_MEMBER_GONE || !strrchr(g->diff->name, '.') ||
		    strcmp(g->module, f->module))
			continue;
		for (size_t k = 0; k < g->nlocs; k++)
			if (g->locs[k].line == l->line && !strcmp(g->locs[k].file, l->file) &&
			    ks_line_accesses(s, len, strrchr(g->diff->name, '.') + 1))
				return true;
	}
	return false;
}

int ks_fix_line(const struct ks_findings *all, const struct ks_finding *f, const struct ks_loc *l,
		char **before, char **after)
{
	const struct ks_migration **e = NULL;
	const struct ks_rewrite **rw = NULL;
	size_t n = 0, own = 0, len;
	char *line = NULL, *text = NULL;
	bool *done;
	int r = -ERANGE;

	*before = *after = NULL;
	/* f's rewrites first, then those of the module's other breaks at l */
	for (size_t i = 0; i <= all->n; i++) {
		const struct ks_finding *g = i ? &all->v[i - 1] : f;

		if ((i && g == f) || !g->fix || strcmp(g->module, f->module))
			continue;
		for (size_t k = 0; k < g->nlocs; k++) {
			const struct ks_migration *ge[2];
			const struct ks_rewrite *grw[2];
			size_t gn;

			if (g->locs[k].line != l->line || strcmp(g->locs[k].file, l->file))
				continue;
			gn = ks_fix_entries(g, &g->locs[k], ge, grw);
			for (size_t j = 0; j < gn; j++) {
				size_t m = 0;

				while (m < n && e[m] != ge[j])
					m++;
				if (m < n)
					continue;
				e = ks_xrealloc(e, (n + 1) * sizeof(*e));
				rw = ks_xrealloc(rw, (n + 1) * sizeof(*rw));
				e[n] = ge[j];
				rw[n++] = grw[j];
			}
			break;
		}
		if (!i)
			own = n;
	}
	done = ks_xcalloc(n + 1, sizeof(*done));
	if (own && !e[0]->callback && !e[0]->include &&
	    (r = ks_file_line(l->file, l->line, &line, &len)) >= 0) {
		r = -ERANGE;
		if (ks_edit_compose(e, rw, n, line, len, &text, done) && done[0] &&
		    !names_gone(all, f, l, text, strlen(text))) {
			*before = ks_line_code(line, len);
			*after = ks_line_code(text, strlen(text));
			r = 0;
		}
	}
	free(text);
	free(line);
	free(done);
	free(e);
	free(rw);
	return r;
}

bool ks_line_accesses(const char *s, size_t len, const char *member)
{
	return ks_find_member(s, len, member, 0) < len;
}

void ks_edit_missing(struct ks_buf *b, const struct ks_migration *e, const struct ks_rewrite *rw)
{
	if (rw->op == KS_RW_HEADER)
		ks_buf_addf(b, "no longer includes <%s> (changed since the build)", e->name);
	else if (e->include)
		ks_buf_addf(b, "has no #include outside a conditional before it for <%s> to follow, "
			       "or includes it there already",
			    rw->text);
	else if (rw->op == KS_RW_RENAME)
		ks_buf_addf(b, "no longer names %s (changed since the build)", e->name);
	else if (rw->op == KS_RW_DELETE)
		ks_buf_addf(b, "is no statement or initializer of its own that names %s, after "
			       "one (or changed since the build)",
			    e->name);
	else if (rw->op == KS_RW_OMIT)
		ks_buf_addf(b, "ORs nothing with %s (or changed since the build)", e->name);
	else if (e->read)
		ks_buf_addf(b, "reads no %s (it writes it or takes its address, or changed since "
			       "the build)",
			    e->name);
	else if (rw->op == KS_RW_CALL)
		ks_buf_addf(b, "is no statement of its own that assigns with '%s' (another "
			       "operator, or changed since the build)",
			    e->name);
	else if (e->callback && rw->op == KS_RW_DROP)
		ks_buf_addf(b, "has no definition of the callback whose head drop rewrites that "
			       "hands its parameter %u on only where calls drop it too%s (its body "
			       "uses it, or it is defined in another file, or changed since the "
			       "build)",
			    rw->arg,
			    ks_migration_local(e, rw) ? ", or with its body's '{' ending a line for "
							"the local in-tree bodies declared"
						      : "");
	else if (e->callback)
		ks_buf_addf(b, "has no definition of the callback whose head %s rewrites (defined "
			       "in another file, or changed since the build)",
			    ks_rewrite_op_name(rw->op));
	else if (rw->op == KS_RW_REPLACE || rw->op == KS_RW_WRAP)
		ks_buf_addf(b, "has no call of %.*s() that passes '%s' as argument %u, with all its "
			       "arguments (changed since the build, or a call over several lines)",
			    (int)strcspn(e->name, " "), e->name, rw->from, rw->arg);
	else
		ks_buf_addf(b, "has no call of %s() with all its arguments (changed since the build, "
			       "or a call over several lines)",
			    e->name);
}
