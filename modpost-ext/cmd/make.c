/* ksunset make: the ordinary Kbuild module build with the plugin added
 * through KCFLAGS, then ksunset check on what it built. Also --cflags and
 * --plugin-path for people who wire KCFLAGS themselves. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alloc.h"
#include "buf.h"
#include "cmd/cli.h"
#include "cmd/cmd.h"
#include "input/kernel.h"

struct make_run {
	struct ks_paths check_args;	/* the leading check options */
	struct ks_paths schedules;	/* -s values among them */
	const char *kernel_dir;		/* --kernel-dir among them */
	char **make_argv;		/* "make" and the make arguments */
	int make_argc;
	char *kcflags_arg;		/* a KCFLAGS= argument we extended */
	char *m_args[2];		/* M= and SUBDIRS= arguments made absolute */
	char *kdir, *mdir;
	bool report_only;		/* --report-only: findings keep make's status */
	bool strict;			/* --strict among the check options */
	bool api;			/* --api (or --target): the plugin's api argument */
	struct ks_paths targets;	/* --target among the check options */
	bool history;			/* --history among them */
};

static bool exists(const char *dir, const char *file)
{
	char *p = ks_strdupf("%s/%s", dir, file);
	bool r = access(p, F_OK) == 0;

	free(p);
	return r;
}

/* Absolute paths, since make -C changes directory. */
static int absolute(struct ks_paths *p)
{
	for (size_t i = 0; i < p->n; i++) {
		char *a = realpath(p->v[i], NULL);

		if (!a) {
			fprintf(stderr, "%s: error: cannot read schedule: %s\n", p->v[i],
				strerror(errno));
			return -EINVAL;
		}
		free(p->v[i]);
		p->v[i] = a;
	}
	return 0;
}

static int flags_error(const char *fmt, ...) KS_PRINTF(1, 2);

static int flags_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ksunset: error: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -EINVAL;
}

/* Checks the schedules and joins them with ':' into the plugin argument. */
static int schedule_arg(struct ks_paths *found, struct ks_buf *b)
{
	struct ks_schedule s = KS_SCHEDULE_INIT;
	struct ks_diags d = { 0 };
	int r = 0;

	for (size_t i = 0; i < found->n; i++)
		if (ks_schedule_load(&s, found->v[i], &d) < 0)
			r = -EINVAL;
	ks_diags_sort(&d);
	ks_diags_print(&d, stderr);
	for (size_t i = 0; !r && i < found->n; i++) {
		if (strpbrk(found->v[i], " \t\n:"))
			r = flags_error("schedule path '%s' holds a space or colon", found->v[i]);
		else
			ks_buf_addf(b, "%s%s", i ? ":" : "", found->v[i]);
	}
	ks_diags_free(&d);
	ks_schedule_free(&s);
	return r;
}

/* The compiler flags that load the plugin with the schedules found as
 * ksunset(1) says; *files gets the schedules, ':'-separated: "" when none
 * was found, and then the plugin honours __sunset attributes alone. */
static int plugin_flags(const struct make_run *mr, const char *kdir, char **flags,
			char **files)
{
	struct ks_paths found = { 0 };
	struct ks_buf sched = KS_BUF_INIT;
	char *plugin = NULL;
	int r;

	ks_cli_find_schedules(&mr->schedules, kdir, &found);
	/* --history: the plugin records the uses of what the shipped history
	 * says Debian's kernels removed */
	if (mr->history)
		ks_paths_add(&found, ks_cli_history_file());

	r = absolute(&found);
	if (!r)
		r = schedule_arg(&found, &sched);
	if (!r && !(plugin = ks_cli_plugin_path()))
		r = flags_error("%s", "cannot find ksunset.so (set KSUNSET_PLUGIN)");
	if (!r && strpbrk(plugin, " \t\n"))
		r = flags_error("plugin path '%s' holds a space", plugin);
	if (!r) {
		*flags = ks_strdupf("-fplugin=%s%s%s%s", plugin,
				    found.n ? " -fplugin-arg-ksunset-schedule=" : "",
				    found.n ? sched.p : "", mr->api ? " -fplugin-arg-ksunset-api" : "");
		*files = ks_xstrdup(found.n ? sched.p : "");
	}
	free(plugin);
	ks_buf_free(&sched);
	ks_paths_free(&found);
	return r;
}

