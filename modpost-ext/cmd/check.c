/* ksunset check: the modpost extension. Reads the schedule, the kernel's
 * Module.symvers and every given module, applies the rules and reports. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/baseline.h"
#include "rules/rules.h"
#include "cmd/cli.h"
#include "cmd/cmd.h"
#include "input/scan.h"
#include "report/report.h"

struct check_opts {
	struct ks_paths schedules, symvers, modules;
	const char *today, *output, *baseline, *write_baseline, *kernel_dir;
	struct ks_check_opts check;
	struct ks_report report;
	long jobs;		/* -j; 0: one per CPU */
};

static void check_help(void)
{
	printf("Usage: ksunset check [OPTION]... MODULE...\n"
	       "Report every scheduled symbol that the modules import, with dates and\n"
	       "source locations. MODULE: a .ko/.o (or .ko.xz, .ko.zst, .ko.gz), a\n"
	       "directory (searched recursively) or a modules.order file.\n\n"
	       "  -s, --schedule FILE       schedule (repeatable; default: $KSUNSET_SCHEDULE,\n"
	       "                            KDIR/ksunset.schedule, schedule.d folders)\n"
	       "  -i, --symvers FILE        the kernel's Module.symvers (repeatable)\n"
	       "      --kernel-dir KDIR     kernel build dir, for KDIR/ksunset.schedule\n"
	       "      --strict              scheduled uses are errors, not warnings\n"
	       "      --error-within DAYS   uses due within DAYS are errors\n"
	       "      --today DATE          take DATE (YYYY-MM-DD) as today\n"
	       "      --kernel-release REL  target release (default: each module's vermagic)\n"
	       "      --format FMT          text (default), json or sarif\n"
	       "  -o, --output FILE         write the report to FILE\n"
	       "      --source-root DIR     SARIF URIs and baseline keys relative to DIR\n"
	       "      --baseline FILE       accept the findings listed in FILE\n"
	       "      --write-baseline FILE list every finding in FILE\n"
	       "  -q, --quiet               print errors only\n"
	       "  -j, --jobs N              read modules on N threads (default: one per CPU)\n"
	       "  -h, --help                show this help\n\n"
	       "Exit status: 0 no errors, 1 errors found, 2 bad usage or unusable input.\n");
}

enum {
	OPT_STRICT = 256,
	OPT_WITHIN,
	OPT_TODAY,
	OPT_RELEASE,
	OPT_FORMAT,
	OPT_ROOT,
	OPT_BASELINE,
	OPT_WRITE_BASELINE,
	OPT_KDIR,
};

static const struct option longopts[] = {
	{ "schedule", required_argument, NULL, 's' },
	{ "symvers", required_argument, NULL, 'i' },
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "error-within", required_argument, NULL, OPT_WITHIN },
	{ "today", required_argument, NULL, OPT_TODAY },
	{ "kernel-release", required_argument, NULL, OPT_RELEASE },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "source-root", required_argument, NULL, OPT_ROOT },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "write-baseline", required_argument, NULL, OPT_WRITE_BASELINE },
	{ "kernel-dir", required_argument, NULL, OPT_KDIR },
	{ NULL, 0, NULL, 0 },
};

/* A whole number from 0 to 100000: --jobs, --error-within. */
static int parse_count(const char *s, long *n)
{
	char *end;

	errno = 0;
	*n = strtol(s, &end, 10);
	return errno || end == s || *end || *n < 0 || *n > 100000 ? -EINVAL : 0;
}

