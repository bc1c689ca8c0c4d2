/* ksunset: checks built kernel modules against a symbol removal schedule.
 * main only picks the subcommand; each one lives in a file of its own
 * under cmd/ and is one row of the table below. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "module/elfmod.h"
#include "report/escape.h"

static const struct ks_cmd *const cmds[] = {
	&ks_cmd_check,	/* the default */
	&ks_cmd_lint,
	&ks_cmd_unused,
	&ks_cmd_users,
	&ks_cmd_mark,
	&ks_cmd_make,
	&ks_cmd_diff,
	&ks_cmd_fix,
};

#define NCMDS KS_ARRAY_SIZE(cmds)

static void help(void)
{
	printf("Usage: ksunset COMMAND [OPTION]... [ARG]...\n"
	       "Give the removal of exported kernel symbols a schedule.\n\n"
	       "Commands:\n");
	for (size_t i = 0; i < NCMDS; i++)
		printf("  %-8s %s\n", cmds[i]->name, cmds[i]->summary);
	printf("\n  --help         show this help ('ksunset COMMAND --help' for a command)\n"
	       "  --version      show the version\n"
	       "  --cflags [-s SCHEDULE]... [--kernel-dir KDIR]\n"
	       "                 print the compiler flags that load the plugin\n"
	       "  --plugin-path  print where the plugin is\n\n"
	       "Exit status: 0 no errors, 1 errors found, 2 bad usage or unusable input.\n"
	       "See ksunset(1) and ksunset.schedule(5).\n");
}

static const struct ks_cmd *find(const char *name)
{
	for (size_t i = 0; i < NCMDS; i++)
		if (strcmp(name, cmds[i]->name) == 0)
			return cmds[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : NULL;
	const struct ks_cmd *cmd;

	if (!name) {
		ks_usage_error(NULL, "no command given");
		return KS_EXIT_USAGE;
	}
	/* every byte written from here on is safe for a terminal */
	if (ks_escape_streams() < 0) {
		fprintf(stderr, "ksunset: error: cannot set up the output\n");
		return KS_EXIT_USAGE;
	}
	if (ks_elf_init() < 0) {
		fprintf(stderr, "ksunset: error: libelf is out of date\n");
		return KS_EXIT_USAGE;
	}
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
		help();
		return ks_cmd_stdout_written() < 0 ? KS_EXIT_USAGE : KS_EXIT_OK;
	}
	if (strcmp(name, "--version") == 0) {
		printf("ksunset %s\n", KS_VERSION);
		return ks_cmd_stdout_written() < 0 ? KS_EXIT_USAGE : KS_EXIT_OK;
	}
	if (strcmp(name, "--cflags") == 0 || strcmp(name, "--plugin-path") == 0)
		return ks_cflags_main(argc - 1, argv + 1);
	if ((cmd = find(name)))
		return ks_cmd_main(cmd, argc - 1, argv + 1);
	/* check is the default: "ksunset -s S foo.ko" and "ksunset foo.ko";
	 * a command written after options ("ksunset --history check x.ko") is
	 * a misplaced command, not a module path */
	if (name[0] == '-' || strchr(name, '/') || strchr(name, '.')) {
		for (int i = 2; i < argc; i++)
			if (find(argv[i]) && access(argv[i], F_OK) != 0) {
				ks_usage_error(NULL, "'%s' is a command: give it first, before "
						     "its options ('ksunset %s --help')",
					       argv[i], argv[i]);
				return KS_EXIT_USAGE;
			}
		return ks_cmd_main(&ks_cmd_check, argc, argv);
	}
	ks_usage_error(NULL, "unknown command '%s'", name);
	return KS_EXIT_USAGE;
}
