/* ksunset mark: schedules symbols for removal by appending one entry to a
 * schedule. The existing text is kept byte for byte (the entry takes its
 * line endings), the result must pass the parser and the lint rules, and
 * the file is replaced atomically, keeping its mode, owner and group. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "cmd/cmd.h"
#include "file.h"
#include "rules/lintrules.h"
#include "input/schedwrite.h"
#include "wording.h"

struct mark_opts {
	struct ks_paths syms, schedules, symvers;
	const char *when, *action, *today, *kernel_dir;
	bool dry_run, force;
	bool when_dated;		/* --when is a date: when_days */
	int32_t when_days;
	struct ks_new_entry e;
	char when_text[KS_DATE_LEN], since[KS_DATE_LEN];
	int32_t today_days;
};

static const char help[] =
	"Usage: ksunset mark SYMBOL... -s SCHEDULE [OPTION]...\n"
	"Schedule exported symbols for removal: append one entry to SCHEDULE (made\n"
	"if missing), keeping its text as it is. The new file must pass lint.\n\n"
	"  -s, --schedule FILE      the schedule to append to\n"
	"      --kernel-dir KDIR    append to KDIR/ksunset.schedule (without -s)\n"
	"  -i, --symvers FILE       the kernel's Module.symvers: refuse symbols it\n"
	"                           does not export (repeatable)\n"
	"      --when WHEN          YYYY-MM-DD, YYYY-MM, +Nd, +Nm, +Ny from today, or a\n"
	"                           kernel release such as 6.14 (default: +1y)\n"
	"      --action ACTION      unexport (default), gpl-only or 'namespace NS'\n"
	"      --replace R          the replacement: a symbol, or a sentence\n"
	"      --why TEXT           why it goes\n"
	"      --who NAME           whom to ask\n"
	"      --today DATE         take DATE (YYYY-MM-DD) as today (the entry's Since)\n"
	"      --force              accept a --when date on or before today (the entry\n"
	"                           then has no Since)\n"
	"  -n, --dry-run            print the entry, change nothing\n"
	"  -h, --help               show this help\n\n"
	"Exit status: 0 marked, 1 refused (already scheduled, not exported, a date\n"
	"not after today, or the schedule has errors), 2 bad usage or an unreadable,\n"
	"read-only or unwritable file.\n";

enum { OPT_WHEN = 256, OPT_ACTION, OPT_REPLACE, OPT_WHY, OPT_WHO, OPT_TODAY, OPT_KDIR, OPT_FORCE };

static const struct option longopts[] = {
	{ "schedule", required_argument, NULL, 's' },
	{ "symvers", required_argument, NULL, 'i' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "when", required_argument, NULL, OPT_WHEN },
	{ "action", required_argument, NULL, OPT_ACTION },
	{ "replace", required_argument, NULL, OPT_REPLACE },
	{ "why", required_argument, NULL, OPT_WHY },
	{ "who", required_argument, NULL, OPT_WHO },
	{ "today", required_argument, NULL, OPT_TODAY },
	{ "kernel-dir", required_argument, NULL, OPT_KDIR },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ NULL, 0, NULL, 0 },
};

static int option(void *ctx, int c, const char *arg)
{
	struct mark_opts *o = ctx;	/* the first member of struct run */

	switch (c) {
	case 's':
		ks_paths_add(&o->schedules, arg);
		return 0;
	case 'i':
		ks_paths_add(&o->symvers, arg);
		return 0;
	case 'n':
		o->dry_run = true;
		return 0;
	case OPT_WHEN:
		o->when = arg;
		return 0;
	case OPT_ACTION:
		o->action = arg;
		return 0;
	case OPT_REPLACE:
		o->e.replace = arg;
		return 0;
	case OPT_WHY:
		o->e.why = arg;
		return 0;
	case OPT_WHO:
		o->e.who = arg;
		return 0;
	case OPT_TODAY:
		o->today = arg;
		return 0;
	case OPT_KDIR:
		o->kernel_dir = arg;
		return 0;
	case OPT_FORCE:
		o->force = true;
		return 0;
	}
	return -EINVAL;
}

static int operand(void *ctx, const char *arg, bool after_dashdash)
{
	struct mark_opts *o = ctx;

	(void)after_dashdash;
	ks_paths_add(&o->syms, arg);
	return 0;
}

/* --when: a date (or an offset from today) or a kernel release. */
static int parse_when(struct mark_opts *o)
{
	const char *w = o->when ? o->when : "+1y";
	struct ks_release rel;
	int32_t days;
	int r = ks_date_parse_relative(w, o->today_days, &days);

	if (r == -ERANGE) {
		ks_usage_error("mark", "bad --when '%s': past 9999-12-31, the last date a "
				       "schedule can hold", w);
		return -EINVAL;
	}
	if (r == 0) {
		ks_date_format(days, o->when_text);
		o->e.when = o->when_text;
		o->when_dated = true;
		o->when_days = days;
		/* forced on or before today: a Since of today would follow When */
		if (o->force && days <= o->today_days)
			o->e.since = NULL;
		return 0;
	}
	if (ks_release_parse(w, &rel) == 0) {
		o->e.when = w;
		return 0;
	}
	ks_usage_error("mark", "bad --when '%s': expected YYYY-MM-DD, YYYY-MM, +Nd, +Nm, +Ny "
			       "or a kernel release such as 6.14", w);
	return -EINVAL;
}

