/* The conditional branches of a C source file, from its text (cond.h). */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array.h"
#include "buf.h"
#include "cond.h"

/* One #if ... #endif being read: the conditions of its current branch
 * (the earlier branches' negated, then its own) and the earlier
 * branches' own. */
struct frame {
	char **own;
	unsigned *own_lines;	/* each one's directive line */
	size_t nown;
	char **prev;
	unsigned *prev_lines;
	size_t nprev;
	unsigned first;		/* the current branch's first line */
};

struct scan {
	struct ks_cond_file *out;
	struct frame *frames;
	size_t depth, cap;
	bool other;		/* code, or a directive but #define and #undef */
	bool undef;		/* an #undef */
};

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* Appends s (taken) to *v, with its line to *lines. */
static void push_str(char ***v, unsigned **lines, size_t *n, char *s, unsigned line)
{
	ks_array_grow((void **)v, *n, 1, sizeof(**v));
	ks_array_grow((void **)lines, *n, 1, sizeof(**lines));
	(*lines)[*n] = line;
	(*v)[(*n)++] = s;
}

static void free_strs(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* The branch that ends before line last + 1, with every frame's
 * conditions; none when it spans no line. */
static void close_branch(struct scan *s, unsigned last)
{
	struct frame *top = &s->frames[s->depth - 1];
	struct ks_cond_branch b = { top->first, last, NULL, NULL, 0 };

	if (last < top->first)
		return;
	for (size_t d = 0; d < s->depth; d++)
		for (size_t i = 0; i < s->frames[d].nown; i++)
			push_str(&b.conds, &b.lines, &b.nconds, ks_xstrdup(s->frames[d].own[i]),
				 s->frames[d].own_lines[i]);
	ks_array_grow((void **)&s->out->v, s->out->n, 1, sizeof(*s->out->v));
	s->out->v[s->out->n++] = b;
}

/* A new branch of the top frame from the line after last, its directive
 * on line: the earlier branches negated (each at its own directive's
 * line), then cond (taken; NULL: #else). */
static void open_branch(struct scan *s, char *cond, unsigned line, unsigned last)
{
	struct frame *top = &s->frames[s->depth - 1];

	free_strs(top->own, top->nown);
	free(top->own_lines);
	top->own = NULL;
	top->own_lines = NULL;
	top->nown = 0;
	top->first = last + 1;
	for (size_t i = 0; i < top->nprev; i++)
		push_str(&top->own, &top->own_lines, &top->nown, ks_strdupf("!%s", top->prev[i]),
			 top->prev_lines[i]);
	if (cond) {
		push_str(&top->own, &top->own_lines, &top->nown, ks_xstrdup(cond), line);
		push_str(&top->prev, &top->prev_lines, &top->nprev, cond, line);
	}
}

static void pop(struct scan *s)
{
	struct frame *top = &s->frames[--s->depth];

	free_strs(top->own, top->nown);
	free_strs(top->prev, top->nprev);
	free(top->own_lines);
	free(top->prev_lines);
}

/* The condition a directive's rest says: "(E)", "defined(X)",
 * "!defined(X)". */
static char *condition(const char *kw, const char *rest)
{
	size_t n = strlen(rest);

	while (n && (rest[n - 1] == ' ' || rest[n - 1] == '\t'))
		n--;
	if (!strcmp(kw, "ifdef") || !strcmp(kw, "elifdef"))
		return ks_strdupf("defined(%.*s)", (int)n, rest);
	if (!strcmp(kw, "ifndef") || !strcmp(kw, "elifndef"))
		return ks_strdupf("!defined(%.*s)", (int)n, rest);
	return ks_strdupf("(%.*s)", (int)n, rest);
}

/* "a, b)" -> "a,b"; NULL if the list does not end. */
static char *params_of(const char *p, const char **end)
{
	struct ks_buf b = KS_BUF_INIT;

	for (; *p && *p != ')'; p++)
		if (*p != ' ' && *p != '\t')
			ks_buf_addc(&b, *p);
	if (*p != ')') {
		ks_buf_free(&b);
		return NULL;
	}
	*end = p + 1;
	return ks_buf_steal(&b);
}

/* A #define or #undef: its name, and a #define's parameters and body. */
static void define(struct scan *s, const char *p, unsigned line, bool undef)
{
	const char *e = p, *body;
	struct ks_cond_define d = { NULL, line, undef, NULL, NULL };
	size_t n;

	while (ident_char(*e))
		e++;
	if (e == p)
		return;
	d.name = ks_xstrndup(p, (size_t)(e - p));
	body = e;
	if (!undef && *e == '(' && !(d.params = params_of(e + 1, &body)))
		body = "";	/* unterminated: no use */
	while (*body == ' ' || *body == '\t')
		body++;
	n = strlen(body);
	while (n && (body[n - 1] == ' ' || body[n - 1] == '\t'))
		n--;
	d.body = undef ? NULL : ks_xstrndup(body, n);
	ks_array_room((void **)&s->out->defs, &s->out->capdefs, s->out->ndefs + 1,
		      sizeof(*s->out->defs));
	s->out->defs[s->out->ndefs++] = d;
}

/* One logical line, comments and continuations gone, that starts on
 * line (and ends on last). */
static void directive(struct scan *s, const char *p, unsigned line, unsigned last)
{
	char kw[16];
	size_t n = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p++ != '#')
		return;
	while (*p == ' ' || *p == '\t')
		p++;
	while (ident_char(*p) && n < sizeof(kw) - 1)
		kw[n++] = *p++;
	kw[n] = '\0';
	while (*p == ' ' || *p == '\t')
		p++;
	s->other |= strcmp(kw, "define") && strcmp(kw, "undef");
	s->undef |= !strcmp(kw, "undef");
	if (!strcmp(kw, "define") || !strcmp(kw, "undef")) {
		define(s, p, line, kw[0] == 'u');
	} else if (!strcmp(kw, "if") || !strcmp(kw, "ifdef") || !strcmp(kw, "ifndef")) {
		ks_array_room((void **)&s->frames, &s->cap, s->depth + 1, sizeof(*s->frames));
		memset(&s->frames[s->depth++], 0, sizeof(struct frame));
		open_branch(s, condition(kw, p), line, last);
	} else if (s->depth && (!strcmp(kw, "elif") || !strcmp(kw, "elifdef") ||
				!strcmp(kw, "elifndef"))) {
		close_branch(s, line - 1);
		open_branch(s, condition(kw, p), line, last);
	} else if (s->depth && !strcmp(kw, "else")) {
		close_branch(s, line - 1);
		open_branch(s, NULL, line, last);
	} else if (s->depth && !strcmp(kw, "endif")) {
		close_branch(s, line - 1);
		pop(s);
	}
}

