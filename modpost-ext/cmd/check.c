/* ksunset check: the modpost extension. Reads the schedule, the kernel's
 * Module.symvers and every given module, applies the rules and reports. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "forecast/forecast.h"
#include "rules/baseline.h"
#include "rules/rules.h"
#include "cmd/fix.h"
#include "input/migrations.h"
#include "rules/target.h"
#include "cmd/cli.h"
#include "cmd/cmd.h"
#include "input/scan.h"
#include "report/report.h"
#include "report/rewrite.h"

struct check_opts {
	struct ks_paths schedules, symvers, modules;
	const char *today, *output, *baseline, *write_baseline, *kernel_dir;
	const char *migrations;		/* --migrations; NULL: the shipped one */
	const char *kernel_source;	/* --kernel-source: the target's source tree */
	struct ks_paths targets;	     /* --target, in the order given */
	const char *target, *target_release; /* the one checked now, --target-release */
	struct ks_check_opts check;
	struct ks_report report;
	struct ks_locate_opts dwarf;	/* --locations, --debug-dir */
	long jobs;		/* -j; 0: one per CPU */
	bool prune;		/* --prune-baseline */
	bool allow_empty;	/* a folder or list without modules passes */
	bool history;		/* --history */
	bool fix;		/* ksunset fix: a patch, not a report */
};

static const char help[] =
	"Usage: ksunset check [OPTION]... MODULE...\n"
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
	"      --target DIR          will the modules load on this kernel (a build or\n"
	"                            headers directory, or a Module.symvers), and is a\n"
	"                            rebuild against its headers enough; no schedule needed;\n"
	"                            repeatable: one line per module says on which\n"
	"                            of the kernels it builds\n"
	"      --target-release REL  the --target kernel's release (for a Module.symvers)\n"
	"      --migrations FILE     how in-tree code adapted, for what to write instead\n"
	"                            (default: the shipped file that leads to the target)\n"
	"      --kernel-source DIR   the target release's source tree: what in-tree code\n"
	"                            wrote, quoted from the examples' lines there\n"
	"      --history             also the export changes between Debian's kernels\n"
	"                            that ksunset ships ($KSUNSET_HISTORY overrides)\n"
	"      --format FMT          text (default), json or sarif\n"
	"  -o, --output FILE         write the report to FILE\n"
	"      --source-root DIR     SARIF URIs and baseline keys relative to DIR\n"
	"                            (baseline keys: to each module's folder by default)\n"
	"      --baseline FILE       accept the uses listed in FILE, in the status listed\n"
	"      --write-baseline FILE list the scheduled and due-soon uses in FILE\n"
	"      --prune-baseline      rewrite the --baseline FILE without the entries\n"
	"                            that no longer match a use (each one is noted)\n"
 KS_CLI_DWARF_HELP
	"  -q, --quiet               print errors only\n"
	"  -j, --jobs N              read modules on N threads (default: one per CPU)\n"
	"      --allow-empty         a folder or modules.order without modules is\n"
	"                            no error\n"
	"  -h, --help                show this help\n\n"
	"Exit status: 0 no errors, 1 errors found, 2 bad usage or unusable input.\n";

enum {
	OPT_STRICT = 256,
	OPT_WITHIN,
	OPT_TODAY,
	OPT_RELEASE,
	OPT_FORMAT,
	OPT_ROOT,
	OPT_BASELINE,
	OPT_WRITE_BASELINE,
	OPT_PRUNE_BASELINE,
	OPT_KDIR,
	OPT_ALLOW_EMPTY,
	OPT_TARGET,
	OPT_TARGET_RELEASE,
	OPT_HISTORY,
	OPT_MIGRATIONS,
	OPT_KERNEL_SOURCE,
};

static const struct option longopts[] = {
	{ "schedule", required_argument, NULL, 's' },
	{ "symvers", required_argument, NULL, 'i' },
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "error-within", required_argument, NULL, OPT_WITHIN },
	{ "today", required_argument, NULL, OPT_TODAY },
	{ "kernel-release", required_argument, NULL, OPT_RELEASE },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "source-root", required_argument, NULL, OPT_ROOT },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "write-baseline", required_argument, NULL, OPT_WRITE_BASELINE },
	{ "prune-baseline", no_argument, NULL, OPT_PRUNE_BASELINE },
	{ "kernel-dir", required_argument, NULL, OPT_KDIR },
	{ "allow-empty", no_argument, NULL, OPT_ALLOW_EMPTY },
	{ "target", required_argument, NULL, OPT_TARGET },
	{ "target-release", required_argument, NULL, OPT_TARGET_RELEASE },
	{ "history", no_argument, NULL, OPT_HISTORY },
	{ "migrations", required_argument, NULL, OPT_MIGRATIONS },
	{ "kernel-source", required_argument, NULL, OPT_KERNEL_SOURCE },
	KS_CLI_DWARF_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