static int parse_action(struct mark_opts *o)
{
	const char *a = o->action ? o->action : "unexport";

	o->e.action = a;
	/* in any case, as the schedule's Action field */
	if (!strcasecmp(a, "unexport") || !strcasecmp(a, "gpl-only") ||
	    (!strncasecmp(a, "namespace ", 10) && ks_is_identifier(a + 10)))
		return 0;
	ks_usage_error("mark", "bad --action '%s': expected unexport, gpl-only or 'namespace NS'",
		       a);
	return -EINVAL;
}

static int ready(void *ctx)
{
	struct mark_opts *o = ctx;

	for (size_t i = 0; i < o->syms.n; i++) {
		if (!ks_is_identifier(o->syms.v[i])) {
			ks_usage_error("mark", "bad symbol name '%s'", o->syms.v[i]);
			return -EINVAL;
		}
	}
	if (!o->syms.n || o->schedules.n > 1 || (!o->schedules.n && !o->kernel_dir)) {
		ks_usage_error("mark", "%s", !o->syms.n ? "no SYMBOL given"
					     : o->schedules.n ? "give -s only once: mark appends to one schedule"
							      : "no schedule: give -s FILE or --kernel-dir KDIR");
		return -EINVAL;
	}
	if (!o->schedules.n) {
		char *p = ks_strdupf("%s/ksunset.schedule", o->kernel_dir);

		ks_paths_add(&o->schedules, p);
		free(p);
	}
	if (ks_cli_today("mark", o->today, &o->today_days) < 0)
		return -EINVAL;
	ks_date_format(o->today_days, o->since);
	o->e.since = o->since;
	o->e.syms = o->syms.v;
	o->e.nsyms = o->syms.n;
	return parse_when(o) < 0 || parse_action(o) < 0 ? -EINVAL : 0;
}

struct run {
	struct mark_opts o;
	const char *path;
	struct ks_buf old, text;	/* the file as it is, and as it will be */
	struct ks_buf entry;		/* the separator and the entry, in "\n" */
	size_t sep;			/* the separator's length in entry */
	struct ks_schedule sched;
	struct ks_schedule result;	/* the file as it will be, parsed */
	struct ks_symvers symvers;
	struct ks_diags *d;
	bool refused;			/* exit 1 rather than 2 */
	bool failed;			/* not written */
	bool marked;			/* written (or, with -n, would be) */
	unsigned line;			/* where the new entry starts */
};

/* The schedule as it is; a missing file is an empty one. */
static int read_old(struct run *r)
{
	int e = ks_buf_read_file(&r->old, r->path);

	if (e == -ENOENT)
		return 0;
	if (e < 0) {
		ks_diag_add(r->d, KS_ERROR, r->path, 0, 0, "cannot read schedule: %s",
			    strerror(-e));
		return e;
	}
	e = ks_schedule_parse(&r->sched, r->path, r->old.p, r->old.len, r->d);
	r->refused = e == -EINVAL;
	return e;
}

static int refuse_scheduled(struct run *r)
{
	for (size_t i = 0; i < r->o.syms.n; i++) {
		const struct ks_entry *e = ks_schedule_lookup(&r->sched, r->o.syms.v[i]);

		if (e)
			ks_diag_add(r->d, KS_ERROR, e->file, e->line, 0,
				    "'%s' is already scheduled here: not marking it again",
				    r->o.syms.v[i]);
		r->refused |= e != NULL;
	}
	return r->refused ? -EINVAL : 0;
}

/* Parses the would-be file and lints its new (last) entry. */
static int check_result(struct run *r)
{
	struct ks_lint l = { .today = r->o.today_days };
	size_t errors = r->d->nerrors;
	int e = ks_schedule_parse(&r->result, r->path, r->text.p, r->text.len, r->d);

	l.symvers = r->o.symvers.n ? &r->symvers : NULL;
	if (e == 0 && r->result.n)
		ks_lint_entry(&l, r->result.entries[r->result.n - 1], r->d);
	r->refused = e == -EINVAL || (e == 0 && r->d->nerrors > errors);
	return e ? e : r->refused ? -EINVAL : 0;
}

/* A deadline on or before today makes every use overdue at once: more
 * likely a slip than the intent, so it takes --force. */
