/* Schedule entries from export changes. Symbols are grouped by what
 * happens to them, so a kernel's 2,500 removals are a handful of entries
 * a reviewer can read. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array.h"
#include "date.h"
#include "input/diffsched.h"
#include "input/schedwrite.h"

/* The symbols that share an action and a reason. */
struct group {
	const char *action_ns;	/* "namespace NS": the NS; else NULL */
	const char *list;	/* a "module:" list they moved into; else NULL */
	enum ks_change_kind kind;
	const char **syms;
	size_t n;
};

struct groups {
	struct group *v;
	size_t n;
};

/* Which change of a symbol its entry stands for (c..end are the symbol's
 * changes, in kind order); NULL if none breaks a module. */
static const struct ks_change *pick(const struct ks_change *c, const struct ks_change *end)
{
	const struct ks_change *best = NULL;

	for (; c < end; c++) {
		if (!ks_change_breaks(c))
			continue;
		if (c->kind == KS_CHANGE_REMOVED || ks_change_is_removal(c))
			return c;
		if (!best || c->kind == KS_CHANGE_NAMESPACE)
			best = c;
	}
	return best;
}

static bool same_group(const struct group *g, const struct ks_change *c)
{
	bool removal = ks_change_is_removal(c);

	if (removal)
		return g->list && strcmp(g->list, c->new->ns) == 0;
	if (g->list || g->kind != c->kind)
		return false;
	return c->kind != KS_CHANGE_NAMESPACE || strcmp(g->action_ns, c->new->ns) == 0;
}

static void group_add(struct groups *gs, const struct ks_change *c)
{
	struct group *g = NULL;

	for (size_t i = 0; !g && i < gs->n; i++)
		if (same_group(&gs->v[i], c))
			g = &gs->v[i];
	if (!g) {
		ks_array_grow((void **)&gs->v, gs->n, 1, sizeof(*gs->v));
		g = &gs->v[gs->n++];
		*g = (struct group){ .kind = c->kind };
		if (ks_change_is_removal(c))
			g->list = c->new->ns;
		else if (c->kind == KS_CHANGE_NAMESPACE)
			g->action_ns = c->new->ns;
	}
	ks_array_grow((void **)&g->syms, g->n, 1, sizeof(*g->syms));
	g->syms[g->n++] = c->symbol;
}

/* "a, b, c," wrapped into lines of about 72 columns. */
static void what_list(struct ks_buf *b, const struct group *g)
{
	size_t col = 0;

	for (size_t i = 0; i < g->n; i++) {
		size_t len = strlen(g->syms[i]);

		if (i && col + len > 60) {
			ks_buf_adds(b, ",\n");
			col = 0;
		} else if (i) {
			ks_buf_adds(b, ", ");
			col += 2;
		}
		ks_buf_adds(b, g->syms[i]);
		col += len;
	}
}

static char *why(const struct group *g, const struct ks_diff_releases *rel)
{
	const char *old = rel->old ? rel->old : "the old kernel";

	if (g->list)
		return ks_strdupf("Exported only to %s from %s on (not in %s): for any other "
				  "module a removal.",
				  g->list, rel->new, old);
	if (g->kind == KS_CHANGE_NAMESPACE)
		return ks_strdupf("Moved into namespace %s between %s and %s.", g->action_ns, old,
				  rel->new);
	if (g->kind == KS_CHANGE_GPL_ONLY)
		return ks_strdupf("Turned EXPORT_SYMBOL_GPL between %s and %s.", old, rel->new);
	return ks_strdupf("No longer exported: removed between %s and %s.", old, rel->new);
}

static void write_group(struct ks_buf *out, const struct group *g, const char *when,
			const struct ks_diff_releases *rel)
{
	struct ks_buf what = KS_BUF_INIT;
	char *because = why(g, rel);
	char *action = g->action_ns ? ks_strdupf("namespace %s", g->action_ns) : NULL;
	const char *a = action ? action : g->kind == KS_CHANGE_GPL_ONLY ? "gpl-only" : "unexport";
	char *syms[1];
	struct ks_new_entry e = { .syms = syms, .nsyms = 1, .when = when, .action = a,
				  .why = because, .who = "ksunset diff" };

	what_list(&what, g);
	syms[0] = what.p;
	ks_buf_adds(out, "\n");
	ks_entry_format(out, &e);
	ks_buf_free(&what);
	free(because);
	free(action);
}

void ks_diff_schedule(struct ks_buf *out, const struct ks_changes *c, const char *when,
		      const struct ks_diff_releases *rel)
{
	struct groups gs = { 0 };

	ks_buf_addf(out, "# Export changes from %s to %s, written by ksunset diff.\n",
		    rel->old ? rel->old : "the old kernel", rel->new);
	for (size_t i = 0, j; i < c->n; i = j) {
		const struct ks_change *p;

		for (j = i; j < c->n && strcmp(c->v[j].symbol, c->v[i].symbol) == 0; j++)
			;
		p = pick(&c->v[i], &c->v[j]);
		if (p)
			group_add(&gs, p);
	}
	for (size_t i = 0; i < gs.n; i++)
		write_group(out, &gs.v[i], when, rel);
	for (size_t i = 0; i < gs.n; i++)
		free(gs.v[i].syms);
	free(gs.v);
}

int ks_diff_when(const struct ks_diff_releases *rel, char *out, size_t size, const char **why)
{
	struct ks_release o, n;
	int len;

	if (!rel->new || ks_release_parse_target(rel->new, &n) < 0) {
		*why = "not a kernel release";
		return -EINVAL;
	}
	if (rel->old && ks_release_parse_target(rel->old, &o) == 0) {
		o.rc = n.rc = 0;	/* a schedule's When has no -rc */
		if (ks_release_cmp(&o, &n) >= 0) {
			*why = "a schedule's When cannot tell it from the old release";
			return -EINVAL;
		}
		if (o.major != n.major || o.minor != n.minor)
			len = snprintf(out, size, "%u.%u", n.major, n.minor);
		else
			len = snprintf(out, size, "%u.%u.%u", n.major, n.minor, n.patch);
	} else {
		len = snprintf(out, size, "%u.%u.%u", n.major, n.minor, n.patch);
	}
	if (len < 0 || (size_t)len >= size) {
		*why = "too long";
		return -EINVAL;
	}
	return 0;
}