struct run {
	struct check_opts o;
	struct ks_schedule sched;
	struct ks_symvers symvers;
	struct ks_target target;	/* --target */
	struct ks_forecast forecast;	/* --target: will the modules build there */
	struct ks_migrations migrations; /* --target: what in-tree code wrote instead */
	char *run_exports;		/* --target: the given modules' exports, parsed */
	struct ks_strmap outlooks;	/* several --target: module -> its line so far */
	char **order;			/* the modules, in the order first checked */
	size_t norder;
	struct ks_fixes fixes;		/* ksunset fix: what the patch rewrites */
	char **other;			/* releases the migrations are not from, said */
	bool said_source;		/* --kernel-source's release, said */
	size_t nother;
	struct ks_scan scan;
	struct ks_baseline baseline;
	struct ks_baseline_keys keys;	/* for --write-baseline */
	struct ks_check check;		/* found: one module's findings at a time */
	struct ks_diags *problems;	/* unusable inputs */
	FILE *out;
	bool write_failed;		/* and said so */
	bool unusable;
};

/* A whole number from 0 to 100000: --jobs, --error-within. */
static int parse_count(const char *s, long *n)
{
	char *end;

	errno = 0;
	*n = strtol(s, &end, 10);
	return errno || end == s || *end || *n < 0 || *n > 100000 ? -EINVAL : 0;
}

static int bad_value(const char *opt, const char *arg, const char *expected)
{
	ks_usage_error("check", "bad %s '%s': expected %s", opt, arg, expected);
	return -EINVAL;
}

/* The options that are numbers or releases. */
static int value_opt(struct check_opts *o, int c, const char *arg)
{
	struct ks_release rel;

	switch (c) {
	case 'j':
		if (parse_count(arg, &o->jobs) == 0 && o->jobs > 0)
			return 0;
		return bad_value("--jobs", arg, "a positive number");
	case OPT_WITHIN:
		if (parse_count(arg, &o->check.within) == 0)
			return 0;
		return bad_value("--error-within", arg, "a number of days");
	case OPT_RELEASE:
		o->check.kernel_release = arg;
		if (ks_release_parse_target(arg, &rel) == 0)
			return 0;
		return bad_value("--kernel-release", arg, "e.g. 6.14 or 6.1.0-57-amd64");
	case OPT_FORMAT:
		return ks_cli_format("check", arg, 1, &o->report.format);
	case OPT_TARGET_RELEASE:
		o->target_release = arg;
		if (ks_release_parse_target(arg, &rel) == 0)
			return 0;
		return bad_value("--target-release", arg, "e.g. 6.12 or 6.12.57+deb13-amd64");
	}
	return -EINVAL;
}

static int option(void *ctx, int c, const char *arg)
{
	struct check_opts *o = &((struct run *)ctx)->o;

	switch (c) {
	case 's':
		ks_paths_add(&o->schedules, arg);
		return 0;
	case 'i':
		ks_paths_add(&o->symvers, arg);
		return 0;
	case 'o':
		o->output = arg;
		return 0;
	case 'q':
		o->report.quiet = true;
		return 0;
	case OPT_STRICT:
		o->check.strict = o->report.strict = true;
		return 0;
	case OPT_TODAY:
		o->today = arg;
		return 0;
	case OPT_ROOT:
		o->report.source_root = arg;
		return 0;
	case OPT_BASELINE:
		o->baseline = arg;
		return 0;
	case OPT_WRITE_BASELINE:
		o->write_baseline = arg;
		return 0;
	case OPT_PRUNE_BASELINE:
		o->prune = true;
		return 0;
	case OPT_KDIR:
		o->kernel_dir = arg;
		return 0;
	case OPT_ALLOW_EMPTY:
		o->allow_empty = true;
		return 0;
	case OPT_TARGET:
		for (size_t i = 0; i < o->targets.n; i++)
			if (!strcmp(o->targets.v[i], arg)) {
				ks_usage_error("check", "--target '%s' given twice", arg);
				return -EINVAL;
			}
		ks_paths_add(&o->targets, arg);
		o->target = o->targets.v[0];
		o->report.targets = o->targets.n > 1;
		return 0;
	case OPT_MIGRATIONS:
		o->migrations = arg;
		return 0;
	case OPT_KERNEL_SOURCE:
		o->kernel_source = arg;
		return 0;
	case OPT_HISTORY:
		o->history = true;
		return 0;
	case KS_CLI_OPT_LOCATIONS:
	case KS_CLI_OPT_DEBUG_DIR:
		return ks_cli_dwarf_opt("check", c, arg, &o->dwarf);
	}
	return value_opt(o, c, arg);
}