static int refuse_past(struct run *r)
{
	char today[KS_DATE_LEN];

	if (!r->o.when_dated || r->o.when_days > r->o.today_days || r->o.force)
		return 0;
	ks_date_format(r->o.today_days, today);
	r->refused = true;
	ks_diag_add(r->d, KS_ERROR, r->path, 0, 0,
		    "When %s is not after today (%s): every use would be overdue at once; "
		    "--force marks it anyway", r->o.when_text, today);
	return -EINVAL;
}

/* A schedule that may not be written is refused, though rename(2) would
 * replace it all the same and root may write anything: access(2) decides
 * (another's file, a read-only file system), and so does a mode without
 * any write permission, which even root is told to respect. A missing file
 * is made. */
static int refuse_read_only(struct run *r)
{
	struct stat st;

	if (stat(r->path, &st) < 0)
		return 0;
	if (access(r->path, W_OK) < 0)
		ks_diag_add(r->d, KS_ERROR, r->path, 0, 0, "cannot write: %s", strerror(errno));
	else if (!(st.st_mode & 0222))
		ks_diag_add(r->d, KS_ERROR, r->path, 0, 0, "cannot write: the file is read-only "
			    "(mode %04o)", (unsigned)(st.st_mode & 07777));
	else
		return 0;
	return -EACCES;
}

/* The would-be file: the old text as it is, then the separator and the
 * entry in the file's own line endings (CRLF stays CRLF). */
static void compose(struct run *r)
{
	const char *old = r->old.p ? r->old.p : "";

	ks_buf_adds(&r->entry, ks_entry_separator(old, r->old.len));
	r->sep = r->entry.len;
	ks_entry_format(&r->entry, &r->o.e);
	ks_buf_add(&r->text, old, r->old.len);
	ks_buf_add_eol(&r->text, r->entry.p, r->entry.len, ks_text_eol(old, r->old.len));
	r->line = 1;
	for (size_t i = 0; i < r->old.len; i++)
		r->line += old[i] == '\n';
	for (size_t i = 0; i < r->sep; i++)
		r->line += r->entry.p[i] == '\n';
}

static int pipeline(struct run *r)
{
	int e = refuse_past(r);

	for (size_t i = 0; !e && i < r->o.symvers.n; i++)
		e = ks_symvers_load(&r->symvers, r->o.symvers.v[i], r->d);
	if (!e && !r->o.dry_run)
		e = refuse_read_only(r);
	if (!e)
		e = read_old(r);
	if (!e)
		e = refuse_scheduled(r);
	if (!e) {
		compose(r);
		e = check_result(r);
	}
	if (!e)
		fputs(r->entry.p + r->sep, stdout);
	if (!e && !r->o.dry_run)
		e = ks_file_replace(r->path, r->text.p, r->text.len, r->d);
	return e;
}

/* "FILE:LINE: marked: 'a', 'b' is scheduled for removal on 2027-12-03",
 * in the words the checker and the plugin will use for the entry. */
static void done(const struct run *r)
{
	const struct ks_entry *e = r->result.entries[r->result.n - 1];
	struct ks_buf what = KS_BUF_INIT;

	fflush(stdout);	/* the entry first, then where it went */
	fprintf(stderr, "%s:%u: %s:", r->path, r->line, r->o.dry_run ? "not written (--dry-run)"
								    : "marked");
	for (size_t i = 0; i < r->o.e.nsyms; i++)
		fprintf(stderr, "%s'%s'", i ? ", " : " ", r->o.e.syms[i]);
	ks_say_action(&what, e, false);
	fprintf(stderr, " %s\n", what.p);
	ks_buf_free(&what);
}

/* A refusal (already scheduled, not exported, errors in the schedule) is
 * exit 1; an unreadable or unwritable file exit 2. */
static int run(void *ctx, struct ks_diags *d, struct ks_outcome *out)
{
	struct run *r = ctx;
	int e;

	r->d = d;
	r->path = r->o.schedules.v[0];
	e = pipeline(r);
	r->failed = e < 0;
	r->marked = e == 0;
	out->findings = r->refused;
	return r->refused ? 0 : e;
}

static void summary(void *ctx, const struct ks_diags *d)
{
	struct run *r = ctx;

	(void)d;
	if (r->failed)
		fprintf(stderr, "ksunset: %s left unchanged\n", r->path);
	else if (r->marked)
		done(r);
}

static void run_free(void *ctx)
{
	struct run *r = ctx;

	ks_buf_free(&r->old);
	ks_buf_free(&r->text);
	ks_buf_free(&r->entry);
	ks_schedule_free(&r->sched);
	ks_schedule_free(&r->result);
	ks_symvers_free(&r->symvers);
	ks_paths_free(&r->o.syms);
	ks_paths_free(&r->o.schedules);
	ks_paths_free(&r->o.symvers);
}

const struct ks_cmd ks_cmd_mark = {
	.name = "mark",
	.summary = "schedule symbols for removal: append a schedule entry",
	.help = help,
	.shortopts = "s:i:n",
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