/* A configure script's header: autoconf's (AC_CONFIG_HEADERS) says so in
 * its first lines, and writes "#undef NAME" in a comment for each test
 * that failed, which are the script's answers too; other scripts say so
 * the same way (nvidia-fs), or write nothing but #define and #undef lines,
 * some of them #undef (NVIDIA's conftest.sh). */
static void configure_header(struct scan *s, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	unsigned line = 1;

	if (!s->other && s->undef)
		s->out->configure = true;
	/* "Generated from X.in by configure", "Automatically generated by
	 * configure" (nvidia-fs): in the comment the file opens with */
	if (!memmem(text, len < 512 ? len : 512, "by configure", 12))
		return;
	s->out->configure = true;
	for (; p < end; line++) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		size_t n = e ? (size_t)(e - p) : (size_t)(end - p);

		if (n > 11 && !strncmp(p, "/* #undef ", 10)) {
			char *name = ks_xstrndup(p + 10, strcspn(p + 10, " */\n"));

			define(s, name, line, true);
			free(name);
		}
		p += n + 1;
	}
}

/* What a logical line is, as far as it has been read. */
enum kind { UNDECIDED, DIRECTIVE, CODE };

void ks_cond_scan(const char *text, size_t len, struct ks_cond_file *out)
{
	struct scan s = { out, NULL, 0, 0, false, false };
	struct ks_buf l = KS_BUF_INIT;
	unsigned line = 1, start = 1;
	bool block = false;
	enum kind k = UNDECIDED;	/* only a directive's text is kept */

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < len; i++) {
		char c = text[i];

		/* CRLF line ends read as LF, a stray CR as a blank */
		if (c == '\r' && i + 1 < len && text[i + 1] == '\n')
			continue;
		c = c == '\r' ? ' ' : c;
		if (c == '\\' && i + 2 < len && text[i + 1] == '\r' && text[i + 2] == '\n') {
			line++, i += 2;	/* a continuation */
		} else if (c == '\\' && i + 1 < len && text[i + 1] == '\n') {
			line++, i++;	/* a continuation */
		} else if (block) {
			if (c == '*' && i + 1 < len && text[i + 1] == '/') {
				block = false, i++;
				if (k == DIRECTIVE)
					ks_buf_addc(&l, ' ');
			} else if (c == '\n') {
				line++;	/* a comment over lines: one logical line */
			}
		} else if (c == '/' && i + 1 < len && text[i + 1] == '*') {
			block = true, i++;
		} else if (c == '/' && i + 1 < len && text[i + 1] == '/') {
			while (i + 1 < len && text[i + 1] != '\n')
				i++;
		} else if (c == '\n') {
			if (k == DIRECTIVE)
				directive(&s, l.p ? l.p : "", start, line);
			ks_buf_reset(&l);
			k = UNDECIDED;
			start = ++line;
		} else if (c == '"' || c == '\'') {
			size_t j = i + 1;

			while (j < len && text[j] != c && text[j] != '\n') {
				size_t cr = text[j] == '\\' && j + 2 < len && text[j + 1] == '\r' &&
					    text[j + 2] == '\n';

				/* a continuation inside the literal is a line */
				line += text[j] == '\\' && j + 1 + cr < len &&
					text[j + 1 + cr] == '\n';
				j += text[j] == '\\' && j + 1 < len ? 2 + cr : 1;
			}
			j = j < len && text[j] == c ? j : j - 1;
			if (k == DIRECTIVE)
				ks_buf_add(&l, text + i, j - i + 1);
			s.other |= k == UNDECIDED;
			k = k == UNDECIDED ? CODE : k;
			i = j;
		} else if (k != CODE) {
			if (k == UNDECIDED && c != ' ' && c != '\t' && c != '\f' && c != '\v') {
				k = c == '#' ? DIRECTIVE : CODE;
				s.other |= k == CODE;
			}
			if (k == DIRECTIVE)
				ks_buf_addc(&l, c);
		}
	}
	if (k == DIRECTIVE && l.len)
		directive(&s, l.p, start, line);
	configure_header(&s, text, len);
	while (s.depth) {
		close_branch(&s, line);
		pop(&s);
	}
	ks_buf_free(&l);
	free(s.frames);
}

