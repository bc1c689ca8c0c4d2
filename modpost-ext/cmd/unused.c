/* ksunset unused: the exports that none of the given modules imports, the
 * candidates for removal; --counts gives every export's number of
 * importers, as the kernel's export_report once did. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cli.h"
#include "cmd/cmd.h"
#include "input/scan.h"
#include "rules/imports.h"

struct unused_opts {
	struct ks_paths symvers, modules;
	const char *owner, *today;
	bool counts;
	enum ks_format format;
	int32_t today_days;
};

static const char help[] =
	"Usage: ksunset unused -i Module.symvers [OPTION]... MODULE...\n"
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
	"Exit status: 0 success, 2 bad usage or unusable input.\n";

enum { OPT_MODULE = 256, OPT_COUNTS, OPT_FORMAT, OPT_TODAY };

static const struct option longopts[] = {
	{ "symvers", required_argument, NULL, 'i' },
	{ "module", required_argument, NULL, OPT_MODULE },
	{ "counts", no_argument, NULL, OPT_COUNTS },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "today", required_argument, NULL, OPT_TODAY },
	{ NULL, 0, NULL, 0 },
};

static int option(void *ctx, int c, const char *arg)
{
	struct unused_opts *o = ctx;	/* the first member of struct run */

	switch (c) {
	case 'i':
		ks_paths_add(&o->symvers, arg);
		return 0;
	case OPT_MODULE:
		o->owner = arg;
		return 0;
	case OPT_COUNTS:
		o->counts = true;
		return 0;
	case OPT_FORMAT:
		return ks_cli_format("unused", arg, 0, &o->format);
	case OPT_TODAY:
		o->today = arg;
		return 0;
	}
	return -EINVAL;
}

static int operand(void *ctx, const char *arg, bool after_dashdash)
{
	struct unused_opts *o = ctx;

	(void)after_dashdash;
	ks_paths_add(&o->modules, arg);
	return 0;
}

static int ready(void *ctx)
{
	struct unused_opts *o = ctx;

	if (!o->symvers.n || !o->modules.n) {
		ks_usage_error("unused", "%s", !o->symvers.n ? "no -i Module.symvers given"
							     : "no MODULE given");
		return -EINVAL;
	}
	return ks_cli_today("unused", o->today, &o->today_days);
}

struct run {
	struct unused_opts o;
	struct ks_symvers sv;
	struct ks_imports imports;
	struct ks_scan scan;
	struct ks_diags *problems;
	const struct ks_export **list;
	size_t nlist;
};

static int count_module(void *ctx, const struct ks_module *m)
{
	ks_imports_add(ctx, m);
	return 0;
}

static int load_symvers(struct run *r)
{
	for (size_t i = 0; i < r->o.symvers.n; i++)
		r->scan.unusable |= ks_symvers_load(&r->sv, r->o.symvers.v[i], r->problems) < 0;
	if (r->o.owner) {
		for (size_t i = 0; i < r->sv.n; i++)
			if (ks_export_owned_by(r->sv.v[i], r->o.owner))
				return 0;
		ks_diag_add(r->problems, KS_ERROR, NULL, 0, 0,
			    "--module %s: no export of Module.symvers belongs to it", r->o.owner);
		return -ENOENT;
	}
	return 0;
}

static void write_text(const struct run *r)
{
	for (size_t i = 0; i < r->nlist; i++) {
		const struct ks_export *e = r->list[i];

		if (r->o.counts)
			printf("%zu\t", ks_imports_count(&r->imports, e->symbol));
		printf("%s\t%s\t%s\t%s\n", e->symbol, e->type, e->ns[0] ? e->ns : "-", e->module);
	}
}

static int write_list(const struct run *r)
{
	const struct ks_unused_doc doc = {
		.today = r->o.today_days,
		.modules = r->scan.modules,
		.owner = r->o.owner,
		.counts = r->o.counts,
		.list = r->list,
		.nlist = r->nlist,
		.imports = &r->imports,
		.problems = r->problems,
	};

	if (r->o.format == KS_FORMAT_JSON)
		return ks_report_unused(stdout, &doc);
	write_text(r);
	return 0;
}

/* The exports to list. */
static int pipeline(struct run *r)
{
	int e = load_symvers(r);

	/* an unusable input still gives a list (exit 2 says it may be too long) */
	r->imports.sv = &r->sv;
	r->scan.progress = r->o.format == KS_FORMAT_TEXT;
	if (!e)
		e = ks_scan_modules(&r->scan, r->o.modules.v, r->o.modules.n, count_module,
				    &r->imports, r->problems);
	if (!e)
		ks_imports_list(&r->imports, r->o.owner, !r->o.counts, &r->list, &r->nlist);
	return e;
}

static void summary(const struct run *r)
{
	size_t n = 0, unused = 0;

	for (size_t i = 0; i < r->sv.n; i++) {
		if (r->o.owner && !ks_export_owned_by(r->sv.v[i], r->o.owner))
			continue;
		n++;
		unused += !ks_imports_count(&r->imports, r->sv.v[i]->symbol);
	}
	fprintf(stderr, "ksunset: %zu export%s%s%s, %zu imported by none of %zu module%s\n", n,
		n == 1 ? "" : "s", r->o.owner ? " of " : "", r->o.owner ? r->o.owner : "", unused,
		r->scan.modules, r->scan.modules == 1 ? "" : "s");
}

/* An unusable input still gives a list: exit 2 says it may be too long. */
static int run(void *ctx, struct ks_diags *d, struct ks_outcome *out)
{
	struct run *r = ctx;
	int e;

	r->problems = d;
	e = pipeline(r);
	out->unusable = r->scan.unusable;
	if (!e)
		ks_cmd_report_written(write_list(r), out);
	return e;
}

static void summary_if_listed(void *ctx, const struct ks_diags *d)
{
	struct run *r = ctx;

	(void)d;
	if (r->list)
		summary(r);
}

static void run_free(void *ctx)
{
	struct run *r = ctx;

	free(r->list);
	ks_imports_free(&r->imports);
	ks_symvers_free(&r->sv);
	ks_paths_free(&r->o.symvers);
	ks_paths_free(&r->o.modules);
}

const struct ks_cmd ks_cmd_unused = {
	.name = "unused",
	.summary = "list exports that no given module imports",
	.help = help,
	.shortopts = "i:",
	.longopts = longopts,
	.size = sizeof(struct run),
	.option = option,
	.operand = operand,
	.ready = ready,
	.run = run,
	.summarize = summary_if_listed,
	.free = run_free,
};
