/* ksunset lint: reads schedules and reports every problem in them, not
 * only the first; --list prints the entries with the time left. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"

struct lint_opts {
	struct ks_paths schedules;
	const char *today;
	int list;
};

static void lint_help(void)
{
	printf("Usage: ksunset lint [-s SCHEDULE]... [--list] [--today DATE] [SCHEDULE]...\n"
	       "Check schedule files; report every error as FILE:LINE: error: ...\n\n"
	       "  -s, --schedule FILE  a schedule to check (repeatable)\n"
	       "      --list           print each entry with the days left until removal\n"
	       "      --today DATE     take DATE (YYYY-MM-DD) as today\n"
	       "  -h, --help           show this help\n\n"
	       "Exit status: 0 clean, 1 errors found, 2 bad usage or unreadable file.\n");
}

/* Returns -1 to go on, or the exit status. */
static int parse_opts(int argc, char **argv, struct lint_opts *o)
{
	static const struct option longopts[] = {
		{ "schedule", required_argument, NULL, 's' },
		{ "list", no_argument, NULL, 'l' },
		{ "today", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (ks_paths_add(&o->schedules, optarg) < 0)
				return KS_EXIT_USAGE;
			break;
		case 'l':
			o->list = 1;
			break;
		case 't':
			o->today = optarg;
			break;
		case 'h':
			lint_help();
			return KS_EXIT_OK;
		case ':':
			ks_usage_error("lint", "option '%s' needs an argument", argv[optind - 1]);
			return KS_EXIT_USAGE;
		default:
			ks_usage_error("lint", "unknown option '%s'", argv[optind - 1]);
			return KS_EXIT_USAGE;
		}
	}
	for (; optind < argc; optind++)
		if (ks_paths_add(&o->schedules, argv[optind]) < 0)
			return KS_EXIT_USAGE;
	return -1;
}

/* Fields lint asks for beyond what the parser requires. */
static int check_entry(const struct ks_entry *e, struct ks_diags *d)
{
	int r = 0;

	if (!e->why)
		r = ks_diag_add(d, KS_WARNING, e->file, e->line, 0,
				"entry for '%s' has no Why: say why it goes", e->syms[0]);
	if (!r && !e->who)
		r = ks_diag_add(d, KS_WARNING, e->file, e->line, 0,
				"entry for '%s' has no Who: name someone to ask", e->syms[0]);
	return r;
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

int ks_cmd_lint(int argc, char **argv)
{
	struct lint_opts o = { 0 };
	struct ks_schedule s = KS_SCHEDULE_INIT;
	struct ks_diags d = { 0 };
	int32_t today = 0;
	int ret = parse_opts(argc, argv, &o);
	int r;

	if (ret < 0 && ks_cli_today("lint", o.today, &today) < 0)
		ret = KS_EXIT_USAGE;
	if (ret >= 0)
		goto out;
	r = ks_cli_load_schedules(&s, &o.schedules, NULL, 1, &d);
	for (size_t i = 0; i < s.n && r != -ENOMEM; i++)
		if (check_entry(s.entries[i], &d) < 0)
			r = -ENOMEM;
	ks_diags_sort(&d);
	ks_diags_print(&d, stderr);
	if (o.list)
		for (size_t i = 0; i < s.n; i++)
			print_entry(s.entries[i], today);
	ret = r == 0 ? KS_EXIT_OK : r == -EINVAL ? KS_EXIT_FINDINGS : KS_EXIT_USAGE;
	if (d.nerrors || d.nwarnings)
		fprintf(stderr, "ksunset: %zu error%s, %zu warning%s\n", d.nerrors,
			d.nerrors == 1 ? "" : "s", d.nwarnings, d.nwarnings == 1 ? "" : "s");
out:
	ks_diags_free(&d);
	ks_schedule_free(&s);
	ks_paths_free(&o.schedules);
	return ret;
}
