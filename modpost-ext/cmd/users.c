/* ksunset users: which modules import a symbol, and where (from the
 * plugin's records). Exit 0 when some user was found, 1 when none, so a
 * script can ask whether an export is safe to drop. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules.h"
#include "cmd/cli.h"
#include "cmd/cmd.h"
#include "input/scan.h"
#include "rules/imports.h"

struct users_opts {
	struct ks_paths syms, modules;
	const char *today;
	enum ks_format format;
	struct ks_locate_opts dwarf;	/* --locations, --debug-dir */
	int32_t today_days;
};

static const char help[] =
	"Usage: ksunset users [OPTION]... SYMBOL... -- MODULE...\n"
	"List, for each SYMBOL, every module that imports it, with the source\n"
	"locations the ksunset plugin recorded, or else the module's DWARF.\n"
	"MODULE: a .ko/.o (or .ko.xz,\n"
	"ko.zst, .ko.gz), a directory (searched recursively) or a modules.order file.\n\n"
	"      --format FMT  text (default) or json\n"
	"      --today DATE  take DATE (YYYY-MM-DD) as today\n"
	KS_CLI_DWARF_HELP
	"  -h, --help        show this help\n\n"
	"Text output: a line 'SYMBOL<TAB>MODULE' per user, each followed by its\n"
	"uses as 'FILE:LINE:COL: note: ...'.\n"
	"Exit status: 0 some user found, 1 none, 2 bad usage or unusable input.\n";

enum { OPT_FORMAT = 256, OPT_TODAY };

static const struct option longopts[] = {
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "today", required_argument, NULL, OPT_TODAY },
	KS_CLI_DWARF_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

static int option(void *ctx, int c, const char *arg)
{
	struct users_opts *o = ctx;	/* the first member of struct run */

	switch (c) {
	case OPT_FORMAT:
		return ks_cli_format("users", arg, 0, &o->format);
	case OPT_TODAY:
		o->today = arg;
		return 0;
	case KS_CLI_OPT_LOCATIONS:
	case KS_CLI_OPT_DEBUG_DIR:
		return ks_cli_dwarf_opt("users", c, arg, &o->dwarf);
	}
	return -EINVAL;
}

/* Symbols before "--", modules after it. */
static int operand(void *ctx, const char *arg, bool after_dashdash)
{
	struct users_opts *o = ctx;

	ks_paths_add(after_dashdash ? &o->modules : &o->syms, arg);
	return 0;
}

static int ready(void *ctx)
{
	struct users_opts *o = ctx;

	if (!o->syms.n || !o->modules.n) {
		ks_usage_error("users", "expected SYMBOL... -- MODULE...");
		return -EINVAL;
	}
	for (size_t i = 0; i < o->syms.n; i++) {
		if (!ks_is_identifier(o->syms.v[i])) {
			ks_usage_error("users", "bad symbol name '%s'", o->syms.v[i]);
			return -EINVAL;
		}
	}
	if (ks_cli_dwarf_env("users", &o->dwarf) < 0)
		return -EINVAL;
	return ks_cli_today("users", o->today, &o->today_days);
}

struct run {
	struct users_opts o;
	struct ks_schedule sched;
	struct ks_check check;
	struct ks_scan scan;
	struct ks_diags *problems;
};

static int check_module(void *ctx, const struct ks_module *m)
{
	ks_check_module(&((struct run *)ctx)->check, m);
	return 0;
}

static bool asked_for(void *ctx, const struct ks_module *m, const char *sym)
{
	const struct users_opts *o = ctx;

	(void)m;
	for (size_t i = 0; i < o->syms.n; i++)
		if (!strcmp(o->syms.v[i], sym))
			return true;
	return false;
}

/* Lines from the other location sources for the imports asked about
 * (cmd/locate.h), on the
 * reading threads: what is asked is known from the start. */
static void locate(void *ctx, struct ks_module *m, struct ks_diags *d)
{
	struct run *r = ctx;

	ks_locate_module(m, &r->o.dwarf, asked_for, &r->o, d);
}