static int operand(void *ctx, const char *arg, bool after_dashdash)
{
	struct check_opts *o = &((struct run *)ctx)->o;

	(void)after_dashdash;
	ks_paths_add(&o->modules, arg);
	return 0;
}

static int ready(void *ctx)
{
	struct check_opts *o = &((struct run *)ctx)->o;
	struct stat st;

	if (!o->modules.n) {
		ks_usage_error("check", "no MODULE given");
		return -EINVAL;
	}
	if (o->target_release && !o->target) {
		ks_usage_error("check", "--target-release needs --target");
		return -EINVAL;
	}
	if (o->migrations && !o->target) {
		ks_usage_error("check", "--migrations needs --target");
		return -EINVAL;
	}
	if (o->kernel_source && !o->target) {
		ks_usage_error("check", "--kernel-source needs --target");
		return -EINVAL;
	}
	if (o->kernel_source && (stat(o->kernel_source, &st) < 0 || !S_ISDIR(st.st_mode))) {
		ks_usage_error("check", "--kernel-source '%s': not a directory", o->kernel_source);
		return -EINVAL;
	}
	if (o->target_release && o->targets.n > 1) {
		ks_usage_error("check", "--target-release names one target's release: give "
					"one --target with it");
		return -EINVAL;
	}
	if (o->prune && !o->baseline) {
		ks_usage_error("check", "--prune-baseline needs --baseline FILE");
		return -EINVAL;
	}
	if (ks_cli_today("check", o->today, &o->check.today) < 0 ||
	    ks_cli_dwarf_env("check", &o->dwarf) < 0)
		return -EINVAL;
	o->report.today = o->check.today;
	return 0;
}


/* Folds a step's result in: an error means some input was unusable, but
 * the run goes on. */
static void note(struct run *r, int err)
{
	if (err < 0)
		r->unusable = true;
}

/* "X.Y" of a kernel tree: its Makefile's VERSION and PATCHLEVEL, else its
 * folder's name (linux-source-X.Y, Debian's, unpacked without it); NULL:
 * none. */
static char *makefile_xy(const char *dir)
{
	char *mk = ks_strdupf("%s/Makefile", dir), *x = NULL;
	struct ks_buf text = KS_BUF_INIT;
	const char *v, *p;

	if (!ks_buf_read_file(&text, mk) && text.len) {
		ks_buf_addc(&text, '\0');
		v = !strncmp(text.p, "VERSION = ", 10) ? text.p + 10
		    : (v = strstr(text.p, "\nVERSION = ")) ? v + 11
							  : NULL;
		p = (p = strstr(text.p, "\nPATCHLEVEL = ")) ? p + 14 : NULL;
		if (v && p && *v >= '0' && *v <= '9' && *p >= '0' && *p <= '9')
			x = ks_strdupf("%lu.%lu", strtoul(v, NULL, 10), strtoul(p, NULL, 10));
	} else {
		char *real = realpath(dir, NULL), *base = real ? strrchr(real, '/') + 1 : NULL;
		unsigned a, b;
		int n = 0;

		if (base && sscanf(base, "linux-source-%u.%u%n", &a, &b, &n) == 2 && !base[n])
			x = ks_strdupf("%u.%u", a, b);
		free(real);
	}
	ks_buf_free(&text);
	free(mk);
	return x;
}

/* --kernel-source, when its tree is of release to ("X.Y", from its
 * Makefile); else NULL, and a note says so once. */
static const char *source_of(struct run *r, const char *to)
{
	const char *dir = r->o.kernel_source;
	char *x;
	bool same;

	if (!dir)
		return NULL;
	x = makefile_xy(dir);
	same = x && !strcmp(x, to);
	if (!same && !r->said_source && x)
		ks_diag_add(r->problems, KS_NOTE, dir, 0, 0,
			    "a source tree of %s, not of the migrations' %s: its lines are not quoted",
			    x, to);
	else if (!same && !r->said_source)
		ks_diag_add(r->problems, KS_NOTE, dir, 0, 0,
			    "its release is not known (no VERSION and PATCHLEVEL in its Makefile, "
			    "no linux-source-X.Y name): its lines are not quoted");
	r->said_source = true;
	free(x);
	return same ? dir : NULL;
}

/* --target: how in-tree code adapted on the way to it (--migrations, else
 * the shipped file that leads to its release, if any). A file that leads
 * elsewhere is said and not used; an unreadable or malformed one is an
 * unusable input. */
