/* ksunset lint: reads schedules and reports every problem in them, not
 * only the first. With the kernel's Module.symvers it also finds entries
 * for symbols that are gone or whose deadline passed; with --modules, the
 * entries nothing uses any more. --list prints the entries with the time left. */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "rules/rules.h"
#include "cmd/cli.h"
#include "cmd/cmd.h"
#include "rules/lintrules.h"
#include "input/scan.h"

struct lint_opts {
	struct ks_paths schedules, symvers, modules;
	const char *today, *release, *kernel_dir;
	int list;
	struct ks_release target;
};

static const char help[] =
	"Usage: ksunset lint [-s SCHEDULE]... [-i Module.symvers]... [OPTION]... [SCHEDULE]...\n"
	"Check schedule files; report every problem as FILE:LINE: error|warning|note: ...\n\n"
	"  -s, --schedule FILE       a schedule to check (repeatable; default as for check)\n"
	"  -i, --symvers FILE        the kernel's Module.symvers: report entries for symbols\n"
	"                            not exported, overdue entries still exported, and\n"
	"                            gpl-only/namespace entries already done (repeatable)\n"
	"      --kernel-dir KDIR     kernel build dir: KDIR/ksunset.schedule and, without\n"
	"                            -i, KDIR/Module.symvers\n"
	"      --modules MODULE      report entries that no MODULE (a .ko, a directory, a\n"
	"                            modules.order) still needs as ready (repeatable)\n"
	"      --kernel-release REL  the kernel release for entries dated by release\n"
	"      --list                print each entry with the days left until removal\n"
	"      --today DATE          take DATE (YYYY-MM-DD) as today\n"
	"  -h, --help                show this help\n\n"
	"Exit status: 0 clean (warnings allowed), 1 errors found, 2 bad usage or\n"
	"unreadable input.\n";

enum { OPT_LIST = 256, OPT_TODAY, OPT_KDIR, OPT_MODULES, OPT_RELEASE };

static const struct option longopts[] = {
	{ "schedule", required_argument, NULL, 's' },
	{ "symvers", required_argument, NULL, 'i' },
	{ "modules", required_argument, NULL, OPT_MODULES },
	{ "kernel-dir", required_argument, NULL, OPT_KDIR },
	{ "kernel-release", required_argument, NULL, OPT_RELEASE },
	{ "list", no_argument, NULL, OPT_LIST },
	{ "today", required_argument, NULL, OPT_TODAY },
	{ NULL, 0, NULL, 0 },
};

static int option(void *ctx, int c, const char *arg)
{
	struct lint_opts *o = ctx;	/* the first member of struct run */

	switch (c) {
	case 's':
		ks_paths_add(&o->schedules, arg);
		return 0;
	case 'i':
		ks_paths_add(&o->symvers, arg);
		return 0;
	case OPT_MODULES:
		ks_paths_add(&o->modules, arg);
		return 0;
	case OPT_LIST:
		o->list = 1;
		return 0;
	case OPT_TODAY:
		o->today = arg;
		return 0;
	case OPT_KDIR:
		o->kernel_dir = arg;
		return 0;
	case OPT_RELEASE:
		o->release = arg;
		if (ks_release_parse_target(arg, &o->target) == 0)
			return 0;
		ks_usage_error("lint", "bad --kernel-release '%s': expected e.g. 6.14 or 6.1.0-57-amd64",
			       arg);
		return -EINVAL;
	}
	return -EINVAL;
}

/* A SCHEDULE operand is one more -s. */
static int operand(void *ctx, const char *arg, bool after_dashdash)
{
	struct lint_opts *o = ctx;

	(void)after_dashdash;
	ks_paths_add(&o->schedules, arg);
	return 0;
}

static void print_entry(const struct ks_entry *e, int32_t today)
{
	struct ks_when_eval ev = ks_when_evaluate(&e->when, today, NULL, -1);

	for (size_t i = 0; i < e->nsyms; i++) {
		int w = printf("%-32s %-10s %s%s%s", e->syms[i], e->when.text,
			       ks_action_name(e->action), e->ns ? " " : "", e->ns ? e->ns : "");

		printf("%*s", w < 62 ? 62 - w : 1, "");
		if (!ev.have_days)
			printf("at kernel release %s", e->when.text);
		else if (ev.days_left > 0)
			printf("in %d day%s", ev.days_left, ev.days_left == 1 ? "" : "s");
		else if (ev.days_left == 0)
			printf("due today");
		else
			printf("overdue by %d day%s", -ev.days_left, ev.days_left == -1 ? "" : "s");
		printf("%s%s\n", e->replace ? "; replace: " : "", e->replace ? e->replace : "");
	}
}

