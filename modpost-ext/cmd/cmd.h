/* The subcommands of the ksunset program and what they share. */
#ifndef KS_CMD_H
#define KS_CMD_H

#include "compiler.h"

/* Exit statuses, as ksunset(1) documents them. */
enum {
	KS_EXIT_OK = 0,		/* no errors (warnings allowed) */
	KS_EXIT_FINDINGS = 1,	/* at least one error */
	KS_EXIT_USAGE = 2,	/* bad usage or unusable input */
};

int ks_cmd_check(int argc, char **argv);
int ks_cmd_make(int argc, char **argv);
/* --cflags and --plugin-path: the plugin flags for people who wire KCFLAGS. */
int ks_cmd_cflags(int argc, char **argv);
/* How check treats a leading argument: -1 not one of its options, 0 an
 * option complete in itself, 1 an option that takes the next argument. */
int ks_check_option_arity(const char *arg);
int ks_cmd_lint(int argc, char **argv);
int ks_cmd_unused(int argc, char **argv);
int ks_cmd_users(int argc, char **argv);
int ks_cmd_mark(int argc, char **argv);

/* "ksunset: error: ..." on stderr. */
void ks_usage_error(const char *cmd, const char *fmt, ...) KS_PRINTF(2, 3);

#endif