static int load_migrations(struct run *r)
{
	char *to, *path;
	int e;

	ks_migrations_free(&r->migrations);
	r->check.migrations = NULL;
	if (!r->target.k.release || !(to = ks_release_xy(r->target.k.release)))
		return 0;
	path = r->o.migrations ? ks_xstrdup(r->o.migrations) : ks_cli_migrations_file(to);
	e = path ? ks_migrations_load(&r->migrations, path, r->problems) : 0;
	if (e < 0)
		r->unusable = true;
	else if (path && strcmp(r->migrations.to, to))
		ks_diag_add(r->problems, KS_NOTE, path, 0, 0,
			    "migrations from %s to %s, not to the target's %s: not used",
			    r->migrations.from, r->migrations.to, to);
	else if (path)
		r->check.migrations = &r->migrations;
	if (r->check.migrations)
		r->migrations.source = source_of(r, r->migrations.to);
	free(path);
	free(to);
	return e < 0 ? -EINVAL : 0;
}

/* --target: its exports stand for the kernel's (-i adds the modules' own,
 * as KBUILD_EXTRA_SYMBOLS does), its release for the modules'. An unusable
 * target stops the run: every verdict would be wrong. */
static int load_target(struct run *r)
{
	int e = ks_target_open(&r->target, r->o.target, r->o.target_release, r->problems);

	if (e) {
		r->unusable = true;
		return -EINVAL;
	}
	if (!r->o.check.kernel_release)
		r->check.opts.kernel_release = r->target.k.release;
	return load_migrations(r);
}

/* The -i files: into the target's exports with --target, as
 * KBUILD_EXTRA_SYMBOLS adds to the kernel's. */
static void load_symvers(struct run *r)
{
	for (size_t i = 0; i < r->o.symvers.n; i++)
		note(r, ks_symvers_load(r->o.target ? &r->target.k.sv : &r->symvers,
					r->o.symvers.v[i], r->problems));
}

static int load_inputs(void *ctx)
{
	struct run *r = ctx;
	int e = 0;

	note(r, ks_cli_load_schedules(&r->sched, &r->o.schedules, r->o.kernel_dir,
				      !r->o.target && !r->o.history, r->problems));
	if (r->o.history)
		note(r, ks_schedule_load(&r->sched, ks_cli_history_file(), r->problems));
	if (r->o.target)
		e = load_target(r);
	if (!e)
		load_symvers(r);
	if (!e && r->o.baseline) {
		r->baseline.source_root = r->o.report.source_root;
		note(r, ks_baseline_load(&r->baseline, r->o.baseline, r->problems));
	}
	return e;
}

/* A report that cannot be written stops the run, said once: as a problem
 * of the file named by -o, or as stdout's. */
static int report_failed(struct run *r, int e)
{
	if (e >= 0)
		return e;
	if (r->write_failed)
		return e;
	r->write_failed = true;
	if (r->out == stdout)
		return ks_cmd_write_failed(e);
	r->unusable = true;
	ks_diag_add(r->problems, KS_ERROR, r->o.output, 0, 0, "cannot write report: %s",
		    strerror(-e));
	return e;
}

static int open_report(struct run *r)
{
	int e;

	r->out = stdout;
	if (!r->o.output || (r->out = fopen(r->o.output, "w")))
		return report_failed(r, ks_report_begin(r->out, &r->o.report));
	e = -errno;
	r->out = NULL;
	ks_diag_add(r->problems, KS_ERROR, r->o.output, 0, 0, "cannot write report: %s",
		    strerror(-e));
	note(r, e);
	return 0;
}

static int close_report(struct run *r)
{
	int e;

	r->o.report.problems = r->problems;
	e = report_failed(r, ks_report_end(r->out, &r->o.report));
	if (r->out != stdout && fclose(r->out) != 0 && !e)
		e = report_failed(r, -errno);
	r->out = NULL;
	return e;
}

/* Adds the lines of f's locations to *lines (n of them). */
static void add_lines(char ***lines, size_t *n, const struct ks_finding *f)
{
	for (size_t i = 0; i < f->nlocs; i++) {
		char *key = ks_strdupf("%s:%u", f->locs[i].file, f->locs[i].line);

		ks_strv_add_unique(lines, n, key);
		free(key);
	}
}

/* A kind of load failure that needs a source change, once. */
static void add_load_kind(struct ks_outlook *o, const char *kind)
{
	for (size_t i = 0; i < o->nload_kinds; i++)
		if (!strcmp(o->load_kinds[i], kind))
			return;
	if (o->nload_kinds < KS_ARRAY_SIZE(o->load_kinds))
		o->load_kinds[o->nload_kinds++] = kind;
}

