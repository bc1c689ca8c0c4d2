/* ksunset unused: the exports that none of the given modules imports, the
 * candidates for removal; --counts gives every export's number of
 * importers, as the kernel's export_report once did. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cli.h"
#include "cmd/cmd.h"
#include "report/json.h"
#include "input/scan.h"
#include "rules/imports.h"

struct unused_opts {
	struct ks_paths symvers, modules;
	const char *owner, *today;
	bool counts;
	enum ks_format format;
	int32_t today_days;
};

static void unused_help(void)
{
	printf("Usage: ksunset unused -i Module.symvers [OPTION]... MODULE...\n"
	       "List the exports of Module.symvers that none of the modules imports:\n"
	       "candidates for removal. MODULE: a .ko/.o (or .ko.xz, .ko.zst, .ko.gz), a\n"
	       "directory (searched recursively) or a modules.order file.\n\n"
	       "  -i, --symvers FILE   the kernel's Module.symvers (repeatable, required)\n"
	       "      --module OWNER   only the exports of OWNER: vmlinux, or a module as\n"
	       "                       Module.symvers' third column names it (or its last part)\n"
	       "      --counts         list every export with the number of modules importing it\n"
	       "      --format FMT     text (default) or json\n"
	       "      --today DATE     take DATE (YYYY-MM-DD) as today\n"
	       "  -h, --help           show this help\n\n"
	       "Text output, one export a line, sorted by symbol, tab-separated:\n"
	       "  [COUNT] SYMBOL EXPORT-TYPE NAMESPACE-or-'-' OWNER\n"
	       "Exit status: 0 success, 2 bad usage or unusable input.\n");
}

enum { OPT_MODULE = 256, OPT_COUNTS, OPT_FORMAT, OPT_TODAY };

static int take_opt(int c, char **argv, void *opts)
{
	struct unused_opts *o = opts;

	switch (c) {
	case 'i':
		return ks_paths_add(&o->symvers, optarg) < 0 ? KS_EXIT_USAGE : -1;
	case 'h':
		unused_help();
		return KS_EXIT_OK;
	case OPT_MODULE:
		o->owner = optarg;
		return -1;
	case OPT_COUNTS:
		o->counts = true;
		return -1;
	case OPT_FORMAT:
		return ks_cli_format("unused", optarg, 0, &o->format) < 0 ? KS_EXIT_USAGE : -1;
	case OPT_TODAY:
		o->today = optarg;
		return -1;
	default:
		return ks_cli_bad_option("unused", c, argv);
	}
}

static int parse_opts(int argc, char **argv, struct unused_opts *o)
{
	static const struct option longopts[] = {
		{ "symvers", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ "module", required_argument, NULL, OPT_MODULE },
		{ "counts", no_argument, NULL, OPT_COUNTS },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "today", required_argument, NULL, OPT_TODAY },
		{ NULL, 0, NULL, 0 },
	};
	int r = ks_cli_parse(argc, argv, ":i:h", longopts, take_opt, o, &o->modules);

	if (r >= 0)
		return r;
	if (!o->symvers.n || !o->modules.n) {
		ks_usage_error("unused", "%s", !o->symvers.n ? "no -i Module.symvers given"
							     : "no MODULE given");
		return KS_EXIT_USAGE;
	}
	return ks_cli_today("unused", o->today, &o->today_days) < 0 ? KS_EXIT_USAGE : -1;
}

struct run {
	struct unused_opts o;
	struct ks_symvers sv;
	struct ks_imports usage;
	struct ks_scan scan;
	struct ks_diags problems;
	const struct ks_export **list;
	size_t nlist;
};

static int count_module(void *ctx, const struct ks_module *m)
{
	return ks_imports_add(ctx, m);
}

static int load_symvers(struct run *r)
{
	for (size_t i = 0; i < r->o.symvers.n; i++) {
		int e = ks_symvers_load(&r->sv, r->o.symvers.v[i], &r->problems);

		if (e == -ENOMEM)
			return e;
		r->scan.unusable |= e < 0;
	}
	if (r->o.owner) {
		for (size_t i = 0; i < r->sv.n; i++)
			if (ks_export_owned_by(r->sv.v[i], r->o.owner))
				return 0;
		return ks_diag_add(&r->problems, KS_ERROR, NULL, 0, 0,
				   "--module %s: no export of Module.symvers belongs to it",
				   r->o.owner) < 0 ? -ENOMEM : -ENOENT;
	}
	return 0;
}

static void write_text(const struct run *r)
{
	for (size_t i = 0; i < r->nlist; i++) {
		const struct ks_export *e = r->list[i];

		if (r->o.counts)
			printf("%zu\t", ks_imports_count(&r->usage, e->symbol));
		printf("%s\t%s\t%s\t%s\n", e->symbol, e->type, e->ns[0] ? e->ns : "-", e->module);
	}
}

static void write_json(const struct run *r)
{
	char today[KS_DATE_LEN];

	ks_date_format(r->o.today_days, today);
	printf("{\n  \"tool\": \"ksunset\", \"version\": \"%s\", \"command\": \"unused\", "
	       "\"today\": \"%s\",\n  \"modules_scanned\": %zu, \"owner\": ",
	       KS_VERSION, today, r->scan.modules);
	ks_json_str(stdout, r->o.owner);
	printf(", \"counts\": %s,\n  \"exports\": [\n", r->o.counts ? "true" : "false");
	for (size_t i = 0; i < r->nlist; i++) {
		const struct ks_export *e = r->list[i];

		fputs("    {\"symbol\": ", stdout);
		ks_json_str(stdout, e->symbol);
		printf(", \"type\": \"%s\", \"namespace\": ", e->type);
		ks_json_str(stdout, e->ns[0] ? e->ns : NULL);
		fputs(", \"module\": ", stdout);
		ks_json_str(stdout, e->module);
		printf(", \"users\": %zu}%s\n", ks_imports_count(&r->usage, e->symbol),
		       i + 1 < r->nlist ? "," : "");
	}
	fputs("  ],\n", stdout);
	ks_json_problems(stdout, &r->problems);
	fputs("}\n", stdout);
}

static int pipeline(struct run *r)
{
	int e = load_symvers(r);

	/* an unusable input still gives a list (exit 2 says it may be too long) */
	r->usage.sv = &r->sv;
	if (!e)
		e = ks_scan_modules(&r->scan, r->o.modules.v, r->o.modules.n, count_module,
				    &r->usage, &r->problems);
	if (!e)
		e = ks_imports_list(&r->usage, r->o.owner, !r->o.counts, &r->list, &r->nlist);
	if (e)
		return e;
	if (r->o.format == KS_FORMAT_JSON)
		write_json(r);
	else
		write_text(r);
	return 0;
}