/* One option; returns -1 to go on, or an exit status. */
static int take_opt(int c, char **argv, void *opts)
{
	struct check_opts *o = opts;
	struct ks_release rel;

	switch (c) {
	case 's':
		return ks_paths_add(&o->schedules, optarg) < 0 ? KS_EXIT_USAGE : -1;
	case 'i':
		return ks_paths_add(&o->symvers, optarg) < 0 ? KS_EXIT_USAGE : -1;
	case 'o':
		o->output = optarg;
		return -1;
	case 'q':
		o->report.quiet = true;
		return -1;
	case 'j':
		if (parse_count(optarg, &o->jobs) == 0 && o->jobs > 0)
			return -1;
		ks_usage_error("check", "bad --jobs '%s': expected a positive number", optarg);
		return KS_EXIT_USAGE;
	case 'h':
		check_help();
		return KS_EXIT_OK;
	case OPT_STRICT:
		o->check.strict = true;
		return -1;
	case OPT_WITHIN:
		if (parse_count(optarg, &o->check.within) == 0)
			return -1;
		ks_usage_error("check", "bad --error-within '%s': expected a number of days", optarg);
		return KS_EXIT_USAGE;
	case OPT_TODAY:
		o->today = optarg;
		return -1;
	case OPT_RELEASE:
		if (ks_release_parse_target(optarg, &rel) == 0) {
			o->check.kernel_release = optarg;
			return -1;
		}
		ks_usage_error("check", "bad --kernel-release '%s': expected e.g. 6.14 or 6.1.0-57-amd64",
			       optarg);
		return KS_EXIT_USAGE;
	case OPT_FORMAT:
		return ks_cli_format("check", optarg, 1, &o->report.format) == 0 ? -1 : KS_EXIT_USAGE;
	case OPT_ROOT:
		o->report.source_root = optarg;
		return -1;
	case OPT_BASELINE:
		o->baseline = optarg;
		return -1;
	case OPT_WRITE_BASELINE:
		o->write_baseline = optarg;
		return -1;
	case OPT_KDIR:
		o->kernel_dir = optarg;
		return -1;
	default:
		return ks_cli_bad_option("check", c, argv);
	}
}

static int parse_opts(int argc, char **argv, struct check_opts *o)
{
	int r = ks_cli_parse(argc, argv, ":s:i:o:j:qh", longopts, take_opt, o, &o->modules);

	if (r >= 0)
		return r;
	if (!o->modules.n) {
		ks_usage_error("check", "no MODULE given");
		return KS_EXIT_USAGE;
	}
	if (ks_cli_today("check", o->today, &o->check.today) < 0)
		return KS_EXIT_USAGE;
	o->report.today = o->check.today;
	return -1;
}

struct run {
	struct check_opts o;
	struct ks_schedule sched;
	struct ks_symvers symvers;
	struct ks_scan scan;
	struct ks_baseline baseline;
	struct ks_baseline_keys keys;	/* for --write-baseline */
	struct ks_check check;		/* found: one module's findings at a time */
	struct ks_diags problems;	/* unusable inputs */
	FILE *out;
	bool unusable;
};

/* Folds a step's result in: -ENOMEM is fatal, other errors mean some
 * input was unusable but the run goes on. */
static int note(struct run *r, int err)
{
	if (err == -ENOMEM)
		return err;
	if (err < 0)
		r->unusable = true;
	return 0;
}

static int load_inputs(void *ctx)
{
	struct run *r = ctx;
	int e = note(r, ks_cli_load_schedules(&r->sched, &r->o.schedules, r->o.kernel_dir, 1,
					      &r->problems));

	for (size_t i = 0; !e && i < r->o.symvers.n; i++)
		e = note(r, ks_symvers_load(&r->symvers, r->o.symvers.v[i], &r->problems));
	if (!e && r->o.baseline) {
		r->baseline.source_root = r->o.report.source_root;
		e = note(r, ks_baseline_load(&r->baseline, r->o.baseline, &r->problems));
	}
	return e;
}

/* One module: its findings are judged against the baseline, written and
 * let go, so memory does not grow with the number of modules. */
static int check_one(void *ctx, const struct ks_module *m)
{
	struct run *r = ctx;
	int e = ks_check_module(&r->check, m);

	if (!e && r->o.baseline)
		e = ks_baseline_apply(&r->baseline, &r->check.found);
	ks_findings_sort(&r->check.found);
	if (!e && r->o.write_baseline)
		e = ks_baseline_keys_add(&r->keys, &r->check.found);
	if (!e)
		e = ks_report_findings(r->out, &r->o.report, &r->check.found);
	ks_findings_free(&r->check.found);
	return e;
}

static int open_report(struct run *r)
{
	int e;

	r->out = stdout;
	if (!r->o.output || (r->out = fopen(r->o.output, "w")))
		return ks_report_begin(r->out, &r->o.report);
	e = -errno;
	r->out = NULL;
	return note(r, ks_diag_add(&r->problems, KS_ERROR, r->o.output, 0, 0,
				   "cannot write report: %s", strerror(-e)) < 0 ? -ENOMEM : e);
}