struct run {
	struct lint_opts o;
	struct ks_schedule sched;
	struct ks_symvers symvers;
	struct ks_check check;		/* --modules: who is still concerned */
	struct ks_strmap users;
	struct ks_scan scan;
	struct ks_diags *d;
	struct ks_lint lint;
	int err;			/* the worst load result */
};

/* Keeps the worst: an unreadable file, then bad content. */
static void note(struct run *r, int e)
{
	if (e < 0 && (r->err == 0 || r->err == -EINVAL))
		r->err = e;
}

/* -i, else KDIR/Module.symvers when there is one. */
static void load_symvers(struct run *r)
{
	if (!r->o.symvers.n && r->o.kernel_dir) {
		char *p = ks_strdupf("%s/Module.symvers", r->o.kernel_dir);

		if (access(p, F_OK) == 0)
			ks_paths_add(&r->o.symvers, p);
		free(p);
	}
	for (size_t i = 0; i < r->o.symvers.n; i++)
		note(r, ks_symvers_load(&r->symvers, r->o.symvers.v[i], r->d));
	r->lint.symvers = r->o.symvers.n ? &r->symvers : NULL;
}

static int check_module(void *ctx, const struct ks_module *m)
{
	ks_check_module(ctx, m);
	return 0;
}

/* Counts, per scheduled symbol, the modules its entry still concerns. */
static int count_users(struct run *r)
{
	int e;

	r->check.sched = &r->sched;
	r->check.opts = (struct ks_check_opts){ .today = r->lint.today, .within = -1 };
	e = ks_scan_modules(&r->scan, r->o.modules.v, r->o.modules.n, check_module, &r->check,
			    r->d);
	if (r->scan.unusable && !e)
		note(r, -EIO);
	for (size_t i = 0; !e && i < r->check.found.n; i++) {
		void **slot;

		ks_strmap_put(&r->users, r->check.found.v[i].symbol, &slot);
		*slot = (void *)((uintptr_t)*slot + 1);
	}
	/* "no remaining user" is a claim about every module given: none when
	 * one of them could not be read */
	r->lint.users = r->scan.unusable ? NULL : &r->users;
	r->lint.modules = r->scan.modules;
	return e < 0 ? e : 0;
}

static int pipeline(struct run *r)
{
	int e;

	note(r, ks_cli_load_schedules(&r->sched, &r->o.schedules, r->o.kernel_dir, 1, r->d));
	load_symvers(r);
	r->lint.target = r->o.release ? &r->o.target : NULL;
	if (r->o.modules.n && (e = count_users(r)) < 0)
		return e;
	for (size_t i = 0; i < r->sched.n; i++)
		ks_lint_entry(&r->lint, r->sched.entries[i], r->d);
	return r->err;
}

static int ready(void *ctx)
{
	struct run *r = ctx;

	return ks_cli_today("lint", r->o.today, &r->lint.today);
}

/* Errors in a schedule are findings (exit 1); unreadable input is exit 2. */
static int run(void *ctx, struct ks_diags *d, struct ks_outcome *out)
{
	struct run *r = ctx;
	int e;

	r->d = d;
	e = pipeline(r);
	if (r->o.list)
		for (size_t i = 0; i < r->sched.n; i++)
			print_entry(r->sched.entries[i], r->lint.today);
	out->findings = d->nerrors > 0 || e == -EINVAL;
	return e == -EINVAL ? 0 : e;
}

static void summary(void *ctx, const struct ks_diags *d)
{
	(void)ctx;
	if (d->nerrors || d->nwarnings)
		fprintf(stderr, "ksunset: %zu error%s, %zu warning%s\n", d->nerrors,
			d->nerrors == 1 ? "" : "s", d->nwarnings, d->nwarnings == 1 ? "" : "s");
}

static void run_free(void *ctx)
{
	struct run *r = ctx;

	ks_strmap_free(&r->users);
	ks_findings_free(&r->check.found);
	ks_symvers_free(&r->symvers);
	ks_schedule_free(&r->sched);
	ks_paths_free(&r->o.schedules);
	ks_paths_free(&r->o.symvers);
	ks_paths_free(&r->o.modules);
}

const struct ks_cmd ks_cmd_lint = {
	.name = "lint",
	.summary = "check schedule files for errors",
	.help = help,
	.shortopts = "s:i:",
	.longopts = longopts,
	.size = sizeof(struct run),
	.option = option,
	.operand = operand,
	.ready = ready,
	.run = run,
	.sort_diags = true,
	.summarize = summary,
	.free = run_free,
};