/* Said once, when no schedule was found: where ksunset looked. */
static void say_no_schedule(const char *kdir)
{
	char *why = ks_cli_no_schedule(kdir, true);

	fprintf(stderr, "ksunset: note: %s\n", why);
	free(why);
}

/* The value of VAR=VALUE among the make arguments, else of $VAR. */
static const char *make_var(const struct make_run *mr, const char *var)
{
	size_t n = strlen(var);

	for (int i = mr->make_argc - 1; i > 0; i--)
		if (!strncmp(mr->make_argv[i], var, n) && mr->make_argv[i][n] == '=')
			return mr->make_argv[i] + n + 1;
	return getenv(var);
}

/* make's -C DIR, -CDIR, --directory=DIR or --directory DIR. */
static const char *make_dir(const struct make_run *mr)
{
	const char *dir = NULL;

	for (int i = 1; i < mr->make_argc; i++) {
		const char *a = mr->make_argv[i];

		if ((!strcmp(a, "-C") || !strcmp(a, "--directory")) && i + 1 < mr->make_argc)
			dir = mr->make_argv[++i];
		else if (!strncmp(a, "-C", 2) && a[2])
			dir = a + 2;
		else if (!strncmp(a, "--directory=", 12))
			dir = a + 12;
	}
	return dir;
}

static char *resolve(const char *dir)
{
	char *r = realpath(dir, NULL);

	return r ? r : ks_xstrdup(dir);
}

/* The kernel build dir and the module dir. "make -C KDIR M=DIR" is the
 * Kbuild way; "make -C MODDIR KERNELDIR=KDIR" (a module's own Makefile
 * that calls Kbuild) is the other common one. */
static int find_dirs(struct make_run *mr)
{
	static const char *const kvars[] = { "KERNELDIR", "KDIR", "KERNEL_DIR", "KERNEL_SRC",
					     "KSRC" };
	const char *c = make_dir(mr), *m = make_var(mr, "M");
	struct utsname u;

	if (!m)
		m = make_var(mr, "SUBDIRS");
	if (mr->kernel_dir)
		mr->kdir = resolve(mr->kernel_dir);
	else if (c && exists(c, "scripts/Makefile.build"))
		mr->kdir = resolve(c);
	for (size_t i = 0; !mr->kdir && i < KS_ARRAY_SIZE(kvars); i++)
		if (make_var(mr, kvars[i]))
			mr->kdir = resolve(make_var(mr, kvars[i]));
	if (!mr->kdir && uname(&u) == 0)
		mr->kdir = ks_strdupf("/lib/modules/%s/build", u.release);
	if (m)
		mr->mdir = resolve(m);
	else if (c && (!mr->kdir || strcmp(mr->kdir, c) != 0) && !exists(c, "scripts/Makefile.build"))
		mr->mdir = resolve(c);
	else
		mr->mdir = resolve(".");
	return mr->kdir ? 0 : -ENOENT;
}

/* An absolute path for dir relative to the current directory: Kbuild
 * reads M= after make -C has changed directory, and with a relative one
 * recurses without end in the kernel's headers. */
static char *absolute_dir(const char *dir)
{
	char *r = realpath(dir, NULL), *cwd;

	if (!r && errno == ENOMEM)
		ks_nomem();
	if (r)
		return r;
	cwd = getcwd(NULL, 0);	/* a folder still to be made: join by hand */
	if (!cwd && errno == ENOMEM)
		ks_nomem();
	r = cwd ? ks_strdupf("%s/%s", cwd, dir) : NULL;
	free(cwd);
	return r;
}

/* Makes a relative VAR= (M=, SUBDIRS=) absolute where make will read it:
 * in its last argument (*owned gets the new one), else in the environment. */
static int absolute_var(struct make_run *mr, const char *var, char **owned)
{
	const char *m = make_var(mr, var);
	size_t n = strlen(var);
	char *abs;
	int i;

	if (!m || !*m || m[0] == '/')
		return 0;
	abs = absolute_dir(m);
	if (!abs)
		return -errno;
	for (i = mr->make_argc - 1; i > 0; i--)
		if (!strncmp(mr->make_argv[i], var, n) && mr->make_argv[i][n] == '=')
			break;
	if (i > 0) {
		*owned = ks_strdupf("%s=%s", var, abs);
		mr->make_argv[i] = *owned;
	} else if (setenv(var, abs, 1) < 0) {
		ks_nomem();
	}
	free(abs);
	return 0;
}

