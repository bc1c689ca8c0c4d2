/* The lint rules: a const table, one commented row per check, so a new check
 * is a new row. A rule fills in its message and says whether it fired. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "buf.h"
#include "rules/lintrules.h"
#include "wording.h"

struct lint_rule {
	enum ks_severity sev;
	bool per_symbol;	/* run once per symbol of the entry, else once */
	/* 1: fired (message in msg), 0: not */
	int (*check)(const struct ks_lint *l, const struct ks_entry *e, const char *sym,
		     struct ks_buf *msg);
};

static int no_why(const struct ks_lint *l, const struct ks_entry *e, const char *sym,
		  struct ks_buf *msg)
{
	(void)l;
	if (e->why)
		return 0;
	ks_buf_addf(msg, "entry for '%s' has no Why: say why it goes", sym);
	return 1;
}

static int no_who(const struct ks_lint *l, const struct ks_entry *e, const char *sym,
		  struct ks_buf *msg)
{
	(void)l;
	if (e->who)
		return 0;
	ks_buf_addf(msg, "entry for '%s' has no Who: name someone to ask", sym);
	return 1;
}

/* Since is free text; a date there that comes after a dated When means the
 * entry was overdue from the day it was written: a typo in one of them. */
static int since_after_when(const struct ks_lint *l, const struct ks_entry *e,
			    const char *sym, struct ks_buf *msg)
{
	int32_t since;

	(void)l;
	(void)sym;
	if (!e->since || e->when.kind != KS_WHEN_DATE || ks_date_parse(e->since, &since) < 0 ||
	    since <= e->when.date)
		return 0;
	ks_buf_addf(msg, "Since %s is after When %s: the entry was overdue from "
			 "the start", e->since, e->when.text);
	return 1;
}

static const struct ks_export *exported(const struct ks_lint *l, const char *sym)
{
	return l->symvers ? ks_symvers_lookup(l->symvers, sym) : NULL;
}

/* Whether the kernel's exports show the entry's action as done. */
static bool action_done(const struct ks_entry *e, const struct ks_export *x)
{
	switch (e->action) {
	case KS_ACTION_GPL_ONLY:
		return x->gpl;
	case KS_ACTION_NAMESPACE:
		return strcmp(x->ns, e->ns) == 0;
	case KS_ACTION_UNEXPORT:
		break;
	}
	return false;
}

static int not_exported(const struct ks_lint *l, const struct ks_entry *e, const char *sym,
			struct ks_buf *msg)
{
	(void)e;
	if (!l->symvers || exported(l, sym))
		return 0;
	ks_buf_addf(msg, "'%s' is not exported by the kernel (not in "
			 "Module.symvers): a typo, or already removed", sym);
	return 1;
}

static int overdue(const struct ks_lint *l, const struct ks_entry *e, const char *sym,
		   struct ks_buf *msg)
{
	const struct ks_export *x = exported(l, sym);
	struct ks_when_eval ev;

	if (!x || action_done(e, x))
		return 0;
	ev = ks_when_evaluate(&e->when, l->today, l->target, -1);
	if (ev.status != KS_STATUS_OVERDUE)
		return 0;
	ks_buf_addf(msg, "'%s' ", sym);
	ks_say_action(msg, e, true);
	ks_say_days(msg, &ev);
	ks_buf_addf(msg, " but is %s: finish the job",
		    e->action == KS_ACTION_UNEXPORT   ? "still exported"
		    : e->action == KS_ACTION_GPL_ONLY ? "still EXPORT_SYMBOL"
						      : "still outside its namespace");
	return 1;
}

static int already_gpl(const struct ks_lint *l, const struct ks_entry *e, const char *sym,
		       struct ks_buf *msg)
{
	const struct ks_export *x = exported(l, sym);

	if (!x || e->action != KS_ACTION_GPL_ONLY || !x->gpl)
		return 0;
	ks_buf_addf(msg, "'%s' is already EXPORT_SYMBOL_GPL: the gpl-only entry "
			 "has nothing left to do", sym);
	return 1;
}

static int already_in_ns(const struct ks_lint *l, const struct ks_entry *e, const char *sym,
			 struct ks_buf *msg)
{
	const struct ks_export *x = exported(l, sym);

	if (!x || e->action != KS_ACTION_NAMESPACE || strcmp(x->ns, e->ns) != 0)
		return 0;
	ks_buf_addf(msg, "'%s' is already in namespace %s: the entry has nothing "
			 "left to do", sym, e->ns);
	return 1;
}

static int ready(const struct ks_lint *l, const struct ks_entry *e, const char *sym,
		 struct ks_buf *msg)
{
	const struct ks_export *x = exported(l, sym);
	static const char *const verb[] = {
		[KS_ACTION_UNEXPORT] = "unexport",
		[KS_ACTION_GPL_ONLY] = "make GPL-only",
		[KS_ACTION_NAMESPACE] = "move into its namespace",
	};

	if (!l->users || (l->symvers && (!x || action_done(e, x))))
		return 0;
	if (ks_strmap_get(l->users, sym))
		return 0;
	ks_buf_addf(msg, "'%s' has no remaining user among %zu module%s: ready to "
			 "%s now", sym, l->modules, l->modules == 1 ? "" : "s",
		    verb[e->action]);
	return 1;
}

static const struct lint_rule rules[] = {
	/* Why and Who: the parser accepts an entry without them, reviewers don't */
	{ KS_WARNING, false, no_why },
	{ KS_WARNING, false, no_who },
	/* a schedule written after its own deadline: one of the dates is wrong */
	{ KS_ERROR, false, since_after_when },
	/* -i: a symbol the kernel does not export is a typo, or gone already */
	{ KS_ERROR, true, not_exported },
	/* -i: the deadline passed and the action was not taken: finish the job */
	{ KS_ERROR, true, overdue },
	/* -i: a gpl-only entry for what is already EXPORT_SYMBOL_GPL */
	{ KS_WARNING, true, already_gpl },
	/* -i: a namespace entry for what is already in that namespace */
	{ KS_WARNING, true, already_in_ns },
	/* --modules: nothing among the modules is concerned any more */
	{ KS_NOTE, true, ready },
};

static void run_rule(const struct ks_lint *l, const struct lint_rule *rl,
		     const struct ks_entry *e, const char *sym, struct ks_diags *d)
{
	struct ks_buf msg = KS_BUF_INIT;

	if (rl->check(l, e, sym, &msg))
		ks_diag_add(d, rl->sev, e->file, e->line, 0, "%s", msg.p);
	ks_buf_free(&msg);
}

void ks_lint_entry(const struct ks_lint *l, const struct ks_entry *e, struct ks_diags *d)
{
	for (size_t i = 0; i < KS_ARRAY_SIZE(rules); i++) {
		size_t n = rules[i].per_symbol ? e->nsyms : 1;

		for (size_t k = 0; k < n; k++)
			run_rule(l, &rules[i], e, e->syms[k], d);
	}
}
