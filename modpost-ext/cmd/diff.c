/* ksunset diff: two kernels' exports compared (Module.symvers files or
 * kernel build/headers directories), listed as text or JSON and, with
 * --schedule-out, written as schedule entries keyed by the new release. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "file.h"
#include "cmd/cli.h"
#include "cmd/cmd.h"
#include "input/diffsched.h"
#include "input/kernel.h"
#include "input/symdiff.h"

struct diff_opts {
	const char *args[2];	/* OLD, NEW */
	size_t nargs;
	const char *schedule_out, *new_release;
	enum ks_format format;
};

static const char help[] =
	"Usage: ksunset diff [OPTION]... OLD NEW\n"
	"Compare two kernels' exports. OLD and NEW: a Module.symvers, or a kernel\n"
	"build or headers directory holding one (its release is read from it).\n\n"
	"      --format FMT         text (default) or json\n"
	"      --schedule-out FILE  write the changes that can break a module as\n"
	"                           schedule entries (When: NEW's release)\n"
	"      --new-release REL    NEW's release, as uname -r prints it (for a\n"
	"                           Module.symvers, or to override the directory's)\n"
	"  -h, --help               show this help\n\n"
	"Text output, one change a line, sorted by symbol:\n"
	"  removed: \"SYMBOL\" [OWNER] TYPE[ NAMESPACE]\n"
	"  added: \"SYMBOL\" [OWNER] TYPE[ NAMESPACE]\n"
	"  gpl-only | no-longer-gpl-only: \"SYMBOL\" [OWNER] OLD-TYPE -> NEW-TYPE\n"
	"  namespace: \"SYMBOL\" [OWNER] OLD-NS -> NEW-NS ('-': none)\n"
	"  owner: \"SYMBOL\" OLD-OWNER -> NEW-OWNER\n"
	"A move into a \"module:\" namespace is a removal for every other module.\n"
	"Exit status: 0 compared, 2 bad usage or unusable input.\n";

enum { OPT_FORMAT = 256, OPT_SCHEDULE_OUT, OPT_NEW_RELEASE };

static const struct option longopts[] = {
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "schedule-out", required_argument, NULL, OPT_SCHEDULE_OUT },
	{ "new-release", required_argument, NULL, OPT_NEW_RELEASE },
	{ NULL, 0, NULL, 0 },
};

static int option(void *ctx, int c, const char *arg)
{
	struct diff_opts *o = ctx;	/* the first member of struct run */

	switch (c) {
	case OPT_FORMAT:
		return ks_cli_format("diff", arg, 0, &o->format);
	case OPT_SCHEDULE_OUT:
		o->schedule_out = arg;
		return 0;
	case OPT_NEW_RELEASE:
		o->new_release = arg;
		return 0;
	}
	return -EINVAL;
}

static int operand(void *ctx, const char *arg, bool after_dashdash)
{
	struct diff_opts *o = ctx;

	(void)after_dashdash;
	if (o->nargs == 2) {
		ks_usage_error("diff", "unexpected argument '%s': give OLD and NEW", arg);
		return -EINVAL;
	}
	o->args[o->nargs++] = arg;
	return 0;
}

static int ready(void *ctx)
{
	struct diff_opts *o = ctx;

	if (o->nargs < 2) {
		ks_usage_error("diff", "%s", o->nargs ? "no NEW given" : "no OLD and NEW given");
		return -EINVAL;
	}
	return 0;
}

struct run {
	struct diff_opts o;
	struct ks_kernel old, new;
	struct ks_changes changes;
	bool compared;
};

static const char *ns_or_dash(const struct ks_export *e)
{
	return e->ns[0] ? e->ns : "-";
}

