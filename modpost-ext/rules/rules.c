/* The check rules: a const table, one commented row per rule, holding
 * everything about it (its id, when it applies, its severity, its SARIF
 * text, its wording, whether a baseline may accept it), so a new rule
 * is a new row. The first row that applies to an import makes the
 * finding. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array.h"
#include "license.h"
#include "strmap.h"
#include "module/namespace.h"
#include "module/policy.h"
#include "input/migrations.h"
#include "rules/rules.h"
#include "rules/target.h"
#include "forecast/forecast.h"
#include "wording.h"

/* Module.symvers already has it GPL-only and m's license is not
 * GPL-compatible: modpost and the loader refuse m, scheduled or not. */
static bool gpl_only_now(const struct ks_import *im)
{
	return im->x && im->x->gpl && !im->m->gpl_compatible;
}

/* Module.symvers already has it in a namespace that m does not import,
 * or in a "module:" list that does not name m. */
static bool namespace_now(const struct ks_import *im)
{
	return im->x && !ks_ns_admits(im->x->ns, im->m);
}

static bool removed(const struct ks_import *im)
{
	return im->e && im->c->symvers && im->c->symvers->n && !im->x;
}

/* Scheduled, concerning m (ks_entry_concerns), and in status st. */
static bool in_status(const struct ks_import *im, enum ks_status st)
{
	const struct ks_module *m = im->m;

	return im->e && im->ev.status == st &&
	       ks_entry_concerns(im->e, m->license, m->import_ns, m->nimport_ns);
}

static bool overdue(const struct ks_import *im)
{
	return in_status(im, KS_STATUS_OVERDUE);
}

static bool due_soon(const struct ks_import *im)
{
	return in_status(im, KS_STATUS_DUE_SOON);
}

static bool scheduled(const struct ks_import *im)
{
	return in_status(im, KS_STATUS_SCHEDULED);
}

/* "is no longer exported by the kernel (namespace NS on 2027-09-01): the
 * module will not load; use 'x' instead": the action's own advice (the
 * license, MODULE_IMPORT_NS) no longer helps, only the replacement does. */
static void word_removed(struct ks_buf *b, const struct ks_finding *f)
{
	const struct ks_entry *e = f->entry;

	ks_buf_addf(b, "is no longer exported by the kernel (%s%s%s ",
		    ks_action_name(e->action), e->ns ? " " : "", e->ns ? e->ns : "");
	ks_say_when(b, &e->when);
	ks_buf_adds(b, "): the module will not load");
	ks_say_replace(b, e);
}

/* "is GPL-only in the kernel's Module.symvers and module license 'X' is not
 * GPL-compatible: the module will not load; use 'x' instead" */
static void word_gpl_only_now(struct ks_buf *b, const struct ks_finding *f)
{
	ks_buf_addf(b, "is GPL-only in the kernel's Module.symvers and module license "
		       "'%s' is not GPL-compatible: the module will not load",
		    f->license ? f->license : "(none)");
	if (f->entry)
		ks_say_replace(b, f->entry);
}

/* "is in namespace NS in the kernel's Module.symvers: add
 * MODULE_IMPORT_NS(NS), or the module will not load" */
static void word_namespace_now(struct ks_buf *b, const struct ks_finding *f)
{
	const char *ns = f->exported->ns;

	ks_buf_addf(b, "is in namespace %s in the kernel's Module.symvers: add "
		       "MODULE_IMPORT_NS(%s), or the module will not load",
		    ns, ns);
	if (f->entry)
		ks_say_replace(b, f->entry);
}

/* The location line's tag of a schedule entry, in its tense: "removal on
 * 2027-09-01", "GPL-only since Linux 6.20". */
static void tag_entry(struct ks_buf *b, const struct ks_finding *f)
{
	ks_say_tag(b, f->entry, f->ev.status == KS_STATUS_OVERDUE);
}

