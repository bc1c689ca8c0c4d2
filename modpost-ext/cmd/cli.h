/* What the subcommands share on the command line: finding schedules and
 * today's date the way ksunset(1) describes. */
#ifndef KS_CLI_H
#define KS_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "cmd/locate.h"
#include "report/report.h"
#include "schedule.h"

/* A list of paths (copies), such as those given with -s. */
struct ks_paths {
	char **v;
	size_t n;
};

void ks_paths_add(struct ks_paths *p, const char *path);
void ks_paths_free(struct ks_paths *p);

/* The schedule files, first match wins: the given ones, else
 * $KSUNSET_SCHEDULE, else KDIR/ksunset.schedule (kdir may be NULL), else
 * the system folders. out may end up empty. */
void ks_cli_find_schedules(const struct ks_paths *given, const char *kdir,
			   struct ks_paths *out);

/* What to say when ks_cli_find_schedules() found nothing, the same for
 * every command: "no schedule found (looked for $KSUNSET_SCHEDULE,
 * KDIR/ksunset.schedule, ... ): nothing checked; give -s FILE or set
 * KSUNSET_SCHEDULE", with "but __sunset attributes" after "nothing checked"
 * if attrs (the plugin loaded without a schedule). */
char *ks_cli_no_schedule(const char *kdir, bool attrs);

/* Loads the schedules: the given ones, else $KSUNSET_SCHEDULE, else
 * KDIR/ksunset.schedule (kdir may be NULL), else the system folders.
 * Returns 0, -errno for an unreadable file, -EINVAL for errors in a file,
 * -ENOENT (with ks_cli_no_schedule()'s error) if none was found and
 * required is set. */
int ks_cli_load_schedules(struct ks_schedule *s, const struct ks_paths *given,
			  const char *kdir, int required, struct ks_diags *d) KS_MUST_CHECK;

/* Parses --today (NULL: none given) into *today, or prints an error. */
/* The plugin: $KSUNSET_PLUGIN, else beside this program (a build tree),
 * else ../lib/ksunset/ from it (an installed tree), else the configured
 * plugin directory; NULL: none. */
char *ks_cli_plugin_path(void);
/* The history of Debian's kernels that ksunset ships (--history):
 * $KSUNSET_HISTORY, else the source tree's (a build tree's program), else
 * the installed one. */
const char *ks_cli_history_file(void);
/* The shipped migrations file that leads to release to ("6.12"): share/
 * of a build tree, else the installed one; NULL: none. */
char *ks_cli_migrations_file(const char *to);
int ks_cli_today(const char *cmd, const char *arg, int32_t *today) KS_MUST_CHECK;

/* Parses --format; sarif_ok says whether the command writes SARIF. */
int ks_cli_format(const char *cmd, const char *arg, int sarif_ok, enum ks_format *fmt) KS_MUST_CHECK;
/* --locations MODE and --debug-dir DIR, which check and users share:
 * 0, or -EINVAL after a usage error. */
int ks_cli_dwarf_opt(const char *cmd, int c, const char *arg, struct ks_locate_opts *o) KS_MUST_CHECK;
/* KSUNSET_DWARF_READER: "libdw" (libdwfl lays out and relocates the
 * whole DWARF: the oracle of dwarf/dwarfrel.c's and dwarfpick.c's tests),
 * "ksunset" or unset (their own). 0, or -EINVAL with a usage error. */
int ks_cli_dwarf_env(const char *cmd, struct ks_locate_opts *o) KS_MUST_CHECK;
#define KS_CLI_OPT_LOCATIONS 0x4c4f
#define KS_CLI_OPT_DEBUG_DIR 0x4444
#define KS_CLI_DWARF_LONGOPTS \
	{ "locations", required_argument, NULL, KS_CLI_OPT_LOCATIONS }, \
	{ "debug-dir", required_argument, NULL, KS_CLI_OPT_DEBUG_DIR }
#define KS_CLI_DWARF_HELP \
	"      --locations SRC       where source lines come from: plugin, dwarf or\n" \
	"                            auto (default: plugin records, else DWARF)\n" \
	"      --debug-dir DIR       separate debug files (default /usr/lib/debug)\n"

#endif