const struct ks_cond_branch *ks_cond_at(const struct ks_cond_file *f, unsigned line)
{
	const struct ks_cond_branch *best = NULL;

	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].first <= line && line <= f->v[i].last &&
		    (!best || f->v[i].first > best->first))
			best = &f->v[i];
	return best;
}

void ks_cond_free(struct ks_cond_file *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free_strs(f->v[i].conds, f->v[i].nconds);
		free(f->v[i].lines);
	}
	free(f->v);
	for (size_t i = 0; i < f->ndefs; i++) {
		free(f->defs[i].name);
		free(f->defs[i].params);
		free(f->defs[i].body);
	}
	free(f->defs);
	memset(f, 0, sizeof(*f));
}

char *ks_cond_replace_defined(const char *cond, const char *name, size_t n, const char *with)
{
	struct ks_buf b = KS_BUF_INIT;
	const char *p = cond;

	while (*p) {
		const char *q = p + 7, *id;
		bool paren;

		if (strncmp(p, "defined", 7) || (p > cond && ident_char(p[-1])) || ident_char(*q)) {
			ks_buf_addc(&b, *p++);
			continue;
		}
		while (*q == ' ' || *q == '\t')
			q++;
		paren = *q == '(';
		q += paren;
		while (*q == ' ' || *q == '\t')
			q++;
		id = q;
		while (ident_char(*q))
			q++;
		if ((size_t)(q - id) != n || strncmp(id, name, n)) {
			ks_buf_addc(&b, *p++);
			continue;
		}
		while (paren && (*q == ' ' || *q == '\t'))
			q++;
		if (paren && *q != ')') {
			ks_buf_addc(&b, *p++);
			continue;
		}
		ks_buf_addf(&b, "(%s)", with);
		p = q + paren;
	}
	return ks_buf_steal(&b);
}

int ks_cond_idents(const char *cond, int (*fn)(const char *id, size_t n, void *arg), void *arg)
{
	const char *p = cond;
	int r;

	while (*p) {
		const char *id = p;

		if (*p == '"' || *p == '\'') {	/* a string, a character */
			char end = *p;

			while (*++p && *p != end)
				p += *p == '\\' && p[1];
			p += *p != '\0';
		} else if (*p >= '0' && *p <= '9') {	/* a number and its suffix */
			while (ident_char(*p) || *p == '.')
				p++;
		} else if (!ident_char(*p)) {
			p++;
		} else {
			while (ident_char(*p))
				p++;
			if ((size_t)(p - id) > 6 && !strncmp(id, "__has_", 6)) {
				/* __has_include(<x.h>), __has_builtin(x): no macros */
				int depth = 0;

				while (*p == ' ' || *p == '\t')
					p++;
				if (*p == '(') {
					do {
						depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
						p++;
					} while (*p && depth);
				}
			} else if (!((size_t)(p - id) == 7 && !strncmp(id, "defined", 7)) &&
				   (r = fn(id, (size_t)(p - id), arg))) {
				return r;
			}
		}
	}
	return 0;
}