/* "GPL-only in Module.symvers" */
static void tag_gpl_only_now(struct ks_buf *b, const struct ks_finding *f)
{
	(void)f;
	ks_buf_adds(b, "GPL-only in Module.symvers");
}

/* "namespace NS in Module.symvers" */
static void tag_namespace_now(struct ks_buf *b, const struct ks_finding *f)
{
	ks_buf_addf(b, "namespace %s in Module.symvers", f->exported->ns);
}

/* "will become GPL-only in Linux 6.20 (target kernel 6.1.0-57-amd64); ..." */
static void word_action(struct ks_buf *b, const struct ks_finding *f)
{
	const struct ks_entry *e = f->entry;

	ks_say_action(b, e, f->ev.status == KS_STATUS_OVERDUE);
	ks_say_days(b, &f->ev);
	if (e->when.kind == KS_WHEN_RELEASE && f->target)
		ks_buf_addf(b, " (target kernel %s)", f->target);
	ks_say_advice(b, e, f->license);
}

/* --target's forecast: a use no longer compiles there, one applies() per
 * kind of break (forecast/breaks.def) */
#define KS_BREAK(id, name, wording, sarif, decided, headers)                                   \
	static bool build_##id(const struct ks_import *im)                                      \
	{                                                                                      \
		return im->diff && im->diff->kind == KS_BREAK_##id;                            \
	}
#include "forecast/breaks.def"
#undef KS_BREAK

const struct ks_rule ks_rules[] = {
	/* --target's forecast: a use in the module's source no longer
	 * compiles on the target, one row per kind of break (breaks.def:
	 * the probe of the target's headers says which); an error, never
	 * accepted by a baseline */
#define KS_BREAK(id, name, wording, sarif, decided, headers)                                   \
	{ "ksunset/build-" name, "build-" name,	   KS_RULE_ERROR, "In the target kernel, " sarif ".", \
	  build_##id,		 ks_build_word,	   ks_build_tag,  false,			  \
	  NULL,			 decided },
#include "forecast/breaks.def"
#undef KS_BREAK
	/* --target: the target kernel does not export it; the module will
	 * not load there (the remedy says whether a rebuild is enough) */
	{ "ksunset/target-missing", "target-missing", KS_RULE_ERROR,
	  "A module uses an export that the target kernel does not have.", ks_target_missing,
	  ks_target_word, ks_target_tag, false, "missing", NULL },
	/* --target: GPL-only there, and the module's license is not */
	{ "ksunset/target-gpl-only", "target-gpl-only", KS_RULE_ERROR,
	  "A module whose license is not GPL-compatible uses an export that is GPL-only in the "
	  "target kernel.",
	  ks_target_gpl_only, ks_target_word, ks_target_tag, false, "gpl-only", NULL },
	/* --target: in a namespace the module does not import, or a "module:"
	 * list that does not name it */
	{ "ksunset/target-namespace", "target-namespace", KS_RULE_ERROR,
	  "A module uses an export that is in a namespace it cannot use in the target kernel.",
	  ks_target_namespace, ks_target_word, ks_target_tag, false, "namespace", NULL },
	/* Module.symvers (-i) has it GPL-only, the module's license is not
	 * GPL-compatible: the module will not load, scheduled or not */
	{ "ksunset/gpl-only-now", "gpl-only-now", KS_RULE_ERROR,
	  "A module whose license is not GPL-compatible uses a GPL-only export.", gpl_only_now,
	  word_gpl_only_now, tag_gpl_only_now, false, NULL, NULL },
	/* Module.symvers (-i) has it in a namespace the module does not
	 * import: the module will not load, scheduled or not */
	{ "ksunset/namespace-now", "namespace-now", KS_RULE_ERROR,
	  "A module uses an export in a namespace that it does not import.", namespace_now,
	  word_namespace_now, tag_namespace_now, false, NULL, NULL },
	/* Module.symvers (-i) no longer exports it: the module will not load */
	{ "ksunset/removed", "removed", KS_RULE_ERROR,
	  "A module uses an export that the kernel no longer has.", removed, word_removed,
	  tag_entry, false, NULL, NULL },
	/* the deadline has passed, or the target kernel reached the release */
	{ "ksunset/overdue", "overdue", KS_RULE_ERROR,
	  "A module uses an export whose removal date has passed.", overdue, word_action,
	  tag_entry, false, NULL, NULL },
	/* the deadline is within --error-within DAYS */
	{ "ksunset/due-soon", "due-soon", KS_RULE_ERROR,
	  "A module uses an export whose removal is due soon.", due_soon, word_action,
	  tag_entry, true, NULL, NULL },
	/* scheduled: a warning, so that the build tells without failing */
	{ "ksunset/scheduled", "scheduled", KS_RULE_STRICT,
	  "A module uses an export that is scheduled for removal.", scheduled, word_action,
	  tag_entry, true, NULL, NULL },
};

