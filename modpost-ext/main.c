/* ksunset: checks built kernel modules against a symbol removal schedule.
 * main only picks the subcommand; each one lives in a file of its own. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"

struct subcmd {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct subcmd subcmds[] = {
	{ "check", ks_cmd_check, "check built modules against the schedule (default)" },
	{ "lint", ks_cmd_lint, "check schedule files for errors" },
	{ "unused", ks_cmd_unused, "list exports that no given module imports" },
	{ "users", ks_cmd_users, "list the modules that import a symbol, and where" },
	{ "mark", ks_cmd_mark, "schedule symbols for removal: append a schedule entry" },
	{ "make", ks_cmd_make, "build modules with the plugin (make ARGS), then check them" },
};

static void help(void)
{
	printf("Usage: ksunset COMMAND [OPTION]... [ARG]...\n"
	       "Give the removal of exported kernel symbols a schedule.\n\n"
	       "Commands:\n");
	for (size_t i = 0; i < sizeof(subcmds) / sizeof(subcmds[0]); i++)
		printf("  %-8s %s\n", subcmds[i].name, subcmds[i].summary);
	printf("\n  --help         show this help ('ksunset COMMAND --help' for a command)\n"
	       "  --version      show the version\n"
	       "  --cflags [-s SCHEDULE]... [--kernel-dir KDIR]\n"
	       "                 print the compiler flags that load the plugin\n"
	       "  --plugin-path  print where the plugin is\n\n"
	       "Exit status: 0 no errors, 1 errors found, 2 bad usage or unusable input.\n"
	       "See ksunset(1) and ksunset.schedule(5).\n");
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : NULL;

	if (!name) {
		ks_usage_error(NULL, "no command given");
		return KS_EXIT_USAGE;
	}
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
		help();
		return KS_EXIT_OK;
	}
	if (strcmp(name, "--version") == 0) {
		printf("ksunset %s\n", KS_VERSION);
		return KS_EXIT_OK;
	}
	if (strcmp(name, "--cflags") == 0 || strcmp(name, "--plugin-path") == 0)
		return ks_cmd_cflags(argc - 1, argv + 1);
	for (size_t i = 0; i < sizeof(subcmds) / sizeof(subcmds[0]); i++)
		if (strcmp(name, subcmds[i].name) == 0)
			return subcmds[i].run(argc - 1, argv + 1);
	/* check is the default: "ksunset -s S foo.ko" and "ksunset foo.ko" */
	if (name[0] == '-' || strchr(name, '/') || strchr(name, '.'))
		return ks_cmd_check(argc, argv);
	ks_usage_error(NULL, "unknown command '%s'", name);
	return KS_EXIT_USAGE;
}
