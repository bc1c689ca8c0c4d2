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
int ks_cmd_lint(int argc, char **argv);

/* "ksunset: error: ..." on stderr. */
void ks_usage_error(const char *cmd, const char *fmt, ...) KS_PRINTF(2, 3);

#endif