const size_t ks_nrules = KS_ARRAY_SIZE(ks_rules);

bool ks_loc_accepted_in_source(const struct ks_finding *f, const struct ks_loc *l)
{
	return l->accept_reason && f->rule->baseline_accepts;
}

bool ks_loc_accepted(const struct ks_finding *f, const struct ks_loc *l)
{
	return l->baselined || ks_loc_accepted_in_source(f, l);
}

bool ks_finding_accepted(const struct ks_finding *f)
{
	for (size_t i = 0; i < f->nlocs; i++)
		if (!ks_loc_accepted(f, &f->locs[i]))
			return false;
	return f->nlocs || f->baselined;
}

char *ks_finding_message(const struct ks_finding *f)
{
	struct ks_buf b = KS_BUF_INIT;

	f->rule->word(&b, f);
	return ks_buf_steal(&b);
}

/* The target release: --kernel-release, else the first word of vermagic. */
static char *target_release(const struct ks_check *c, const struct ks_module *m)
{
	const char *r = c->opts.kernel_release ? c->opts.kernel_release : m->vermagic;

	if (c->target && !c->opts.kernel_release)	/* --target without a release */
		return NULL;
	return r ? ks_xstrndup(r, strcspn(r, " ")) : NULL;
}

/* Where e stands for a module built for target (NULL: unknown). */
static struct ks_when_eval evaluate(const struct ks_check *c, const struct ks_entry *e,
				    const char *target)
{
	struct ks_release rel;
	bool have = target && ks_release_parse_target(target, &rel) == 0;

	return ks_when_evaluate(&e->when, c->opts.today, have ? &rel : NULL, c->opts.within);
}