static void summary(const struct run *r)
{
	size_t n = 0, unused = 0;

	for (size_t i = 0; i < r->sv.n; i++) {
		if (r->o.owner && !ks_export_owned_by(r->sv.v[i], r->o.owner))
			continue;
		n++;
		unused += !ks_imports_count(&r->usage, r->sv.v[i]->symbol);
	}
	fprintf(stderr, "ksunset: %zu export%s%s%s, %zu imported by none of %zu module%s\n", n,
		n == 1 ? "" : "s", r->o.owner ? " of " : "", r->o.owner ? r->o.owner : "", unused,
		r->scan.modules, r->scan.modules == 1 ? "" : "s");
}

int ks_cmd_unused(int argc, char **argv)
{
	struct run r = { 0 };
	int ret = parse_opts(argc, argv, &r.o);

	if (ret < 0)
		ret = ks_cli_elf_init();
	if (ret < 0) {
		int e = pipeline(&r);

		ks_cli_report(&r.problems, e);
		if (!e)
			summary(&r);
		ret = e < 0 || r.scan.unusable ? KS_EXIT_USAGE : KS_EXIT_OK;
	}
	free(r.list);
	ks_imports_free(&r.usage);
	ks_symvers_free(&r.sv);
	ks_diags_free(&r.problems);
	ks_paths_free(&r.o.symvers);
	ks_paths_free(&r.o.modules);
	return ret;
}
