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
#include "report/json.h"
#include "input/scan.h"
#include "rules/imports.h"

struct users_opts {
	struct ks_paths syms, modules;
	const char *today;
	enum ks_format format;
	int32_t today_days;
};

static void users_help(void)
{
	printf("Usage: ksunset users [OPTION]... SYMBOL... -- MODULE...\n"
	       "List, for each SYMBOL, every module that imports it, with the source\n"
	       "locations the ksunset plugin recorded. MODULE: a .ko/.o (or .ko.xz,\n"
	       "ko.zst, .ko.gz), a directory (searched recursively) or a modules.order file.\n\n"
	       "      --format FMT  text (default) or json\n"
	       "      --today DATE  take DATE (YYYY-MM-DD) as today\n"
	       "  -h, --help        show this help\n\n"
	       "Text output: a line 'SYMBOL<TAB>MODULE' per user, each followed by its\n"
	       "uses as 'FILE:LINE:COL: note: ...'.\n"
	       "Exit status: 0 some user found, 1 none, 2 bad usage or unusable input.\n");
}

enum { OPT_FORMAT = 256, OPT_TODAY };

static int take_opt(int c, char **argv, void *opts)
{
	struct users_opts *o = opts;

	switch (c) {
	case 'h':
		users_help();
		return KS_EXIT_OK;
	case OPT_FORMAT:
		return ks_cli_format("users", optarg, 0, &o->format) < 0 ? KS_EXIT_USAGE : -1;
	case OPT_TODAY:
		o->today = optarg;
		return -1;
	default:
		return ks_cli_bad_option("users", c, argv);
	}
}

/* Options and symbols come before "--", modules after it. */
static int split_args(int argc, char **argv, struct users_opts *o)
{
	int sep = 1;

	while (sep < argc && strcmp(argv[sep], "--") != 0)
		sep++;
	for (int i = sep + 1; i < argc; i++)
		if (ks_paths_add(&o->modules, argv[i]) < 0)
			return -ENOMEM;
	return sep;
}

static int check_syms(const struct users_opts *o)
{
	if (!o->syms.n || !o->modules.n) {
		ks_usage_error("users", "expected SYMBOL... -- MODULE...");
		return KS_EXIT_USAGE;
	}
	for (size_t i = 0; i < o->syms.n; i++) {
		if (!ks_is_identifier(o->syms.v[i])) {
			ks_usage_error("users", "bad symbol name '%s'", o->syms.v[i]);
			return KS_EXIT_USAGE;
		}
	}
	return -1;
}

static int parse_opts(int argc, char **argv, struct users_opts *o)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "today", required_argument, NULL, OPT_TODAY },
		{ NULL, 0, NULL, 0 },
	};
	int r, sep = split_args(argc, argv, o);

	if (sep < 0)
		return KS_EXIT_USAGE;
	if ((r = ks_cli_parse(sep, argv, ":h", longopts, take_opt, o, &o->syms)) >= 0)
		return r;
	if ((r = check_syms(o)) >= 0)
		return r;
	return ks_cli_today("users", o->today, &o->today_days) < 0 ? KS_EXIT_USAGE : -1;
}

struct run {
	struct users_opts o;
	struct ks_schedule sched;
	struct ks_check check;
	struct ks_scan scan;
	struct ks_diags problems;
};

static int check_module(void *ctx, const struct ks_module *m)
{
	return ks_check_module(ctx, m);
}

static void text_user(const struct ks_finding *f)
{
	printf("%s\t%s\n", f->symbol, f->module);
	for (size_t i = 0; i < f->nlocs; i++) {
		const struct ks_loc *l = &f->locs[i];

		printf("%s:%u:%u: note: uses '%s' (%s) %s%s%s\n", l->file, l->line, l->col,
		       f->symbol, ks_use_kind_name(l->kind), l->function[0] ? "in " : "at file scope",
		       l->function, l->function[0] ? "()" : "");
	}
}

static void json_user(const struct ks_finding *f, bool first)
{
	fputs(first ? "\n      {\"module\": " : ",\n      {\"module\": ", stdout);
	ks_json_str(stdout, f->module);
	fputs(", \"module_name\": ", stdout);
	ks_json_str(stdout, f->module_name);
	fputs(", ", stdout);
	ks_json_locations(stdout, f->locs, f->nlocs);
	fputs("}", stdout);
}

/* Prints sym's users; returns how many there are. */
static size_t write_symbol(const struct run *r, const char *sym, bool last)
{
	const struct ks_findings *fs = &r->check.found;
	bool json = r->o.format == KS_FORMAT_JSON;
	size_t n = 0;

	if (json) {
		fputs("    {\"symbol\": ", stdout);
		ks_json_str(stdout, sym);
		fputs(", \"users\": [", stdout);
	}
	for (size_t i = 0; i < fs->n; i++) {
		if (strcmp(fs->v[i].symbol, sym) != 0)
			continue;
		if (json)
			json_user(&fs->v[i], n == 0);
		else
			text_user(&fs->v[i]);
		n++;
	}
	if (json)
		printf("%s]}%s\n", n ? "\n    " : "", last ? "" : ",");
	else if (!n)
		fprintf(stderr, "ksunset: '%s': no user among %zu module%s\n", sym, r->scan.modules,
			r->scan.modules == 1 ? "" : "s");
	return n;
}

static size_t write_users(const struct run *r)
{
	size_t with_users = 0;
	char today[KS_DATE_LEN];

	ks_date_format(r->o.today_days, today);
	if (r->o.format == KS_FORMAT_JSON)
		printf("{\n  \"tool\": \"ksunset\", \"version\": \"%s\", \"command\": \"users\", "
		       "\"today\": \"%s\",\n  \"modules_scanned\": %zu,\n  \"symbols\": [\n",
		       KS_VERSION, today, r->scan.modules);
	for (size_t i = 0; i < r->o.syms.n; i++)
		with_users += write_symbol(r, r->o.syms.v[i], i + 1 == r->o.syms.n) > 0;
	if (r->o.format == KS_FORMAT_JSON) {
		fputs("  ],\n", stdout);
		ks_json_problems(stdout, &r->problems);
		fputs("}\n", stdout);
	}
	return with_users;
}

static int pipeline(struct run *r, size_t *with_users)
{
	int e = ks_users_schedule(&r->sched, r->o.syms.v, r->o.syms.n, &r->problems);

	r->check.sched = &r->sched;
	r->check.opts = (struct ks_check_opts){ .today = r->o.today_days, .within = -1 };
	if (!e)
		e = ks_scan_modules(&r->scan, r->o.modules.v, r->o.modules.n, check_module,
				    &r->check, &r->problems);
	if (e)
		return e;
	ks_findings_sort(&r->check.found);
	*with_users = write_users(r);
	return 0;
}

int ks_cmd_users(int argc, char **argv)
{
	struct run r = { 0 };
	size_t with_users = 0;
	int ret = parse_opts(argc, argv, &r.o);

	if (ret < 0)
		ret = ks_cli_elf_init();
	if (ret < 0) {
		int e = pipeline(&r, &with_users);

		ks_cli_report(&r.problems, e);
		ret = e < 0 || r.scan.unusable ? KS_EXIT_USAGE
		      : with_users	      ? KS_EXIT_OK
					      : KS_EXIT_FINDINGS;
	}
	ks_findings_free(&r.check.found);
	ks_schedule_free(&r.sched);
	ks_diags_free(&r.problems);
	ks_paths_free(&r.o.syms);
	ks_paths_free(&r.o.modules);
	return ret;
}