/* Severity follows from the rule and the options only. */
static enum ks_severity grade(const struct ks_check *c, const struct ks_rule *rl)
{
	return rl->severity == KS_RULE_ERROR || c->opts.strict ? KS_ERROR : KS_WARNING;
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

static void loc_free(struct ks_loc *l)
{
	free(l->file);
	free(l->function);
	free(l->var);
	free(l->member);
	free(l->accept_reason);
	free(l->note);
	free(l->written_as);
}

/* An optional string: NULL stays NULL. */
static char *copy_opt(const char *s)
{
	return s ? ks_xstrdup(s) : NULL;
}

/* The optional strings of a use. */
static void copy_var(struct ks_loc *l, const struct ks_use *u)
{
	l->var = copy_opt(u->var);
	l->member = copy_opt(u->member);
	l->note = copy_opt(u->note);
	l->written_as = copy_opt(u->written_as);
	l->accept_reason = copy_opt(u->accept_reason);
}

static int cmp_use_symbol(const void *a, const void *b)
{
	return strcmp((*(const struct ks_use *const *)a)->symbol,
		      (*(const struct ks_use *const *)b)->symbol);
}

/* The module's uses sorted by symbol, which add_locations() bisects: a
 * module such as amdgpu.ko has thousands of findings and of uses, and
 * comparing each finding with every use took a seventh of its check. */
static void index_uses(struct ks_check *c, const struct ks_uses *uses)
{
	const struct ks_use **v = ks_xmalloc(uses->n * sizeof(*v));

	for (size_t i = 0; i < uses->n; i++)
		v[i] = &uses->v[i];
	qsort(v, uses->n, sizeof(*v), cmp_use_symbol);
	c->by_symbol.v = v;
	c->by_symbol.n = uses->n;
	c->by_symbol.of = uses;
}

/* The uses of sym: those of the index [*lo, *hi), else none. */
static void indexed(const struct ks_check *c, const char *sym, size_t *lo, size_t *hi)
{
	size_t a = 0, b = c->by_symbol.n;

	while (a < b) {
		size_t mid = a + (b - a) / 2;

		if (strcmp(c->by_symbol.v[mid]->symbol, sym) < 0)
			a = mid + 1;
		else
			b = mid;
	}
	for (*lo = *hi = a; *hi < c->by_symbol.n && !strcmp(c->by_symbol.v[*hi]->symbol, sym);)
		++*hi;
}

/* The uses of this symbol in uses (every location source, through the
 * index, or a break's sites), sorted, each location once. */
static void add_locations(const struct ks_check *c, struct ks_finding *f,
			  const struct ks_uses *uses)
{
	bool by_index = c->by_symbol.of == uses;
	size_t n = 0, k = 0, lo = 0, hi = uses->n;

	if (by_index)
		indexed(c, f->symbol, &lo, &hi);
	for (size_t i = lo; i < hi; i++)
		n += by_index || strcmp(uses->v[i].symbol, f->symbol) == 0;
	if (!n)
		return;
	f->locs = ks_xcalloc(n, sizeof(*f->locs));
	for (size_t i = lo; i < hi; i++) {
		const struct ks_use *u = by_index ? c->by_symbol.v[i] : &uses->v[i];

		if (!by_index && strcmp(u->symbol, f->symbol) != 0)
			continue;
		f->locs[k] = (struct ks_loc){ .file = ks_xstrdup(u->file), .line = u->line,
					      .col = u->col, .function = ks_xstrdup(u->function),
					      .kind = u->kind, .source = u->source };
		copy_var(&f->locs[k++], u);
	}
	qsort(f->locs, k, sizeof(*f->locs), cmp_loc);
	f->nlocs = 0;
	for (size_t i = 0; i < k; i++) {
		if (f->nlocs && !cmp_loc(&f->locs[f->nlocs - 1], &f->locs[i])) {
			loc_free(&f->locs[i]);
			continue;
		}
		f->locs[f->nlocs++] = f->locs[i];
	}
}

static void finding_free(struct ks_finding *f)
{
	free(f->module);
	free(f->module_name);
	free(f->symbol);
	free(f->license);
	free(f->target);
	for (size_t i = 0; i < f->nwritten; i++)
		free(f->written_as[i]);
	free(f->written_as);
	free(f->remedy_why);
	for (size_t i = 0; i < f->nlocs; i++)
		loc_free(&f->locs[i]);
	free(f->locs);
}

/* A source change of some of an import's uses lists only those: every
 * line a message names is one to change. */
static void drop_compiling(struct ks_finding *f)
{
	size_t n = 0;

	if (f->remedy != KS_REMEDY_SOURCE_CHANGE)
		return;
	for (size_t i = 0; i < f->nlocs; i++) {
		if (f->locs[i].compiles)
			loc_free(&f->locs[i]);
		else
			f->locs[n++] = f->locs[i];
	}
	f->nlocs = n;
}

static struct ks_finding *new_finding(struct ks_findings *fs)
{
	ks_array_room((void **)&fs->v, &fs->cap, fs->n + 1, sizeof(*fs->v));
	memset(&fs->v[fs->n], 0, sizeof(fs->v[0]));
	return &fs->v[fs->n++];
}

static void add_finding(struct ks_check *c, const struct ks_import *im,
			const struct ks_rule *rl, char *target, bool other_schedule)
{
	struct ks_finding *f = new_finding(&c->found);
	const struct ks_module *m = im->m;

	*f = (struct ks_finding){ .entry = im->e, .exported = im->x, .rule = rl, .ev = im->ev,
				  .sev = grade(c, rl), .target = target,
				  .plugin = m->nunits > 0, .other_schedule = other_schedule,
				  .no_debug_info = m->no_debug_info,
				  .generated = ks_import_generated(im->sym),
				  .diff = im->diff };
	f->module = ks_xstrdup(m->path);
	f->module_name = ks_xstrdup(m->name);
	f->symbol = ks_xstrdup(im->sym);
	f->license = m->license ? ks_xstrdup(m->license) : NULL;
	add_locations(c, f, im->diff ? &im->diff->sites : &m->uses);
	if (rl->target_status)
		ks_target_remedy(c, m, f);
	drop_compiling(f);
}

/* The first rule that applies to import sym, if any, makes a finding.
 * Every rule but --target's needs a schedule entry or an export, so an
 * import with neither costs two hash lookups; one with only an export, a
 * few field tests. */
static void check_import(struct ks_check *c, const struct ks_module *m, const char *sym,
			 bool other_schedule)
{
	struct ks_import im = { .c = c, .m = m, .sym = sym };
	char *target = NULL;

	im.e = ks_schedule_lookup(c->sched, sym);
	im.x = c->symvers ? ks_symvers_lookup(c->symvers, sym) : NULL;
	if (!im.e && !im.x && !c->target)
		return;
	if (im.e || c->target)
		target = target_release(c, m);
	if (im.e)
		im.ev = evaluate(c, im.e, target);
	for (size_t i = 0; i < ks_nrules; i++) {
		if (ks_rules[i].applies(&im)) {
			add_finding(c, &im, &ks_rules[i], target, other_schedule);
			return;
		}
	}
	free(target);
}

/* Whether m was built with the plugin under another schedule than c's. */
static bool other_schedule(const struct ks_check *c, const struct ks_module *m)
{
	char digest[17];

	if (!m->nunits || (c->target && !c->sched->n))	/* --target alone */
		return false;
	ks_schedule_digest_hex(c->sched, digest);
	return m->mixed_digests || strcmp(m->digest, digest);
}

/* A break that in-tree code adapted to (a header gone, a call that takes
 * other arguments, a name gone, a member become read-only, a name or
 * struct the unit's headers no longer declare): the migrations' entry,
 * when they are of the release m was built for. A read-only member's,
 * and one gone that no Read: entry has, is the Assign: one of how its
 * first location assigns it (ks_migrations_assign()); a call's that no
 * Call: entry has, the Argument: one of what a location passes; a name
 * or struct that has none, the #include of the target's header that
 * declares or defines it. */
static void add_fix(const struct ks_check *c, const struct ks_module *m, struct ks_finding *f)
{
	const struct ks_diff *d = f->diff;
	bool header = d->kind == KS_BREAK_HEADER_GONE,
	     include = d->kind == KS_BREAK_NOT_INCLUDED || d->kind == KS_BREAK_INCOMPLETE;
	const struct ks_migration *r;
	char *name = NULL, *x;
	bool from;

	if (!c->migrations || !m->vermagic ||
	    (!header && !include && d->kind != KS_BREAK_ARITY && d->kind != KS_BREAK_PROTOTYPE &&
	     d->kind != KS_BREAK_GONE && d->kind != KS_BREAK_READ_ONLY &&
	     d->kind != KS_BREAK_CALLBACK_PROTOTYPE && d->kind != KS_BREAK_MEMBER_GONE))
		return;
	x = ks_release_xy(m->vermagic);
	from = x && !strcmp(x, c->migrations->from);
	free(x);
	if (!from)
		return;
	/* a header as written, <name> or "name"; a call's name; a member's
	 * and its operator; a callback's member or one gone, "struct S.MEMBER";
	 * the struct an incomplete one's member is of */
	if (header)
		name = ks_xstrndup(d->name + 1, strlen(d->name) >= 2 ? strlen(d->name) - 2 : 0);
	else if (include)
		name = ks_xstrndup(d->name, strcspn(d->name, "."));
	else if (d->kind != KS_BREAK_READ_ONLY)
		name = ks_xstrdup(d->name);
	f->fix = !name	   ? NULL
		 : include ? ks_migrations_include(c->migrations, name)
			   : ks_migrations_find(c->migrations, name, !header);
	/* a member gone: the Read: entry of the field its first location
	 * reads, where the file has one ("struct inode.i_mtime.tv_sec"),
	 * else the whole member's */
	if (d->kind == KS_BREAK_MEMBER_GONE && name && f->nlocs &&
	    (r = ks_migrations_read(c->migrations, name, f->locs[0].file, f->locs[0].line)))
		f->fix = r;
	/* a member read-only, or gone with no Read: entry: the Assign: one
	 * of how its first location assigns it */
	if (!f->fix && strrchr(d->name, '.') && f->nlocs &&
	    (d->kind == KS_BREAK_READ_ONLY || d->kind == KS_BREAK_MEMBER_GONE))
		f->fix = ks_migrations_assign(c->migrations, strrchr(d->name, '.') + 1,
					      f->locs[0].file, f->locs[0].line);
	/* a call whose callers kept their arguments' number, or of a
	 * function gone that the older headers wrap once per constant: the
	 * Argument: entry of what the first location that has one passes */
	for (size_t i = 0; !f->fix && (d->kind == KS_BREAK_ARITY || d->kind == KS_BREAK_PROTOTYPE ||
				       d->kind == KS_BREAK_GONE) &&
			   i < f->nlocs;
	     i++)
		f->fix = ks_migrations_argument(c->migrations, d->name, f->locs[i].file,
						f->locs[i].line);
	/* no #include in-tree code added: the target's header that declares
	 * (or defines) it */
	if (!f->fix && include && name && d->header)
		f->fix = ks_migrations_target_include(c->migrations, name, d->header);
	f->fixes = f->fix ? c->migrations : NULL;
	free(name);
}

/* --target's forecast: each break of m's build there, tried against the
 * rules as an import is. */
static void check_builds(struct ks_check *c, const struct ks_module *m, bool other)
{
	const struct ks_verdict *v = c->forecast ? ks_forecast_lookup(c->forecast, m->path) : NULL;

	for (size_t i = 0; v && i < v->ndiffs; i++) {
		/* the schedule may name a replacement (--history does) */
		struct ks_import im = { .c = c, .m = m, .sym = v->diffs[i].name,
					.e = ks_schedule_lookup(c->sched, v->diffs[i].name),
					.diff = &v->diffs[i] };

		for (size_t k = 0; k < ks_nrules; k++) {
			if (!ks_rules[k].applies(&im))
				continue;
			add_finding(c, &im, &ks_rules[k], target_release(c, m), other);
			add_fix(c, m, &c->found.v[c->found.n - 1]);
			break;
		}
	}
}

void ks_check_module(struct ks_check *c, const struct ks_module *m)
{
	bool other = other_schedule(c, m);

	index_uses(c, &m->uses);
	for (size_t i = 0; i < m->nundef; i++)
		check_import(c, m, m->undef[i], other);
	check_builds(c, m, other);
	free(c->by_symbol.v);
	c->by_symbol.v = NULL;
	c->by_symbol.n = 0;
	c->by_symbol.of = NULL;
}

bool ks_findings_have(const struct ks_findings *f, const char *sym)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->v[i].symbol, sym))
			return true;
	return false;
}

/* By module; a module's forecast breaks after its imports, by kind. */
static int cmp_finding(const void *a, const void *b)
{
	const struct ks_finding *x = a, *y = b;
	int r = strcmp(x->module, y->module);
	int kx = x->diff ? 1 + (int)x->diff->kind : 0, ky = y->diff ? 1 + (int)y->diff->kind : 0;

	if (!r && kx != ky)
		r = kx < ky ? -1 : 1;
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