/* Splits "ksunset make [CHECK-OPTION]... [--] [MAKE-ARG]...". */
static int split_args(int argc, char **argv, struct make_run *mr)
{
	int i = 1;

	for (; i < argc; i++) {
		enum ks_arity a = ks_cmd_option_arity(&ks_cmd_check, argv[i]);

		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "--report-only")) {
			mr->report_only = true;
			continue;
		}
		if (!strcmp(argv[i], "--api")) {	/* make's, not check's */
			mr->api = true;
			continue;
		}
		if (a == KS_NOT_AN_OPTION)
			break;
		if (a == KS_OPTION_WITH_NEXT && i + 1 == argc) {
			ks_usage_error("make", "option '%s' needs an argument", argv[i]);
			return -EINVAL;
		}
		ks_paths_add(&mr->check_args, argv[i]);
		if (a == KS_OPTION_WITH_NEXT)
			ks_paths_add(&mr->check_args, argv[++i]);
	}
	/* argv[i - 1] becomes "make" */
	mr->make_argv = argv + i - 1;
	mr->make_argc = argc - i + 1;
	return 0;
}

/* The value of option long/short among the check options, one by one. */
static const char *opt_value(const struct ks_paths *args, size_t *i, const char *lng, char shrt)
{
	const char *a = args->v[*i];
	size_t n = strlen(lng);

	if ((shrt && a[0] == '-' && a[1] == shrt && !a[2]) || !strcmp(a, lng))
		return *i + 1 < args->n ? args->v[++*i] : NULL;
	if (shrt && a[0] == '-' && a[1] == shrt)
		return a + 2;
	if (!strncmp(a, lng, n) && a[n] == '=')
		return a + n + 1;
	return NULL;
}

/* Drops check argument i, which is make's alone. */
static void drop_arg(struct ks_paths *args, size_t i)
{
	free(args->v[i]);
	memmove(&args->v[i], &args->v[i + 1], (args->n - i - 1) * sizeof(args->v[0]));
	args->n--;
}

static void scan_check_args(struct make_run *mr, bool *help)
{
	for (size_t i = 0; i < mr->check_args.n; i++) {
		const char *a = mr->check_args.v[i], *v;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			*help = true;
		} else if (!strcmp(a, "--api")) {
			mr->api = true;
			drop_arg(&mr->check_args, i--);
		} else if (!strcmp(a, "--strict")) {
			mr->strict = true;
		} else if (!strcmp(a, "--history")) {
			mr->history = true;
		} else if ((v = opt_value(&mr->check_args, &i, "--target", 0))) {
			ks_paths_add(&mr->targets, v);
			mr->api = true;	/* the forecast needs the shapes */
		} else if (!strncmp(a, "--kernel-dir", 12)) {
			mr->kernel_dir = opt_value(&mr->check_args, &i, "--kernel-dir", 0);
		} else if ((v = opt_value(&mr->check_args, &i, "--schedule", 's'))) {
			ks_paths_add(&mr->schedules, v);
		}
	}
}

/* Appends the plugin flags to KCFLAGS: the make argument if given (it
 * overrides the environment), else the environment. */
static void add_kcflags(struct make_run *mr, const char *flags)
{
	for (int i = mr->make_argc - 1; i > 0; i--) {
		if (strncmp(mr->make_argv[i], "KCFLAGS=", 8))
			continue;
		mr->kcflags_arg = ks_strdupf("%s %s", mr->make_argv[i], flags);
		mr->make_argv[i] = mr->kcflags_arg;
		return;
	}
	const char *old = getenv("KCFLAGS");
	char *v = ks_strdupf("%s%s%s", old ? old : "", old && *old ? " " : "", flags);

	if (setenv("KCFLAGS", v, 1) < 0)
		ks_nomem();
	free(v);
}

/* ccache hashes the files in CCACHE_EXTRAFILES into every result, so a
 * changed schedule is a cache miss rather than a replay of old warnings:
 * the schedule's path alone is on the command line, and ccache's
 * preprocessor mode would not see a change of its contents. */
