/* The rules. Each row of the table says when a scheduled symbol that a
 * module imports concerns that module; the first row that applies makes
 * the finding. Severity then follows from the date and the options. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules.h"

struct rule {
	const char *name;
	bool (*applies)(const struct ks_check *c, const struct ks_module *m,
			const struct ks_entry *e, const char *sym);
	bool removed;		/* the finding is a removal that already happened */
};

static bool not_exported(const struct ks_check *c, const struct ks_module *m,
			 const struct ks_entry *e, const char *sym)
{
	(void)m;
	(void)e;
	return c->symvers && c->symvers->n && !ks_symvers_lookup(c->symvers, sym);
}

static bool unexport(const struct ks_check *c, const struct ks_module *m,
		     const struct ks_entry *e, const char *sym)
{
	(void)c;
	(void)m;
	(void)sym;
	return e->action == KS_ACTION_UNEXPORT;
}

static bool gpl_only(const struct ks_check *c, const struct ks_module *m,
		     const struct ks_entry *e, const char *sym)
{
	(void)c;
	(void)sym;
	return e->action == KS_ACTION_GPL_ONLY && !m->gpl_compatible;
}

static bool namespace_move(const struct ks_check *c, const struct ks_module *m,
			   const struct ks_entry *e, const char *sym)
{
	(void)c;
	(void)sym;
	return e->action == KS_ACTION_NAMESPACE && !ks_module_imports_ns(m, e->ns);
}

static const struct rule rules[] = {
	/* -i Module.symvers no longer exports it: the module will not load */
	{ "removed", not_exported, true },
	/* the export goes away: every importer is concerned */
	{ "unexport", unexport, false },
	/* becomes EXPORT_SYMBOL_GPL: only modules whose license is not GPL-compatible */
	{ "gpl-only", gpl_only, false },
	/* moves into namespace NS: only modules without MODULE_IMPORT_NS(NS) */
	{ "namespace", namespace_move, false },
};

static const struct rule *match_rule(const struct ks_check *c, const struct ks_module *m,
				     const struct ks_entry *e, const char *sym)
{
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (rules[i].applies(c, m, e, sym))
			return &rules[i];
	return NULL;
}

/* The target release: --kernel-release, else the first word of vermagic. */
static char *target_release(const struct ks_check *c, const struct ks_module *m)
{
	const char *r = c->opts.kernel_release ? c->opts.kernel_release : m->vermagic;

	return r ? strndup(r, strcspn(r, " ")) : NULL;
}

static void grade(const struct ks_check *c, struct ks_finding *f, const struct rule *rl)
{
	struct ks_release rel;
	bool have = f->target && ks_release_parse_target(f->target, &rel) == 0;

	f->ev = ks_when_evaluate(&f->entry->when, c->opts.today, have ? &rel : NULL,
				 c->opts.within);
	if (rl->removed) {
		f->removed = true;
		f->rule = "ksunset/removed";
		f->sev = KS_ERROR;
		return;
	}
	switch (f->ev.status) {
	case KS_STATUS_OVERDUE:
		f->rule = "ksunset/overdue";
		f->sev = KS_ERROR;
		break;
	case KS_STATUS_DUE_SOON:
		f->rule = "ksunset/due-soon";
		f->sev = KS_ERROR;
		break;
	case KS_STATUS_SCHEDULED:
		f->rule = "ksunset/scheduled";
		f->sev = c->opts.strict ? KS_ERROR : KS_WARNING;
		break;
	}
}

static int cmp_loc(const void *a, const void *b)
{
	const struct ks_loc *x = a, *y = b;
	int r = strcmp(x->file, y->file);

	if (!r)
		r = (x->line > y->line) - (x->line < y->line);
	if (!r)
		r = (x->col > y->col) - (x->col < y->col);
	return r ? r : (int)x->kind - (int)y->kind;
}

/* The uses of this symbol, from every location source, sorted, each
 * location once. */
