/* What the subcommands share on the command line: finding schedules and
 * today's date the way ksunset(1) describes. */
#ifndef KS_CLI_H
#define KS_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "schedule.h"

/* Paths given with -s, collected while parsing options. */
struct ks_paths {
	char **v;
	size_t n;
};

int ks_paths_add(struct ks_paths *p, char *path) KS_MUST_CHECK;
void ks_paths_free(struct ks_paths *p);

/* Loads the schedules: the given ones, else $KSUNSET_SCHEDULE, else
 * KDIR/ksunset.schedule (kdir may be NULL), else the system folders.
 * Returns 0, -errno for an unreadable file, -EINVAL for errors in a file,
 * -ENOENT (with a diagnostic) if none was found and required is set. */
int ks_cli_load_schedules(struct ks_schedule *s, const struct ks_paths *given,
			  const char *kdir, int required, struct ks_diags *d) KS_MUST_CHECK;

/* Parses --today (NULL: none given) into *today, or prints an error. */
int ks_cli_today(const char *cmd, const char *arg, int32_t *today) KS_MUST_CHECK;

#endif