/* One module's line over several targets so far: its state on the last
 * one, then what it says. */
struct line {
	const char *state;
	struct ks_buf text;
};

/* Adds the outlook o on this target to its module's line: "builds and
 * loads on A, B; needs source changes on C (2 places: arity, gone)". */
static void add_outlook(struct run *r, const struct ks_outlook *o)
{
	static const char *const states[][2] = {
		{ "builds-and-loads", "builds and loads" },
		{ "needs-source-changes", "needs source changes" },
		{ "loads-but-rebuild-fails", "loads, but the rebuild fails" },
		{ "unknown", "unknown" },
	};
	struct ks_buf words = KS_BUF_INIT;
	const char *state = ks_outlook_word(&words, o), *say = state;
	struct line *l;
	void **slot;

	ks_buf_free(&words);
	for (size_t i = 0; i < KS_ARRAY_SIZE(states); i++)
		say = strcmp(state, states[i][0]) ? say : states[i][1];
	if (!(l = ks_strmap_get(&r->outlooks, o->module))) {
		/* the map borrows its keys: the order's copy */
		ks_strv_add(&r->order, &r->norder, o->module);
		ks_strmap_put(&r->outlooks, r->order[r->norder - 1], &slot);
		*slot = l = ks_xcalloc(1, sizeof(*l));
	}
	/* a state said again with nothing more to say: one more release */
	if (l->state && !strcmp(l->state, state) && !o->places)
		ks_buf_addf(&l->text, ", %s", o->release ? o->release : "the target");
	else
		ks_buf_addf(&l->text, "%s%s on %s", l->text.len ? "; " : "", say,
			    o->release ? o->release : "the target");
	if (o->places) {
		ks_buf_adds(&l->text, " (");
		ks_outlook_places(&l->text, o);
		ks_buf_addc(&l->text, ')');
	}
	l->state = o->places ? NULL : state;
}

/* After every target: each module's line, in text (freed with the run). */
static int say_outlooks(struct run *r)
{
	for (size_t i = 0; i < r->norder; i++) {
		struct line *l = ks_strmap_get(&r->outlooks, r->order[i]);

		if (r->o.report.format == KS_FORMAT_TEXT)
			fprintf(r->out, "ksunset: %s: %s\n", r->order[i], l->text.p);
	}
	return report_failed(r, ferror(r->out) ? -EIO : 0);
}

/* --target: what the module's findings and forecast say of it there;
 * its places are the distinct lines that must change. */
static int outlook(struct run *r, const struct ks_module *m)
{
	struct ks_outlook o = { .module = m->path, .release = r->target.k.release,
				.v = ks_forecast_lookup(&r->forecast, m->path) };
	char **lines = NULL;
	size_t n = 0;

	for (size_t i = 0; i < r->check.found.n; i++) {
		const struct ks_finding *f = &r->check.found.v[i];

		o.load_findings += f->rule->target_status != NULL;
		o.changes += f->rule->target_status && f->remedy != KS_REMEDY_REBUILD;
		o.unknowns += f->rule->target_status && f->remedy == KS_REMEDY_UNKNOWN;
		/* a missing export's uses that break are the forecast's */
		if (f->diff || (f->rule->target_status && strcmp(f->rule->target_status, "missing") &&
				f->remedy == KS_REMEDY_SOURCE_CHANGE)) {
			add_lines(&lines, &n, f);
			if (!f->diff)
				add_load_kind(&o, f->rule->target_status);
		}
	}
	/* the lines it could not judge, besides those */
	for (size_t k = 0; o.v && k < o.v->unjudged.cap; k++) {
		const char *at = o.v->unjudged.slots[k].key;

		o.unjudged += at && ks_strv_find(lines, n, at) < 0;
	}
	ks_strv_free(lines, n);
	o.places = n;
	if (r->o.targets.n > 1)
		add_outlook(r, &o);
	return ks_report_outlook(r->out, &r->o.report, &o);
}

/* A module with a header gone there, built for another release than the
 * migrations start from: they are not used for it, said once per
 * release. */
static void other_release(struct run *r, const struct ks_module *m)
{
	bool header = false;
	char *x;

	for (size_t i = 0; i < r->check.found.n; i++)
		header |= r->check.found.v[i].diff &&
			  r->check.found.v[i].diff->kind == KS_BREAK_HEADER_GONE;
	if (!header || !m->vermagic || !(x = ks_release_xy(m->vermagic)))
		return;
	if (strcmp(x, r->migrations.from) && ks_strv_find(r->other, r->nother, x) < 0) {
		ks_strv_add(&r->other, &r->nother, x);
		ks_diag_add(r->problems, KS_NOTE, r->migrations.path, 0, 0,
			    "migrations from %s, not from %s, which %s was built for: not used for "
			    "it",
			    r->migrations.from, x, m->path);
	}
	free(x);
}

