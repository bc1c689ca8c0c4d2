/* ksunset mark: schedules symbols for removal by appending one entry to a
 * schedule. The existing text is kept byte for byte, the result must pass
 * the parser and the lint rules, and the file is replaced atomically. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd.h"
#include "lintrules.h"
#include "schedwrite.h"
#include "wording.h"

struct mark_opts {
	struct ks_paths syms, schedules, symvers;
	const char *when, *action, *today, *kernel_dir;
	bool dry_run;
	struct ks_new_entry e;
	char when_text[KS_DATE_LEN], since[KS_DATE_LEN];
	int32_t today_days;
};

static void mark_help(void)
{
	printf("Usage: ksunset mark SYMBOL... -s SCHEDULE [OPTION]...\n"
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
	       "  -n, --dry-run            print the entry, change nothing\n"
	       "  -h, --help               show this help\n\n"
	       "Exit status: 0 marked, 1 refused (already scheduled, not exported, or the\n"
	       "schedule has errors), 2 bad usage or unreadable/unwritable file.\n");
}

enum { OPT_WHEN = 256, OPT_ACTION, OPT_REPLACE, OPT_WHY, OPT_WHO, OPT_TODAY, OPT_KDIR };

static int take_opt(int c, char **argv, void *opts)
{
	struct mark_opts *o = opts;

	switch (c) {
	case 's':
		return ks_paths_add(&o->schedules, optarg) < 0 ? KS_EXIT_USAGE : -1;
	case 'i':
		return ks_paths_add(&o->symvers, optarg) < 0 ? KS_EXIT_USAGE : -1;
	case 'n':
		o->dry_run = true;
		return -1;
	case 'h':
		mark_help();
		return KS_EXIT_OK;
	case OPT_WHEN:
		o->when = optarg;
		return -1;
	case OPT_ACTION:
		o->action = optarg;
		return -1;
	case OPT_REPLACE:
		o->e.replace = optarg;
		return -1;
	case OPT_WHY:
		o->e.why = optarg;
		return -1;
	case OPT_WHO:
		o->e.who = optarg;
		return -1;
	case OPT_TODAY:
		o->today = optarg;
		return -1;
	case OPT_KDIR:
		o->kernel_dir = optarg;
		return -1;
	default:
		return ks_cli_bad_option("mark", c, argv);
	}
}

/* --when: a date (or an offset from today) or a kernel release. */
static int parse_when(struct mark_opts *o)
{
	const char *w = o->when ? o->when : "+1y";
	struct ks_release rel;
	int32_t days;

	if (ks_date_parse_relative(w, o->today_days, &days) == 0) {
		ks_date_format(days, o->when_text);
		o->e.when = o->when_text;
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
	if (!strcmp(a, "unexport") || !strcmp(a, "gpl-only") ||
	    (!strncmp(a, "namespace ", 10) && ks_is_identifier(a + 10)))
		return 0;
	ks_usage_error("mark", "bad --action '%s': expected unexport, gpl-only or 'namespace NS'",
		       a);
	return -EINVAL;
}

static int check_args(struct mark_opts *o)
{
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
		int r = p ? ks_paths_add(&o->schedules, p) : -ENOMEM;

		free(p);
		if (r < 0)
			return r;
	}
	if (ks_cli_today("mark", o->today, &o->today_days) < 0)
		return -EINVAL;
	ks_date_format(o->today_days, o->since);
	o->e.since = o->since;
	o->e.syms = o->syms.v;
	o->e.nsyms = o->syms.n;
	return parse_when(o) < 0 || parse_action(o) < 0 ? -EINVAL : 0;
}

static int parse_opts(int argc, char **argv, struct mark_opts *o)
{
	static const struct option longopts[] = {
		{ "schedule", required_argument, NULL, 's' },
		{ "symvers", required_argument, NULL, 'i' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ "when", required_argument, NULL, OPT_WHEN },
		{ "action", required_argument, NULL, OPT_ACTION },
		{ "replace", required_argument, NULL, OPT_REPLACE },
		{ "why", required_argument, NULL, OPT_WHY },
		{ "who", required_argument, NULL, OPT_WHO },
		{ "today", required_argument, NULL, OPT_TODAY },
		{ "kernel-dir", required_argument, NULL, OPT_KDIR },
		{ NULL, 0, NULL, 0 },
	};
	int r = ks_cli_parse(argc, argv, ":s:i:nh", longopts, take_opt, o, &o->syms);

	if (r >= 0)
		return r;
	return check_args(o) < 0 ? KS_EXIT_USAGE : -1;
}

struct run {
	struct mark_opts o;
	const char *path;
	struct ks_buf old, text;	/* the file as it is, and as it will be */
	struct ks_schedule sched;
	struct ks_symvers symvers;
	struct ks_diags d;
	bool refused;			/* exit 1 rather than 2 */
	unsigned line;			/* where the new entry starts */
};