static void text_user(const struct ks_finding *f)
{
	printf("%s\t%s\n", f->symbol, f->module);
	for (size_t i = 0; i < f->nlocs; i++) {
		const struct ks_loc *l = &f->locs[i];

		if (l->var)
			printf("%s:%u:%u: note: uses '%s' (%s) in the initializer of '%s'%s%s%s\n",
			       l->file, l->line, l->col, f->symbol, ks_use_kind_name(l->kind), l->var,
			       l->member[0] ? " (" : "", l->member, l->member[0] ? ")" : "");
		else
			printf("%s:%u:%u: note: uses '%s' (%s) %s%s%s\n", l->file, l->line, l->col,
			       f->symbol, ks_use_kind_name(l->kind),
			       l->function[0] ? "in " : "at file scope", l->function,
			       l->function[0] ? "()" : "");
	}
}

/* Prints sym's users, or says there is none. */
static void text_symbol(const struct run *r, const char *sym)
{
	const struct ks_findings *fs = &r->check.found;

	for (size_t i = 0; i < fs->n; i++)
		if (!strcmp(fs->v[i].symbol, sym))
			text_user(&fs->v[i]);
	if (!ks_findings_have(fs, sym))
		fprintf(stderr, "ksunset: '%s': no user among %zu module%s\n", sym, r->scan.modules,
			r->scan.modules == 1 ? "" : "s");
}

/* Writes the users of each symbol; *with_users: how many symbols have any. */
static int write_users(const struct run *r, size_t *with_users)
{
	const struct ks_users_doc doc = {
		.today = r->o.today_days,
		.modules = r->scan.modules,
		.syms = r->o.syms.v,
		.nsyms = r->o.syms.n,
		.found = &r->check.found,
		.problems = r->problems,
	};

	for (size_t i = 0; i < r->o.syms.n; i++)
		*with_users += ks_findings_have(&r->check.found, r->o.syms.v[i]);
	if (r->o.format == KS_FORMAT_JSON)
		return ks_report_users(stdout, &doc);
	for (size_t i = 0; i < r->o.syms.n; i++)
		text_symbol(r, r->o.syms.v[i]);
	return 0;
}

/* The users found, sorted. */
static int find_users(struct run *r)
{
	int e = ks_users_schedule(&r->sched, r->o.syms.v, r->o.syms.n, r->problems);

	r->check.sched = &r->sched;
	r->check.opts = (struct ks_check_opts){ .today = r->o.today_days, .within = -1 };
	r->scan.progress = r->o.format == KS_FORMAT_TEXT;
	r->scan.locate_in_reader = locate;
	if (!e)
		e = ks_scan_modules(&r->scan, r->o.modules.v, r->o.modules.n, check_module, r,
				    r->problems);
	if (!e)
		ks_findings_sort(&r->check.found);
	return e;
}

/* No user found is exit 1, so a script can ask whether an export is safe
 * to drop. */
static int run(void *ctx, struct ks_diags *d, struct ks_outcome *out)
{
	struct run *r = ctx;
	size_t with_users = 0;
	int e;

	r->problems = d;
	e = find_users(r);
	out->unusable = r->scan.unusable;
	if (!e)
		ks_cmd_report_written(write_users(r, &with_users), out);
	out->findings = !with_users;
	return e;
}

static void run_free(void *ctx)
{
	struct run *r = ctx;

	ks_findings_free(&r->check.found);
	ks_schedule_free(&r->sched);
	ks_paths_free(&r->o.syms);
	ks_paths_free(&r->o.modules);
}

const struct ks_cmd ks_cmd_users = {
	.name = "users",
	.summary = "list the modules that import a symbol, and where",
	.help = help,
	.longopts = longopts,
	.dashdash = true,
	.size = sizeof(struct run),
	.option = option,
	.operand = operand,
	.ready = ready,
	.run = run,
	.free = run_free,
};