/* One module: its findings are keyed for --write-baseline (every use,
 * before the baseline drops the ones it accepts), judged against the
 * baseline, written and let go, so memory does not grow with the number
 * of modules. */
static int check_one(void *ctx, const struct ks_module *m)
{
	struct run *r = ctx;
	struct ks_sources src;
	int e;

	ks_check_module(&r->check, m);
	if (r->check.migrations)
		other_release(r, m);
	if (r->o.write_baseline)
		ks_baseline_keys_add(&r->keys, &r->check.found);
	if (r->o.baseline)
		ks_baseline_apply(&r->baseline, m->name, &r->check.found);
	ks_findings_sort(&r->check.found);
	if (r->o.fix) {
		ks_fixes_collect(&r->fixes, &r->check.found, m);
		ks_findings_free(&r->check.found);
		return 0;
	}
	/* a callback's fix-it at its definition, in whichever of the
	 * module's sources has it */
	ks_sources_init(&src, m, NULL);
	r->o.report.sources = &src;
	e = report_failed(r, ks_report_findings(r->out, &r->o.report, &r->check.found));
	r->o.report.sources = NULL;
	ks_sources_free(&src);
	if (!e && r->o.target)
		e = report_failed(r, outlook(r, m));
	ks_findings_free(&r->check.found);
	return e;
}

static bool has_finding(void *ctx, const struct ks_module *m, const char *sym)
{
	(void)m;
	return ks_findings_have(ctx, sym);
}

/* Before a module's findings are made: lines from the other location
 * sources for the imports that will be findings (cmd/locate.h). */
static void locate(void *ctx, struct ks_module *m)
{
	struct run *r = ctx;

	if (!ks_locate_reads(&r->o.dwarf))
		return;
	ks_check_module(&r->check, m);
	ks_locate_module(m, &r->o.dwarf, has_finding, &r->check.found, r->problems);
	ks_findings_free(&r->check.found);
}

/* Runs on the main thread while the first modules are being read. */
static int prepare(void *ctx)
{
	struct run *r = ctx;
	int e = load_inputs(r);

	e = e ? e : open_report(r);
	return e ? e : r->out ? 0 : -EIO;	/* nowhere to report: stop */
}

/* --target, before the check: every module read once for its exports
 * and what its units depend on (problems are the check's to report),
 * then the forecast of their build on the target. */
static int gather(void *ctx, const struct ks_module *m)
{
	ks_forecast_add(&((struct run *)ctx)->forecast, m);
	return 0;
}

static int forecast(struct run *r)
{
	struct ks_scan pre = { .jobs = (size_t)r->o.jobs, .allow_empty = true };
	struct ks_forecast_opts fo = { .kdir = r->target.k.dir, .jobs = r->o.jobs };
	struct ks_diags quiet = { 0 };
	char *plugin = ks_cli_plugin_path(), *cache = ks_cache_dir("probe");
	int e;

	r->forecast.target = &r->target.k.sv;
	e = ks_scan_modules(&pre, r->o.modules.v, r->o.modules.n, gather, r, &quiet);

	ks_diags_free(&quiet);
	fo.plugin = plugin;
	fo.cache = cache;
	if (fo.jobs <= 0)
		fo.jobs = sysconf(_SC_NPROCESSORS_ONLN) > 0 ? sysconf(_SC_NPROCESSORS_ONLN) : 1;
	/* a package's modules import each other's exports */
	if (!e && r->forecast.exports.len)
		r->run_exports = ks_xstrdup(r->forecast.exports.p);
	if (!e && r->run_exports)
		e = ks_symvers_parse(&r->target.k.sv, "(the modules given)", r->run_exports,
				     strlen(r->run_exports), r->problems);
	if (!e)
		ks_forecast_run(&r->forecast, &fo, &r->target.k.sv, &r->target.h, r->problems);
	free(plugin);
	free(cache);
	r->check.forecast = &r->forecast;
	return e;
}

/* Runs on the main thread while the first modules are being read: the
 * report (--target loaded its inputs before the forecast). */
static int prepare_target(void *ctx)
{
	struct run *r = ctx;
	int e = open_report(r);

	return e ? e : r->out ? 0 : -EIO;
}

/* The next --target (t, after the first): what the last one loaded goes,
 * and this one is loaded, its -i files with it. */
