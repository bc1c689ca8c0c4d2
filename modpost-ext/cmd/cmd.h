/* The subcommands of the ksunset program. Each one is a struct ks_cmd in a
 * file of its own under cmd/, listed in main.c; ks_cmd_main() does what
 * they all share: help, the option loop, the context, the exit status. */
#ifndef KS_CMD_H
#define KS_CMD_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "compiler.h"
#include "diag.h"

/* Exit statuses, as ksunset(1) documents them. */
enum {
	KS_EXIT_OK = 0,		/* no errors (warnings allowed) */
	KS_EXIT_FINDINGS = 1,	/* at least one error */
	KS_EXIT_USAGE = 2,	/* bad usage or unusable input */
};

/* What a command's run found besides its return value. */
struct ks_outcome {
	bool findings;		/* exit 1: errors found, entry refused, no user */
	bool unusable;		/* exit 2: some input could not be used (reported) */
	bool write_failed;	/* exit 2: stdout could not be written (reported) */
};

/* "ksunset: cannot write report: REASON" (e a negative errno), and e. */
int ks_cmd_write_failed(int e);
/* Flushes stdout: 0, or (said with ks_cmd_write_failed) a negative errno. */
int ks_cmd_stdout_written(void);
/* e, what a report/ call writing to stdout returned: a write that failed
 * is said with ks_cmd_write_failed and marked in out, as the run is over
 * but for its exit status. */
void ks_cmd_report_written(int e, struct ks_outcome *out);

struct ks_cmd {
	const char *name;
	const char *summary;		/* the line in 'ksunset --help' */
	const char *help;		/* 'ksunset NAME --help' */
	const char *shortopts;		/* getopt_long's, without ":" and "h" */
	const struct option *longopts;	/* without "help"; NULL-terminated */
	bool dashdash;			/* operands after "--" are handed on apart */
	size_t size;			/* of the command's context, zeroed */
	/* Each is optional. All but run return 0, or -EINVAL having said why
	 * with ks_usage_error(). */
	void (*init)(void *ctx);	/* defaults other than zero */
	int (*option)(void *ctx, int c, const char *arg);
	/* after_dashdash: the operand came after "--" (dashdash commands) */
	int (*operand)(void *ctx, const char *arg, bool after_dashdash);
	int (*ready)(void *ctx);	/* once the options are all read */
	/* The work: problems go to d (printed after run, sorted if
	 * sort_diags); returns 0, or a negative errno for unusable input
	 * (exit 2). */
	int (*run)(void *ctx, struct ks_diags *d, struct ks_outcome *out);
	bool sort_diags;
	void (*summarize)(void *ctx, const struct ks_diags *d);	/* after the diagnostics */
	void (*free)(void *ctx);
	/* A command that reads its own arguments (make) has only this. */
	int (*main)(int argc, char **argv);
};

/* Runs cmd with argv[0] its name: the exit status. */
int ks_cmd_main(const struct ks_cmd *cmd, int argc, char **argv);

/* How a command treats a leading argument. */
enum ks_arity {
	KS_NOT_AN_OPTION,	/* not one of its options */
	KS_OPTION_ALONE,	/* an option complete in itself */
	KS_OPTION_WITH_NEXT,	/* an option that takes the next argument */
};

enum ks_arity ks_cmd_option_arity(const struct ks_cmd *cmd, const char *arg);

/* "ksunset CMD: error: ..." and where to get help, on stderr. */
void ks_usage_error(const char *cmd, const char *fmt, ...) KS_PRINTF(2, 3);

extern const struct ks_cmd ks_cmd_check, ks_cmd_lint, ks_cmd_unused, ks_cmd_users,
	ks_cmd_mark, ks_cmd_make, ks_cmd_diff, ks_cmd_fix;

/* --cflags and --plugin-path: the plugin flags for people who wire KCFLAGS. */
int ks_cflags_main(int argc, char **argv);

#endif
