/* What every subcommand shares: --help, the option loop, its context,
 * the diagnostics, a report that could not be written, and the exit
 * status. A subcommand supplies only its own steps (struct ks_cmd). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "cmd/cmd.h"

/* parse_args(): the arguments are read and the command is to run, or
 * --help was shown and it is not. */
enum { RUN = 0, HELP_SHOWN = 1 };

void ks_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ksunset%s%s: error: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'ksunset %s%s--help' for more information.\n",
		cmd ? cmd : "", cmd ? " " : "");
}

/* getopt_long's tables: the command's, with -h/--help added. */
static void option_tables(const struct ks_cmd *cmd, char **shorts, struct option **longs)
{
	size_t n = 0;

	while (cmd->longopts && cmd->longopts[n].name)
		n++;
	*shorts = ks_strdupf(":%sh", cmd->shortopts ? cmd->shortopts : "");
	*longs = ks_xcalloc(n + 2, sizeof(**longs));
	if (n)
		memcpy(*longs, cmd->longopts, n * sizeof(**longs));
	(*longs)[n] = (struct option){ "help", no_argument, NULL, 'h' };
}

static int bad_option(const struct ks_cmd *cmd, int c, char **argv)
{
	if (c == ':')
		ks_usage_error(cmd->name, "option '%s' needs an argument", argv[optind - 1]);
	else
		ks_usage_error(cmd->name, "unknown option '%s'", argv[optind - 1]);
	return -EINVAL;
}

static int operand(const struct ks_cmd *cmd, void *ctx, const char *arg, bool after)
{
	if (cmd->operand)
		return cmd->operand(ctx, arg, after);
	ks_usage_error(cmd->name, "unexpected argument '%s'", arg);
	return -EINVAL;
}

/* Options, then operands; for a dashdash command getopt sees only what
 * comes before the first "--". RUN, HELP_SHOWN or a negative errno. */
static int parse_args(const struct ks_cmd *cmd, void *ctx, int argc, char **argv)
{
	struct option *longs;
	char *shorts;
	int end = argc, c, r = 0;

	option_tables(cmd, &shorts, &longs);
	for (int i = 1; cmd->dashdash && i < argc; i++)
		if (!strcmp(argv[i], "--") && (end = i))
			break;
	opterr = 0;
	optind = 1;
	while (!r && (c = getopt_long(end, argv, shorts, longs, NULL)) != -1) {
		if (c == 'h')
			r = HELP_SHOWN;
		else if (c == ':' || c == '?' || !cmd->option)
			r = bad_option(cmd, c, argv);
		else
			r = cmd->option(ctx, c, optarg);
	}
	for (int i = optind; !r && i < argc; i++)
		if (i != end)
			r = operand(cmd, ctx, argv[i], i > end);
	if (!r && cmd->ready)
		r = cmd->ready(ctx);
	free(shorts);
	free(longs);
	return r;
}

int ks_cmd_write_failed(int e)
{
	fprintf(stderr, "ksunset: cannot write report: %s\n", strerror(-e));
	return e;
}

/* Whatever went to stdout must have got there: a report that could not be
 * written must not pass for a clean run. */
int ks_cmd_stdout_written(void)
{
	if (fflush(stdout) != 0)
		return ks_cmd_write_failed(errno ? -errno : -EIO);
	if (ferror(stdout))	/* an earlier write failed; its errno is gone */
		return ks_cmd_write_failed(-EIO);
	return 0;
}

void ks_cmd_report_written(int e, struct ks_outcome *out)
{
	if (e >= 0)
		return;
	ks_cmd_write_failed(e);
	out->write_failed = true;
}

static int run(const struct ks_cmd *cmd, void *ctx)
{
	struct ks_outcome out = { 0 };
	struct ks_diags d = { 0 };
	int e;

	e = cmd->run(ctx, &d, &out);
	if (!out.write_failed && ks_cmd_stdout_written() < 0)
		out.write_failed = true;
	if (cmd->sort_diags)
		ks_diags_sort(&d);
	ks_diags_print(&d, stderr);
	if (cmd->summarize)
		cmd->summarize(ctx, &d);
	ks_diags_free(&d);
	return e < 0 || out.unusable || out.write_failed ? KS_EXIT_USAGE
	       : out.findings	     ? KS_EXIT_FINDINGS
				     : KS_EXIT_OK;
}

int ks_cmd_main(const struct ks_cmd *cmd, int argc, char **argv)
{
	void *ctx;
	int r;

	if (cmd->main)
		return cmd->main(argc, argv);
	ctx = ks_xcalloc(1, cmd->size);
	if (cmd->init)
		cmd->init(ctx);
	r = parse_args(cmd, ctx, argc, argv);
	if (r == HELP_SHOWN) {
		fputs(cmd->help, stdout);
		r = ks_cmd_stdout_written() < 0 ? KS_EXIT_USAGE : KS_EXIT_OK;
	} else if (r < 0) {
		r = KS_EXIT_USAGE;
	} else {
		r = run(cmd, ctx);
	}
	if (cmd->free)
		cmd->free(ctx);
	free(ctx);
	return r;
}

static enum ks_arity long_arity(const struct ks_cmd *cmd, const char *name)
{
	size_t n = strcspn(name, "=");

	if (!strcmp(name, "help"))
		return KS_OPTION_ALONE;
	for (const struct option *o = cmd->longopts; o && o->name; o++)
		if (strlen(o->name) == n && !strncmp(o->name, name, n))
			return o->has_arg == required_argument && !name[n] ? KS_OPTION_WITH_NEXT
								    : KS_OPTION_ALONE;
	return KS_NOT_AN_OPTION;
}

enum ks_arity ks_cmd_option_arity(const struct ks_cmd *cmd, const char *arg)
{
	const char *s;

	if (arg[0] != '-' || !arg[1] || !strcmp(arg, "--"))
		return KS_NOT_AN_OPTION;
	if (arg[1] == '-')
		return long_arity(cmd, arg + 2);
	if (arg[1] == 'h')
		return arg[2] ? KS_NOT_AN_OPTION : KS_OPTION_ALONE;
	s = cmd->shortopts ? strchr(cmd->shortopts, arg[1]) : NULL;
	if (!s || arg[1] == ':')
		return KS_NOT_AN_OPTION;
	if (s[1] != ':')
		return arg[2] ? KS_NOT_AN_OPTION : KS_OPTION_ALONE;
	return arg[2] ? KS_OPTION_ALONE : KS_OPTION_WITH_NEXT;
}