static int close_report(struct run *r)
{
	int e;

	r->o.report.problems = &r->problems;
	e = ks_report_end(r->out, &r->o.report);
	if (r->out != stdout && fclose(r->out) != 0 && !e)
		e = note(r, ks_diag_add(&r->problems, KS_ERROR, r->o.output, 0, 0,
					"cannot write report: %s", strerror(errno)) < 0 ? -ENOMEM
											: -EIO);
	r->out = NULL;
	return e;
}

/* Runs on the main thread while the first modules are being read. */
static int prepare(void *ctx)
{
	struct run *r = ctx;
	int e = load_inputs(r);

	e = e ? e : open_report(r);
	return e ? e : r->out ? 0 : -EIO;	/* nowhere to report: stop */
}

static int check_modules(struct run *r)
{
	int e;

	r->check.sched = &r->sched;
	r->check.symvers = r->o.symvers.n ? &r->symvers : NULL;
	r->check.opts = r->o.check;
	r->scan.jobs = (size_t)r->o.jobs;
	r->keys.source_root = r->o.report.source_root;
	r->scan.prepare = prepare;
	e = ks_scan_modules(&r->scan, r->o.modules.v, r->o.modules.n, check_one, r,
			    &r->problems);
	r->o.report.modules = r->scan.modules;
	r->unusable |= r->scan.unusable;
	return e;
}

static void summary(const struct run *r)
{
	const struct ks_tally t = r->o.report.tally;

	fprintf(stderr, "ksunset: %zu module%s checked: %zu error%s, %zu warning%s", r->o.report.modules,
		r->o.report.modules == 1 ? "" : "s", t.errors, t.errors == 1 ? "" : "s", t.warnings,
		t.warnings == 1 ? "" : "s");
	if (t.baselined)
		fprintf(stderr, ", %zu accepted by the baseline", t.baselined);
	if (r->problems.nerrors)
		fprintf(stderr, "; %zu unusable input%s", r->problems.nerrors,
			r->problems.nerrors == 1 ? "" : "s");
	fputc('\n', stderr);
}

static int pipeline(struct run *r)
{
	int e = check_modules(r);

	if (r->out)
		e = e ? e : close_report(r);
	if (!e && r->o.write_baseline)
		e = note(r, ks_baseline_keys_write(&r->keys, r->o.write_baseline, &r->problems));
	return e;
}

static void run_free(struct run *r)
{
	ks_schedule_free(&r->sched);
	ks_symvers_free(&r->symvers);
	ks_baseline_free(&r->baseline);
	ks_baseline_keys_free(&r->keys);
	if (r->out && r->out != stdout)
		fclose(r->out);
	ks_findings_free(&r->check.found);
	ks_diags_free(&r->problems);
	ks_paths_free(&r->o.schedules);
	ks_paths_free(&r->o.symvers);
	ks_paths_free(&r->o.modules);
}

int ks_cmd_check(int argc, char **argv)
{
	struct run r = { .o = { .check = { .within = -1 } } };
	int ret = parse_opts(argc, argv, &r.o);

	if (ret < 0)
		ret = ks_cli_elf_init();
	if (ret < 0) {
		int e = pipeline(&r);

		fflush(stdout);	/* the report before the summary, also in pipes */
		ks_cli_report(&r.problems, e);
		summary(&r);
		ret = e < 0 || r.unusable ? KS_EXIT_USAGE
		      : r.o.report.tally.errors ? KS_EXIT_FINDINGS
							       : KS_EXIT_OK;
	}
	run_free(&r);
	return ret;
}

int ks_check_option_arity(const char *arg)
{
	static const char shorts_with_arg[] = "sioj", shorts[] = "qh";
	size_t n;

	if (arg[0] != '-' || !arg[1] || !strcmp(arg, "--"))
		return -1;
	if (arg[1] != '-') {
		if (strchr(shorts, arg[1]) && !arg[2])
			return 0;
		if (!strchr(shorts_with_arg, arg[1]))
			return -1;
		return arg[2] ? 0 : 1;
	}
	n = strcspn(arg + 2, "=");
	for (const struct option *o = longopts; o->name; o++) {
		if (strlen(o->name) != n || strncmp(o->name, arg + 2, n) != 0)
			continue;
		return o->has_arg == required_argument && !arg[2 + n] ? 1 : 0;
	}
	return -1;
}