/* The schedule as it is; a missing file is an empty one. */
static int read_old(struct run *r)
{
	int e = ks_buf_read_file(&r->old, r->path);

	if (e == -ENOENT)
		return 0;
	if (e < 0)
		return ks_diag_add(&r->d, KS_ERROR, r->path, 0, 0, "cannot read schedule: %s",
				   strerror(-e)) < 0 ? -ENOMEM : e;
	e = ks_schedule_parse(&r->sched, r->path, r->old.p, r->old.len, &r->d);
	r->refused = e == -EINVAL;
	return e;
}

static int refuse_scheduled(struct run *r)
{
	for (size_t i = 0; i < r->o.syms.n; i++) {
		const struct ks_entry *e = ks_schedule_lookup(&r->sched, r->o.syms.v[i]);

		if (e && ks_diag_add(&r->d, KS_ERROR, e->file, e->line, 0,
				     "'%s' is already scheduled here: not marking it again",
				     r->o.syms.v[i]) < 0)
			return -ENOMEM;
		r->refused |= e != NULL;
	}
	return r->refused ? -EINVAL : 0;
}

/* Parses the would-be file and lints its new (last) entry. */
static int check_result(struct run *r)
{
	struct ks_schedule s = KS_SCHEDULE_INIT;
	struct ks_lint l = { .today = r->o.today_days };
	size_t errors = r->d.nerrors;
	int e = ks_schedule_parse(&s, r->path, r->text.p, r->text.len, &r->d);

	l.symvers = r->o.symvers.n ? &r->symvers : NULL;
	if (e == 0 && s.n)
		e = ks_lint_entry(&l, s.entries[s.n - 1], &r->d);
	ks_schedule_free(&s);
	r->refused = e == -EINVAL || (e == 0 && r->d.nerrors > errors);
	return e ? e : r->refused ? -EINVAL : 0;
}

static int pipeline(struct run *r)
{
	size_t at;
	int e = 0;

	for (size_t i = 0; !e && i < r->o.symvers.n; i++)
		e = ks_symvers_load(&r->symvers, r->o.symvers.v[i], &r->d);
	if (!e)
		e = read_old(r);

	if (!e)
		e = refuse_scheduled(r);
	if (!e)
		e = ks_buf_add(&r->text, r->old.p ? r->old.p : "", r->old.len);
	if (!e)
		e = ks_buf_adds(&r->text, ks_entry_separator(r->old.p, r->old.len));
	at = r->text.len;
	if (!e)
		e = ks_entry_format(&r->text, &r->o.e);
	if (!e)
		e = check_result(r);
	if (!e)
		fputs(r->text.p + at, stdout);
	if (!e && !r->o.dry_run)
		e = ks_file_replace(r->path, r->text.p, r->text.len, &r->d);
	for (size_t i = 0; i < at; i++)
		r->line += r->text.p[i] == '\n';
	r->line++;
	return e;
}

static void run_free(struct run *r)
{
	ks_buf_free(&r->old);
	ks_buf_free(&r->text);
	ks_schedule_free(&r->sched);
	ks_symvers_free(&r->symvers);
	ks_diags_free(&r->d);
	ks_paths_free(&r->o.syms);
	ks_paths_free(&r->o.schedules);
	ks_paths_free(&r->o.symvers);
}

/* "FILE:LINE: scheduled 'a', 'b': unexport on 2027-12-03", or "...: gpl-only
 * in Linux 6.14": the deadline in the words of every other message. */
static void done(const struct run *r)
{
	const char *when = r->o.e.when;
	struct ks_when w = { .kind = when == r->o.when_text ? KS_WHEN_DATE : KS_WHEN_RELEASE };
	struct ks_buf b = KS_BUF_INIT;

	snprintf(w.text, sizeof(w.text), "%s", when[0] == 'v' ? when + 1 : when);
	fflush(stdout);	/* the entry first, then where it went */
	fprintf(stderr, "%s:%u: %s", r->path, r->line, r->o.dry_run ? "would schedule" : "scheduled");
	for (size_t i = 0; i < r->o.e.nsyms; i++)
		fprintf(stderr, "%s'%s'", i ? ", " : " ", r->o.e.syms[i]);
	fprintf(stderr, ": %s %s\n", r->o.e.action, ks_say_when(&b, &w) ? w.text : b.p);
	ks_buf_free(&b);
}

int ks_cmd_mark(int argc, char **argv)
{
	struct run r = { 0 };
	int ret = parse_opts(argc, argv, &r.o);
	int e;

	if (ret >= 0) {
		run_free(&r);
		return ret;
	}
	r.path = r.o.schedules.v[0];
	e = pipeline(&r);
	ks_diags_sort(&r.d);
	ks_cli_report(&r.d, e);
	if (e && e != -ENOMEM)
		fprintf(stderr, "ksunset: %s left unchanged\n", r.path);
	else if (!e)
		done(&r);
	ret = !e ? KS_EXIT_OK : r.refused ? KS_EXIT_FINDINGS : KS_EXIT_USAGE;
	run_free(&r);
	return ret;
}
