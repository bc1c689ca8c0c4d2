/* Schedule parser. The format is Documentation/feature-removal-schedule.txt
 * made checkable: "Field: value" lines, indented continuation lines, '#'
 * comments, entries separated by blank lines. All errors are collected. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "alloc.h"
#include "array.h"
#include "buf.h"
#include "schedule.h"

enum field {
	F_WHAT,
	F_WHEN,
	F_ACTION,
	F_REPLACE,
	F_WHY,
	F_WHO,
	F_SINCE,
	F_COUNT
};

static const char *const field_names[F_COUNT] = {
	[F_WHAT] = "What",	 [F_WHEN] = "When", [F_ACTION] = "Action",
	[F_REPLACE] = "Replace", [F_WHY] = "Why",   [F_WHO] = "Who",
	[F_SINCE] = "Since",
};

/* The fields of the entry being read, as raw text. */
struct pending {
	struct ks_buf val[F_COUNT];
	unsigned line[F_COUNT];	/* 0: field absent */
	unsigned start;		/* 0: no entry open */
	int last;		/* field that a continuation line extends */
};

struct parser {
	struct ks_schedule *s;
	const char *file;	/* owned by s */
	struct ks_diags *d;
	struct pending p;
	int err;
};

static void perr(struct parser *ps, unsigned line, const char *fmt, ...) KS_PRINTF(3, 4);

static void perr(struct parser *ps, unsigned line, const char *fmt, ...)
{
	struct ks_buf b = KS_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	ks_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	ks_diag_add(ps->d, KS_ERROR, ps->file, line, 0, "%s", b.p);
	ks_buf_free(&b);
	ps->err = -EINVAL;
}

const char *ks_action_name(enum ks_action a)
{
	switch (a) {
	case KS_ACTION_UNEXPORT:
		return "unexport";
	case KS_ACTION_GPL_ONLY:
		return "gpl-only";
	case KS_ACTION_NAMESPACE:
		return "namespace";
	}
	return "unexport";
}