static void text_change(const struct ks_change *c)
{
	const struct ks_export *e = c->new ? c->new : c->old;

	printf("%s: \"%s\" ", ks_change_name(c->kind), c->symbol);
	switch (c->kind) {
	case KS_CHANGE_REMOVED:
	case KS_CHANGE_ADDED:
		printf("[%s] %s%s%s\n", e->module, e->type, e->ns[0] ? " " : "", e->ns);
		break;
	case KS_CHANGE_GPL_ONLY:
	case KS_CHANGE_NO_LONGER_GPL_ONLY:
		printf("[%s] %s -> %s\n", e->module, c->old->type, c->new->type);
		break;
	case KS_CHANGE_NAMESPACE:
		printf("[%s] %s -> %s%s\n", e->module, ns_or_dash(c->old), ns_or_dash(c->new),
		       ks_change_is_removal(c) ? " (a removal for other modules)" : "");
		break;
	default:
		printf("%s -> %s\n", c->old->module, c->new->module);
	}
}

static int write_changes(const struct run *r, const struct ks_diags *d)
{
	const struct ks_diff_doc doc = {
		.old = &r->old, .new = &r->new, .changes = &r->changes, .problems = d
	};

	if (r->o.format == KS_FORMAT_JSON)
		return ks_report_diff(stdout, &doc);
	for (size_t i = 0; i < r->changes.n; i++)
		text_change(&r->changes.v[i]);
	return 0;
}

/* --schedule-out: the entries, replacing FILE. */
static int schedule_out(struct run *r, struct ks_diags *d)
{
	struct ks_diff_releases rel = { r->old.release, r->new.release };
	struct ks_buf b = KS_BUF_INIT;
	const char *why = NULL;
	char when[32];
	int e;

	if (!rel.new) {
		ks_diag_add(d, KS_ERROR, r->new.arg, 0, 0,
			    "--schedule-out needs the new kernel's release: none found here; give "
			    "--new-release");
		return -EINVAL;
	}
	if (ks_diff_when(&rel, when, sizeof(when), &why) < 0) {
		ks_diag_add(d, KS_ERROR, r->new.arg, 0, 0,
			    "release '%s' (old: '%s'): %s; give --new-release", rel.new,
			    rel.old ? rel.old : "unknown", why);
		return -EINVAL;
	}
	ks_diff_schedule(&b, &r->changes, when, &rel);
	e = ks_file_replace(r->o.schedule_out, b.p, b.len, d);
	ks_buf_free(&b);
	return e;
}

static int pipeline(struct run *r, struct ks_diags *d)
{
	int e = ks_kernel_open(&r->old, r->o.args[0], d);
	int e2 = ks_kernel_open(&r->new, r->o.args[1], d);

	if (e || e2)
		return e ? e : e2;
	if (r->o.new_release)
		ks_kernel_set_release(&r->new, r->o.new_release);
	ks_symvers_diff(&r->old.sv, &r->new.sv, &r->changes);
	if (r->o.schedule_out)
		e = schedule_out(r, d);
	if (!e)
		r->compared = true;
	return e;
}

static int run(void *ctx, struct ks_diags *d, struct ks_outcome *out)
{
	int e = pipeline(ctx, d);

	if (!e)
		ks_cmd_report_written(write_changes(ctx, d), out);
	return e;
}

static void summary(void *ctx, const struct ks_diags *d)
{
	const struct run *r = ctx;

	(void)d;
	if (!r->compared)
		return;
	fprintf(stderr, "ksunset: %s (%zu exports) -> %s (%zu exports):",
		r->old.release ? r->old.release : r->old.arg, r->old.sv.n,
		r->new.release ? r->new.release : r->new.arg, r->new.sv.n);
	for (int k = 0; k < KS_CHANGE_NKINDS; k++)
		fprintf(stderr, "%s %zu %s", k ? "," : "", r->changes.count[k], ks_change_name(k));
	fputc('\n', stderr);
}

static void run_free(void *ctx)
{
	struct run *r = ctx;

	ks_changes_free(&r->changes);
	ks_kernel_free(&r->old);
	ks_kernel_free(&r->new);
}

const struct ks_cmd ks_cmd_diff = {
	.name = "diff",
	.summary = "compare two kernels' exports; write the changes as a schedule",
	.help = help,
	.longopts = longopts,
	.size = sizeof(struct run),
	.option = option,
	.operand = operand,
	.ready = ready,
	.run = run,
	.summarize = summary,
	.free = run_free,
};