static int next_target(struct run *r, size_t t)
{
	int e;

	ks_forecast_free(&r->forecast);
	memset(&r->forecast, 0, sizeof(r->forecast));
	ks_target_free(&r->target);
	memset(&r->target, 0, sizeof(r->target));
	free(r->run_exports);
	r->run_exports = NULL;
	memset(&r->scan, 0, sizeof(r->scan));
	r->o.target = r->o.targets.v[t];
	e = load_target(r);
	if (!e)
		load_symvers(r);
	return e;
}

static int check_modules(struct run *r, size_t t)
{
	int e = 0;

	r->check.sched = &r->sched;
	r->check.symvers = r->o.target ? &r->target.k.sv : r->o.symvers.n ? &r->symvers : NULL;
	r->check.target = r->o.target ? &r->target : NULL;
	r->check.opts = r->o.check;
	if (r->o.target) {
		e = t ? next_target(r, t) : load_inputs(r);
		if (!e && !r->unusable)
			e = forecast(r);
		if (e || r->unusable)
			return e;
	}
	r->scan.jobs = (size_t)r->o.jobs;
	r->scan.allow_empty = r->o.allow_empty;
	r->scan.progress = !r->o.report.quiet && r->o.report.format == KS_FORMAT_TEXT;
	r->keys.source_root = r->o.report.source_root;
	/* after the first target the report is open: nothing to prepare */
	r->scan.prepare = t ? NULL : r->o.target ? prepare_target : prepare;
	r->scan.locate = locate;
	e = ks_scan_modules(&r->scan, r->o.modules.v, r->o.modules.n, check_one, r,
			    r->problems);
	r->o.report.modules = r->scan.modules;
	r->unusable |= r->scan.unusable;
	return e;
}

static void summary(void *ctx, const struct ks_diags *problems)
{
	const struct run *r = ctx;
	const struct ks_tally t = r->o.report.tally;

	fprintf(stderr, "ksunset: %zu module%s checked: %zu error%s, %zu warning%s", r->o.report.modules,
		r->o.report.modules == 1 ? "" : "s", t.errors, t.errors == 1 ? "" : "s", t.warnings,
		t.warnings == 1 ? "" : "s");
	if (t.baselined)
		fprintf(stderr, ", %zu accepted by the baseline", t.baselined);
	if (t.accepted)
		fprintf(stderr, ", %zu accepted in the source", t.accepted);
	if (problems->nerrors)
		fprintf(stderr, "; %zu unusable input%s", problems->nerrors,
			problems->nerrors == 1 ? "" : "s");
	fputc('\n', stderr);
}

/* A baseline file that an unusable input kept from being written. */
static void not_written(struct ks_diags *d, const char *path)
{
	if (path)
		ks_diag_add(d, KS_NOTE, path, 0, 0,
			    "baseline not written: some input could not be used");
}

/* After the check: the stale entries of --baseline, noted and pruned,
 * then --write-baseline, which may name the same file. Nothing is written
 * when some input was unusable, as the entries of what was not checked
 * would be lost; nor is anything stale then. */
static void finish_baselines(struct run *r, struct ks_diags *d)
{
	if (r->unusable) {
		not_written(d, r->o.prune ? r->o.baseline : NULL);
		not_written(d, r->o.write_baseline);
		return;
	}
	if (r->o.baseline)
		ks_baseline_report_stale(&r->baseline, d);
	if (r->o.prune)
		note(r, ks_baseline_prune(&r->baseline, d));
	if (r->o.write_baseline)
		note(r, ks_baseline_keys_write(&r->keys, r->o.write_baseline, d));
}

static int run(void *ctx, struct ks_diags *d, struct ks_outcome *out)
{
	struct run *r = ctx;
	int e;

	r->problems = d;
	e = check_modules(r, 0);
	/* each further target: the same modules again */
	for (size_t t = 1; !e && t < r->o.targets.n && r->out; t++)
		e = check_modules(r, t);
	if (!e && r->out && r->norder)
		e = say_outlooks(r);
	if (!e && r->out && r->o.fix && !r->unusable)
		e = report_failed(r, ks_fixes_write(r->out, &r->fixes));
	if (r->out)
		e = e ? e : close_report(r);
	if (!e)
		finish_baselines(r, d);
	out->unusable = r->unusable;
	out->write_failed = r->write_failed && !r->unusable;
	out->findings = r->o.fix ? r->fixes.nleft > 0 : r->o.report.tally.errors > 0;
	return e;
}

static void init(void *ctx)
{
	struct run *r = ctx;

	r->o.check.within = -1;
}