bool ks_is_identifier(const char *s)
{
	if (!*s || isdigit((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/* Entries and their strings come from chunks freed with the schedule:
 * the plugin parses the schedule in every compilation, and one malloc per
 * field was a quarter of that cost. */
struct ks_chunk {
	struct ks_chunk *next;
	size_t used, cap;
	max_align_t mem[];
};

#define CHUNK_SIZE 65536

static void *arena_alloc(struct ks_schedule *s, size_t n)
{
	struct ks_chunk *c = s->arena;
	size_t align = sizeof(max_align_t);
	void *p;

	n = (n + align - 1) / align * align;
	if (!c || c->cap - c->used < n) {
		size_t cap = n > CHUNK_SIZE ? n : CHUNK_SIZE;

		c = ks_xmalloc(sizeof(*c) + cap);
		c->next = s->arena;
		c->used = 0;
		c->cap = cap;
		s->arena = c;
	}
	p = (char *)c->mem + c->used;
	c->used += n;
	return memset(p, 0, n);
}

static char *arena_strndup(struct ks_schedule *s, const char *str, size_t n)
{
	char *p = arena_alloc(s, n + 1);

	memcpy(p, str, n);
	return p;
}

static int parse_when(struct parser *ps, struct ks_entry *e, const char *v, unsigned line)
{
	struct ks_when *w = &e->when;

	if (isdigit((unsigned char)v[0]) && strchr(v, '-') && !strchr(v, '.')) {
		if (ks_date_parse(v, &w->date) < 0) {
			perr(ps, line, "bad date '%s' (expected YYYY-MM-DD or YYYY-MM)", v);
			return -EINVAL;
		}
		w->kind = KS_WHEN_DATE;
		ks_date_format(w->date, w->text);
		return 0;
	}
	if (ks_release_parse(v, &w->rel) < 0) {
		perr(ps, line,
		     "bad kernel release '%s' (expected a date YYYY-MM-DD or a release such as 6.14)",
		     v);
		return -EINVAL;
	}
	w->kind = KS_WHEN_RELEASE;
	snprintf(w->text, sizeof(w->text), "%s", v[0] == 'v' ? v + 1 : v);
	return 0;
}

static int parse_action(struct parser *ps, struct ks_entry *e, const char *v, unsigned line)
{
	const char *ns;

	/* keywords in any case, as field names; the namespace keeps its own */
	if (strcasecmp(v, "unexport") == 0) {
		e->action = KS_ACTION_UNEXPORT;
		return 0;
	}
	if (strcasecmp(v, "gpl-only") == 0) {
		e->action = KS_ACTION_GPL_ONLY;
		return 0;
	}
	if (strncasecmp(v, "namespace", 9) != 0 || (v[9] && !isspace((unsigned char)v[9]))) {
		perr(ps, line, "bad action '%s' (expected unexport, gpl-only or namespace NS)", v);
		return -EINVAL;
	}
	for (ns = v + 9; isspace((unsigned char)*ns); ns++)
		;
	if (!*ns) {
		perr(ps, line, "action 'namespace' needs a namespace name");
		return -EINVAL;
	}
	if (!ks_is_identifier(ns)) {
		perr(ps, line, "bad namespace name '%s'", ns);
		return -EINVAL;
	}
	e->action = KS_ACTION_NAMESPACE;
	e->ns = arena_strndup(ps->s, ns, strlen(ns));
	return 0;
}

static int parse_what(struct parser *ps, struct ks_entry *e, const char *v, unsigned line)
{
	static const char sep[] = ", \t";
	size_t n = 0;
	int bad = 0;

	for (const char *t = v + strspn(v, sep); *t; t += strspn(t, sep))
		t += strcspn(t, sep), n++;
	if (!n) {
		perr(ps, line, "empty What field");
		return -EINVAL;
	}
	e->syms = arena_alloc(ps->s, n * sizeof(*e->syms));
	for (v += strspn(v, sep); *v; v += strspn(v, sep)) {
		size_t len = strcspn(v, sep);
		char *sym = arena_strndup(ps->s, v, len);

		e->syms[e->nsyms++] = sym;
		if (!ks_is_identifier(sym)) {
			perr(ps, line, "bad symbol name '%s'", sym);
			bad = -EINVAL;
		}
		v += len;
	}
	return bad;
}

static char *dup_field(struct parser *ps, enum field f)
{
	struct pending *p = &ps->p;

	return p->line[f] ? arena_strndup(ps->s, p->val[f].p, p->val[f].len) : NULL;
}

/* Builds an entry from the pending fields; NULL (with diagnostics) if any
 * field is bad. */
static struct ks_entry *build_entry(struct parser *ps)
{
	struct pending *p = &ps->p;
	struct ks_entry *e = arena_alloc(ps->s, sizeof(*e));
	int what, when, action = 0;
	bool bad;

	e->file = ps->file;
	e->line = p->start;
	what = parse_what(ps, e, p->val[F_WHAT].p, p->line[F_WHAT]);
	when = parse_when(ps, e, p->val[F_WHEN].p, p->line[F_WHEN]);
	if (p->line[F_ACTION])
		action = parse_action(ps, e, p->val[F_ACTION].p, p->line[F_ACTION]);
	e->replace = dup_field(ps, F_REPLACE);
	e->why = dup_field(ps, F_WHY);
	e->who = dup_field(ps, F_WHO);
	e->since = dup_field(ps, F_SINCE);
	bad = what || when || action;
	if (p->line[F_REPLACE] && !e->replace[0]) {
		perr(ps, p->line[F_REPLACE], "empty Replace field");
		bad = true;
	}
	e->replace_ident = e->replace && ks_is_identifier(e->replace);
	return bad ? NULL : e;	/* a bad entry's memory goes with the schedule */
}

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* Two files may name the same symbol if they say the same thing of it. */
static bool entries_agree(const struct ks_entry *a, const struct ks_entry *b)
{
	return strcmp(a->when.text, b->when.text) == 0 && a->when.kind == b->when.kind &&
	       a->action == b->action && str_eq(a->ns, b->ns) && str_eq(a->replace, b->replace);
}

static void index_entry(struct parser *ps, struct ks_entry *e)
{
	for (size_t i = 0; i < e->nsyms; i++) {
		const struct ks_entry *old;
		void **slot;

		if (ks_strmap_put(&ps->s->bysym, e->syms[i], &slot)) {
			*slot = e;
			continue;
		}
		old = *slot;
		if (old == e)
			perr(ps, e->line, "symbol '%s' is named twice in this entry", e->syms[i]);
		else if (old->file == e->file || !entries_agree(old, e))
			perr(ps, e->line, "symbol '%s' is already scheduled at %s:%u",
			     e->syms[i], old->file, old->line);
	}
}

static void append_entry(struct ks_schedule *s, struct ks_entry *e)
{
	ks_array_room((void **)&s->entries, &s->cap, s->n + 1, sizeof(*s->entries));
	s->entries[s->n++] = e;
}

static void pending_reset(struct pending *p)
{
	for (int f = 0; f < F_COUNT; f++)
		ks_buf_reset(&p->val[f]);
	memset(p->line, 0, sizeof(p->line));
	p->start = 0;
	p->last = -1;
}

static void finish_entry(struct parser *ps)
{
	struct pending *p = &ps->p;
	struct ks_entry *e;

	if (!p->start)
		return;
	if (!p->line[F_WHAT] || !p->line[F_WHEN]) {
		perr(ps, p->start, "entry has no %s field",
		     !p->line[F_WHAT] ? "What" : "When");
		pending_reset(p);
		return;
	}
	e = build_entry(ps);
	pending_reset(p);
	if (!e)
		return;
	append_entry(ps->s, e);
	index_entry(ps, e);
}

static int lookup_field(const char *name, size_t n)
{
	for (int f = 0; f < F_COUNT; f++)
		if (strlen(field_names[f]) == n && strncasecmp(field_names[f], name, n) == 0)
			return f;
	return -1;
}

/* Appends a value, trimmed, joining continuation lines with one space. */
static void add_value(struct ks_buf *b, const char *v, size_t n)
{
	while (n && isspace((unsigned char)*v))
		v++, n--;
	while (n && isspace((unsigned char)v[n - 1]))
		n--;
	if (!n)
		return;
	if (b->len)
		ks_buf_addc(b, ' ');
	ks_buf_add(b, v, n);
}

static void field_line(struct parser *ps, const char *l, size_t n, unsigned line)
{
	struct pending *p = &ps->p;
	const char *colon = memchr(l, ':', n);
	size_t nlen;
	int f;

	if (!colon) {
		perr(ps, line, "expected 'Field: value', got '%.*s'", (int)n, l);
		return;
	}
	nlen = (size_t)(colon - l);
	while (nlen && isspace((unsigned char)l[nlen - 1]))
		nlen--;
	f = lookup_field(l, nlen);
	if (f < 0) {
		perr(ps, line, "unknown field '%.*s'", (int)nlen, l);
		p->last = -1;
		return;
	}
	if (!p->start)
		p->start = line;
	if (p->line[f]) {
		perr(ps, line, "duplicate field '%s' (first at line %u)", field_names[f], p->line[f]);
		p->last = -1;
		return;
	}
	p->line[f] = line;
	p->last = f;
	ks_buf_reset(&p->val[f]);
	/* an empty value is still a string, for the checks that follow */
	ks_buf_add(&p->val[f], "", 0);
	add_value(&p->val[f], colon + 1, n - (size_t)(colon + 1 - l));
}

static bool blank(const char *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isspace((unsigned char)l[i]))
			return false;
	return true;
}

static void parse_line(struct parser *ps, const char *l, size_t n, unsigned line)
{
	struct pending *p = &ps->p;

	if (n && l[n - 1] == '\r')
		n--;
	if (blank(l, n)) {
		finish_entry(ps);
		return;
	}
	if (l[0] == '#')
		return;
	if (l[0] != ' ' && l[0] != '\t') {
		field_line(ps, l, n, line);
		return;
	}
	if (p->last < 0) {
		if (!p->start)
			perr(ps, line, "continuation line outside an entry");
		return;
	}
	add_value(&p->val[p->last], l, n);
}

/* The schedule's own copy of name. */
static const char *add_file(struct ks_schedule *s, const char *name)
{
	ks_array_grow((void **)&s->files, s->nfiles, 1, sizeof(*s->files));
	s->files[s->nfiles] = ks_xstrdup(name);
	return s->files[s->nfiles++];
}

int ks_schedule_parse(struct ks_schedule *s, const char *name, const char *text,
		      size_t len, struct ks_diags *d)
{
	struct parser ps = { .s = s, .d = d, .p = { .last = -1 } };
	const char *start = text, *end = text + len;
	unsigned line = 0;

	ps.file = add_file(s, name);
	/* a UTF-8 byte order mark, which some editors write first */
	if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
		text += 3;
	while (text < end) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		size_t n = nl ? (size_t)(nl - text) : (size_t)(end - text);

		if (memchr(text, '\0', n)) {
			perr(&ps, line + 1, "NUL byte in schedule");
			break;
		}
		parse_line(&ps, text, n, ++line);
		text += n + (nl != NULL);
	}
	finish_entry(&ps);
	for (int f = 0; f < F_COUNT; f++)
		ks_buf_free(&ps.p.val[f]);
	s->digest = ks_hash_bytes(start, len, s->digest);
	return ps.err;
}

int ks_schedule_load(struct ks_schedule *s, const char *path, struct ks_diags *d)
{
	struct ks_buf b = KS_BUF_INIT;
	int r = ks_buf_read_file(&b, path);

	if (r < 0) {
		ks_diag_add(d, KS_ERROR, path, 0, 0, "cannot read schedule: %s", strerror(-r));
		ks_buf_free(&b);
		return r;
	}
	r = ks_schedule_parse(s, path, b.p ? b.p : "", b.len, d);
	ks_buf_free(&b);
	return r;
}

int ks_schedule_load_list(struct ks_schedule *s, const char *paths, struct ks_diags *d)
{
	int ret = 0;

	while (*paths) {
		size_t n = strcspn(paths, ":");
		char *one = ks_xstrndup(paths, n);
		int r = n ? ks_schedule_load(s, one, d) : 0;

		free(one);
		if (r < 0 && !ret)
			ret = r;
		paths += n + (paths[n] == ':');
	}
	return ret;
}

const struct ks_entry *ks_schedule_lookup(const struct ks_schedule *s, const char *sym)
{
	return ks_strmap_get(&s->bysym, sym);
}

void ks_schedule_digest_hex(const struct ks_schedule *s, char out[17])
{
	snprintf(out, 17, "%016llx", (unsigned long long)s->digest);
}

void ks_schedule_free(struct ks_schedule *s)
{
	while (s->arena) {
		struct ks_chunk *next = s->arena->next;

		free(s->arena);
		s->arena = next;
	}
	free(s->entries);
	for (size_t i = 0; i < s->nfiles; i++)
		free(s->files[i]);
	free(s->files);
	ks_strmap_free(&s->bysym);
	memset(s, 0, sizeof(*s));
}

const char *ks_status_name(enum ks_status st)
{
	switch (st) {
	case KS_STATUS_SCHEDULED:
		return "scheduled";
	case KS_STATUS_DUE_SOON:
		return "due-soon";
	case KS_STATUS_OVERDUE:
		return "overdue";
	}
	return "scheduled";
}

struct ks_when_eval ks_when_evaluate(const struct ks_when *w, int32_t today,
				     const struct ks_release *target, long within)
{
	struct ks_when_eval ev = { .status = KS_STATUS_SCHEDULED };

	if (w->kind == KS_WHEN_RELEASE) {
		if (target && ks_release_reached(target, &w->rel))
			ev.status = KS_STATUS_OVERDUE;
		return ev;
	}
	ev.have_days = true;
	ev.days_left = w->date - today;
	/* due on the day itself: the removal may already have landed */
	if (ev.days_left <= 0)
		ev.status = KS_STATUS_OVERDUE;
	else if (within >= 0 && ev.days_left <= within)
		ev.status = KS_STATUS_DUE_SOON;
	return ev;
}