static void add_ccache_files(const char *files)
{
	const char *old = getenv("CCACHE_EXTRAFILES");
	char *v;

	if (!*files)
		return;	/* no schedule */
	v = ks_strdupf("%s%s%s", old ? old : "", old && *old ? ":" : "", files);
	if (setenv("CCACHE_EXTRAFILES", v, 1) < 0)
		ks_nomem();
	free(v);
}

/* Runs make; its exit status, or 2 if it could not run or was killed. */
static int run_make(struct make_run *mr)
{
	const char *make = getenv("MAKE");
	pid_t pid;
	int st;

	mr->make_argv[0] = (char *)(make && *make ? make : "make");
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		execvp(mr->make_argv[0], mr->make_argv);
		fprintf(stderr, "ksunset make: error: cannot run %s: %s\n", mr->make_argv[0],
			strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0) {
		fprintf(stderr, "ksunset make: error: cannot run make: %s\n", strerror(errno));
		return KS_EXIT_USAGE;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : KS_EXIT_USAGE;
}

/* "check [CHECK-OPTION]... -i KDIR/Module.symvers [-i M/Module.symvers]
 * [-i EXTRA]... --kernel-dir KDIR M/modules.order", then runs it: the
 * exports of the build itself (a sibling module's) count as exported.
 * With --target, the build kernel's exports are not the target's: only
 * the build's own and the extra ones are added to the target's. */
static int run_check(struct make_run *mr)
{
	struct ks_paths av = { 0 };
	const char *extra = make_var(mr, "KBUILD_EXTRA_SYMBOLS");
	char *order = ks_strdupf("%s/modules.order", mr->mdir);
	char *symvers = ks_strdupf("%s/Module.symvers", mr->kdir);
	char *own = ks_strdupf("%s/Module.symvers", mr->mdir);
	int r;

	ks_paths_add(&av, "check");
	for (size_t i = 0; i < mr->check_args.n; i++)
		ks_paths_add(&av, mr->check_args.v[i]);
	if (!mr->targets.n && access(symvers, F_OK) == 0) {
		ks_paths_add(&av, "-i");
		ks_paths_add(&av, symvers);
	}
	if (strcmp(own, symvers) != 0 && access(own, F_OK) == 0) {
		ks_paths_add(&av, "-i");
		ks_paths_add(&av, own);
	}
	while (extra && *(extra += strspn(extra, " "))) {
		size_t n = strcspn(extra, " ");
		char *one = ks_xstrndup(extra, n);

		ks_paths_add(&av, "-i");
		ks_paths_add(&av, one);
		free(one);
		extra += n;
	}
	if (!mr->kernel_dir) {
		ks_paths_add(&av, "--kernel-dir");
		ks_paths_add(&av, mr->kdir);
	}
	ks_paths_add(&av, access(order, F_OK) == 0 ? order : mr->mdir);
	optind = 1;
	r = ks_cmd_main(&ks_cmd_check, (int)av.n, av.v);
	free(order);
	free(symvers);
	free(own);
	ks_paths_free(&av);
	return r;
}

static void make_help(void)
{
	printf("Usage: ksunset make [CHECK-OPTION]... [--] [MAKE-ARGUMENT]...\n"
	       "Run make with the ksunset plugin added to KCFLAGS, then 'ksunset check' on\n"
	       "the modules it built (M/modules.order) against KDIR/Module.symvers,\n"
	       "M/Module.symvers and KBUILD_EXTRA_SYMBOLS. CHECK-OPTIONs are those of 'ksunset check --help'.\n\n"
	       "  ksunset make -s my.schedule --strict -C /lib/modules/$(uname -r)/build M=$PWD\n\n"
	       "The kernel build dir is -C's when it is a kernel tree, else KERNELDIR, KDIR,\n"
	       "KERNEL_DIR, KERNEL_SRC or KSRC, else /lib/modules/$(uname -r)/build.\n"
	       "With no schedule found, the modules are built and not checked (one note),\n"
	       "unless --target asks whether they build and load on another kernel.\n\n"
	       "      --api          also record what the source depends on in the kernel's\n"
	       "                     headers, for a later 'check --target' (the plugin's\n"
	       "                     api argument; --target implies it)\n"
	       "      --report-only  report the findings but keep make's exit status (a\n"
	       "                     DKMS build on users' machines); not with --strict\n\n"
	       "Exit status: make's if the build failed, else the check's (with\n"
	       "--report-only, 0 for findings too).\n");
}

/* Everything before make runs: the directories, the plugin's flags. */
static int prepare_make(struct make_run *mr, char **flags, char **files)
{
	int r = absolute_var(mr, "M", &mr->m_args[0]);

	if (!r)
		r = absolute_var(mr, "SUBDIRS", &mr->m_args[1]);
	if (!r)
		r = find_dirs(mr);
	if (!r)
		r = plugin_flags(mr, mr->kdir, flags, files);
	if (!r) {
		add_kcflags(mr, *flags);
		add_ccache_files(*files);
	}
	return r;
}

/* --target is read before the build: a build that cannot be checked
 * against it would only waste the time it takes. */
static int target_usable(const char *target)
{
	struct ks_kernel k = { 0 };
	struct ks_diags d = { 0 };
	int r = ks_kernel_open(&k, target, &d);

	if (r)
		ks_diags_print(&d, stderr);
	ks_kernel_free(&k);
	ks_diags_free(&d);
	return r;
}

static int make_main(int argc, char **argv)
{
	struct make_run mr = { 0 };
	bool help = false;
	char *flags = NULL, *files = NULL;
	int r = split_args(argc, argv, &mr);

	if (!r)
		scan_check_args(&mr, &help);
	if (!r && help) {
		make_help();
		goto out;
	}
	if (!r && mr.report_only && mr.strict) {
		ks_usage_error("make", "%s", "--report-only and --strict exclude each other");
		r = -EINVAL;
	}
	/* what check would refuse, before the build */
	for (size_t i = 0; !r && i < mr.targets.n; i++)
		for (size_t j = 0; !r && j < i; j++)
			if (!strcmp(mr.targets.v[i], mr.targets.v[j])) {
				ks_usage_error("make", "--target '%s' given twice", mr.targets.v[i]);
				r = -EINVAL;
			}
	for (size_t i = 0; !r && i < mr.targets.n; i++)
		r = target_usable(mr.targets.v[i]);
	if (!r)
		r = prepare_make(&mr, &flags, &files);
	if (r) {
		r = KS_EXIT_USAGE;
		goto out;
	}
	r = run_make(&mr);
	/* without a schedule there is nothing to check, but against --target */
	if (!*files && !mr.targets.n)
		say_no_schedule(mr.kdir);
	else if (r == 0 && (r = run_check(&mr)) == KS_EXIT_FINDINGS && mr.report_only)
		r = KS_EXIT_OK;	/* the errors are in the report; the build stands */
out:
	free(flags);
	free(files);
	free(mr.kdir);
	free(mr.mdir);
	free(mr.kcflags_arg);
	free(mr.m_args[0]);
	free(mr.m_args[1]);
	ks_paths_free(&mr.check_args);
	ks_paths_free(&mr.schedules);
	ks_paths_free(&mr.targets);
	return r;
}

/* ksunset --cflags [-s SCHEDULE]... [--kernel-dir KDIR] | --plugin-path */
int ks_cflags_main(int argc, char **argv)
{
	struct make_run mr = { 0 };
	char *out = NULL, *files = NULL;
	bool help = false;
	int r = 0;

	if (!strcmp(argv[0], "--plugin-path")) {
		out = ks_cli_plugin_path();
		if (!out)
			flags_error("%s", "cannot find ksunset.so (set KSUNSET_PLUGIN)");
	} else {
		for (int i = 1; i < argc; i++)
			ks_paths_add(&mr.check_args, argv[i]);
		scan_check_args(&mr, &help);
		r = plugin_flags(&mr, mr.kernel_dir, &out, &files);
		if (!r && !*files && !mr.api)
			say_no_schedule(mr.kernel_dir);
	}
	if (out && !r)
		printf("%s\n", out);
	r = out && !r ? KS_EXIT_OK : KS_EXIT_USAGE;
	free(out);
	free(files);
	ks_paths_free(&mr.check_args);
	ks_paths_free(&mr.schedules);
	ks_paths_free(&mr.targets);
	return r;
}

const struct ks_cmd ks_cmd_make = {
	.name = "make",
	.summary = "build modules with the plugin (make ARGS), then check them",
	.main = make_main,
};