static void run_free(void *ctx)
{
	struct run *r = ctx;

	ks_schedule_free(&r->sched);
	ks_symvers_free(&r->symvers);
	ks_forecast_free(&r->forecast);
	ks_target_free(&r->target);
	ks_migrations_free(&r->migrations);
	free(r->run_exports);
	ks_baseline_free(&r->baseline);
	ks_baseline_keys_free(&r->keys);
	if (r->out && r->out != stdout)
		fclose(r->out);
	ks_findings_free(&r->check.found);
	ks_paths_free(&r->o.schedules);
	ks_paths_free(&r->o.symvers);
	ks_paths_free(&r->o.modules);
	ks_paths_free(&r->o.targets);
	ks_fixes_free(&r->fixes);
	ks_strv_free(r->other, r->nother);
	for (size_t i = 0; i < r->norder; i++) {
		struct line *l = ks_strmap_get(&r->outlooks, r->order[i]);

		ks_buf_free(&l->text);
		free(l);
	}
	ks_strv_free(r->order, r->norder);
	ks_strmap_free(&r->outlooks);
}

const struct ks_cmd ks_cmd_check = {
	.name = "check",
	.summary = "check built modules against the schedule (default)",
	.help = help,
	.shortopts = "s:i:o:j:q",
	.longopts = longopts,
	.size = sizeof(struct run),
	.init = init,
	.option = option,
	.operand = operand,
	.ready = ready,
	.run = run,
	.summarize = summary,
	.free = run_free,
};

/* ksunset fix: check --target's run, its breaks written as a patch */
static const char fix_help[] =
	"Usage: ksunset fix --target DIR [OPTION]... MODULE...\n"
	"Write a patch (a unified diff) that keeps the modules building on the kernel\n"
	"they were built for and on the --target kernel: each line that no longer\n"
	"builds there and that in-tree code rewrote the same way (see --migrations)\n"
	"is rewritten under #if LINUX_VERSION_CODE, the old line kept for older\n"
	"kernels. Paths are relative to the current directory (patch -p1 applies it\n"
	"there); the breaks it cannot rewrite are listed in its header. MODULE: as\n"
	"for check, built with the plugin's api argument (ksunset make --api).\n\n"
	"      --target DIR          the kernel to build for too (a build or headers\n"
	"                            directory)\n"
	"      --migrations FILE     how in-tree code adapted (default: the shipped file\n"
	"                            that leads to the target)\n"
	"  -i, --symvers FILE        another Module.symvers whose exports the modules\n"
	"                            use (repeatable)\n"
	"  -o, --output FILE         write the patch to FILE\n"
	"  -j, --jobs N              read modules on N threads (default: one per CPU)\n\n"
	"Exit status: 0 every break rewritten, 1 some break is not, 2 bad usage or\n"
	"unusable input.\n";

static const struct option fix_longopts[] = {
	{ "symvers", required_argument, NULL, 'i' },
	{ "output", required_argument, NULL, 'o' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "target", required_argument, NULL, OPT_TARGET },
	{ "migrations", required_argument, NULL, OPT_MIGRATIONS },
	{ NULL, 0, NULL, 0 },
};

static void fix_init(void *ctx)
{
	struct run *r = ctx;

	init(ctx);
	r->o.fix = true;
	r->o.report.quiet = true;
}

static int fix_ready(void *ctx)
{
	struct check_opts *o = &((struct run *)ctx)->o;

	if (o->targets.n != 1) {
		ks_usage_error("fix", "%s",
			       o->targets.n ? "one --target: the kernel to build for too"
					    : "no --target given: the kernel to build for too");
		return -EINVAL;
	}
	return ready(ctx);
}

static void fix_summary(void *ctx, const struct ks_diags *problems)
{
	const struct run *r = ctx;

	if (problems->nerrors)
		return;
	fprintf(stderr,
		"ksunset: fix: %zu line%s rewritten in %zu file%s; %zu break%s not rewritten\n",
		r->fixes.rewritten, r->fixes.rewritten == 1 ? "" : "s", r->fixes.files,
		r->fixes.files == 1 ? "" : "s", r->fixes.nleft, r->fixes.nleft == 1 ? "" : "s");
}

const struct ks_cmd ks_cmd_fix = {
	.name = "fix",
	.summary = "write a patch that keeps modules building on the --target kernel too",
	.help = fix_help,
	.shortopts = "i:o:j:",
	.longopts = fix_longopts,
	.size = sizeof(struct run),
	.init = fix_init,
	.option = option,
	.operand = operand,
	.ready = fix_ready,
	.run = run,
	.summarize = fix_summary,
	.free = run_free,
};