static int add_locations(struct ks_finding *f, const struct ks_module *m)
{
	size_t n = 0, k = 0;

	for (size_t i = 0; i < m->uses.n; i++)
		n += strcmp(m->uses.v[i].symbol, f->symbol) == 0;
	if (!n)
		return 0;
	f->locs = calloc(n, sizeof(*f->locs));
	if (!f->locs)
		return -ENOMEM;
	for (size_t i = 0; i < m->uses.n; i++) {
		const struct ks_use *u = &m->uses.v[i];

		if (strcmp(u->symbol, f->symbol) != 0)
			continue;
		f->locs[k] = (struct ks_loc){ .file = strdup(u->file), .line = u->line,
					      .col = u->col, .function = strdup(u->function),
					      .kind = u->kind, .source = u->source };
		f->nlocs = ++k;	/* so that finding_free() frees them on failure */
		if (!f->locs[k - 1].file || !f->locs[k - 1].function)
			return -ENOMEM;
	}
	qsort(f->locs, k, sizeof(*f->locs), cmp_loc);
	f->nlocs = 0;
	for (size_t i = 0; i < k; i++) {
		if (f->nlocs && !cmp_loc(&f->locs[f->nlocs - 1], &f->locs[i])) {
			free(f->locs[i].file);
			free(f->locs[i].function);
			continue;
		}
		f->locs[f->nlocs++] = f->locs[i];
	}
	return 0;
}

static void finding_free(struct ks_finding *f)
{
	free(f->module);
	free(f->module_name);
	free(f->symbol);
	free(f->license);
	free(f->target);
	for (size_t i = 0; i < f->nlocs; i++) {
		free(f->locs[i].file);
		free(f->locs[i].function);
	}
	free(f->locs);
}

static struct ks_finding *new_finding(struct ks_findings *fs)
{
	if (fs->n == fs->cap) {
		size_t cap = fs->cap ? fs->cap * 2 : 16;
		struct ks_finding *v = realloc(fs->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		fs->v = v;
		fs->cap = cap;
	}
	memset(&fs->v[fs->n], 0, sizeof(fs->v[0]));
	return &fs->v[fs->n++];
}

static int add_finding(struct ks_check *c, const struct ks_module *m,
		       const struct ks_entry *e, const struct rule *rl, const char *sym)
{
	struct ks_finding *f = new_finding(&c->found);

	if (!f)
		return -ENOMEM;
	f->entry = e;
	f->module = strdup(m->path);
	f->module_name = strdup(m->name);
	f->symbol = strdup(sym);
	f->license = m->license ? strdup(m->license) : NULL;
	f->target = target_release(c, m);
	if (!f->module || !f->module_name || !f->symbol || (m->license && !f->license) ||
	    add_locations(f, m) < 0) {
		finding_free(f);
		c->found.n--;
		return -ENOMEM;
	}
	grade(c, f, rl);
	return 0;
}

int ks_check_module(struct ks_check *c, const struct ks_module *m)
{
	for (size_t i = 0; i < m->nundef; i++) {
		const struct ks_entry *e = ks_schedule_lookup(c->sched, m->undef[i]);
		const struct rule *rl;

		if (!e)
			continue;
		rl = match_rule(c, m, e, m->undef[i]);
		if (rl && add_finding(c, m, e, rl, m->undef[i]) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int cmp_finding(const void *a, const void *b)
{
	const struct ks_finding *x = a, *y = b;
	int r = strcmp(x->module, y->module);

	return r ? r : strcmp(x->symbol, y->symbol);
}

void ks_findings_sort(struct ks_findings *f)
{
	if (f->n)
		qsort(f->v, f->n, sizeof(*f->v), cmp_finding);
}

void ks_findings_free(struct ks_findings *f)
{
	for (size_t i = 0; i < f->n; i++)
		finding_free(&f->v[i]);
	free(f->v);
	memset(f, 0, sizeof(*f));
}
