/* Shared command-line steps: schedule discovery (first match wins, as in
 * ksunset(1)) and today's date. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <glob.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "buf.h"
#include "cmd/cli.h"
#include "cmd/cmd.h"

#ifndef KS_SYSCONFDIR
#define KS_SYSCONFDIR "/etc"
#endif
#ifndef KS_DATADIR
#define KS_DATADIR "/usr/local/share"
#endif

void ks_paths_add(struct ks_paths *p, const char *path)
{
	ks_strv_add(&p->v, &p->n, path);
}

void ks_paths_free(struct ks_paths *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
	p->v = NULL;
	p->n = 0;
}

static void add_list(struct ks_paths *out, const char *list)
{
	while (*list) {
		size_t n = strcspn(list, ":");
		char *one = ks_xstrndup(list, n);

		if (n)
			ks_paths_add(out, one);
		free(one);
		list += n + (list[n] == ':');
	}
}

/* Adds dir/ *.schedule, sorted. */
static void add_dir(struct ks_paths *out, const char *dir)
{
	char *pat = ks_strdupf("%s/*.schedule", dir);
	glob_t g;

	if (glob(pat, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++)
			ks_paths_add(out, g.gl_pathv[i]);
		globfree(&g);
	}
	free(pat);
}

void ks_cli_find_schedules(const struct ks_paths *given, const char *kdir, struct ks_paths *out)
{
	const char *env = getenv("KSUNSET_SCHEDULE");
	char *p;

	if (given->n) {
		for (size_t i = 0; i < given->n; i++)
			ks_paths_add(out, given->v[i]);
		return;
	}
	if (env && *env) {
		add_list(out, env);
		return;
	}
	if (kdir) {
		p = ks_strdupf("%s/ksunset.schedule", kdir);
		if (access(p, F_OK) == 0)
			ks_paths_add(out, p);
		free(p);
		if (out->n)
			return;
	}
	add_dir(out, KS_SYSCONFDIR "/ksunset/schedule.d");
	if (out->n)
		return;
	add_dir(out, KS_DATADIR "/ksunset/schedule.d");
}

char *ks_cli_no_schedule(const char *kdir, bool attrs)
{
	return ks_strdupf("no schedule found (looked for $KSUNSET_SCHEDULE, %s%s"
			  "%s/ksunset/schedule.d/*.schedule and "
			  "%s/ksunset/schedule.d/*.schedule): nothing checked%s; "
			  "give -s FILE or set KSUNSET_SCHEDULE",
			  kdir ? kdir : "", kdir ? "/ksunset.schedule, " : "", KS_SYSCONFDIR,
			  KS_DATADIR, attrs ? " but __sunset attributes" : "");
}

int ks_cli_load_schedules(struct ks_schedule *s, const struct ks_paths *given,
			  const char *kdir, int required, struct ks_diags *d)
{
	struct ks_paths found = { 0 };
	int ret = 0;

	ks_cli_find_schedules(given, kdir, &found);
	for (size_t i = 0; i < found.n; i++) {
		int r = ks_schedule_load(s, found.v[i], d);

		/* go on after a bad file; an unreadable one outranks bad content */
		if (r < 0 && (ret == 0 || ret == -EINVAL))
			ret = r;
	}
	if (!ret && !found.n && required) {
		char *why = ks_cli_no_schedule(kdir, false);

		ks_diag_add(d, KS_ERROR, NULL, 0, 0, "%s", why);
		ret = -ENOENT;
		free(why);
	}
	ks_paths_free(&found);
	return ret;
}

int ks_cli_today(const char *cmd, const char *arg, int32_t *today)
{
	const char *why = "";
	int r = ks_today(arg, today, &why);

	if (r < 0)
		ks_usage_error(cmd, "bad date '%s': %s", arg ? arg : getenv("SOURCE_DATE_EPOCH"),
			       why);
	return r;
}

int ks_cli_format(const char *cmd, const char *arg, int sarif_ok, enum ks_format *fmt)
{
	if (ks_format_parse(arg, fmt) == 0 && (sarif_ok || *fmt != KS_FORMAT_SARIF))
		return 0;
	ks_usage_error(cmd, "bad --format '%s': expected %s", arg,
		       sarif_ok ? "text, json or sarif" : "text or json");
	return -EINVAL;
}

int ks_cli_dwarf_opt(const char *cmd, int c, const char *arg, struct ks_locate_opts *o)
{
	if (c == KS_CLI_OPT_DEBUG_DIR) {
		o->debug_dir = arg;
		return 0;
	}
	if (ks_locations_parse(arg, o) == 0)
		return 0;
	ks_usage_error(cmd, "bad --locations '%s': expected plugin, dwarf or auto", arg);
	return -EINVAL;
}

int ks_cli_dwarf_env(const char *cmd, struct ks_locate_opts *o)
{
	const char *env = getenv("KSUNSET_DWARF_READER");

	o->libdw = env && !strcmp(env, "libdw");
	if (!env || !*env || o->libdw || !strcmp(env, "ksunset"))
		return 0;
	ks_usage_error(cmd, "bad KSUNSET_DWARF_READER '%s': expected libdw or ksunset", env);
	return -EINVAL;
}

#ifndef KS_PLUGINDIR
#define KS_PLUGINDIR "/usr/local/lib/ksunset"
#endif

static bool file_in(const char *dir, const char *file)
{
	char *p = ks_strdupf("%s/%s", dir, file);
	bool r = access(p, F_OK) == 0;

	free(p);
	return r;
}

/* The plugin: $KSUNSET_PLUGIN, else beside this program (a build tree),
 * else ../lib/ksunset/ from it (an installed tree), else the configured
 * plugin directory. */
/* The directory of this program; "" if unknown. */
static const char *exe_dir(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	char *slash;

	if (n <= 0)
		return "";
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	return buf;
}

char *ks_cli_plugin_path(void)
{
	const char *env = getenv("KSUNSET_PLUGIN");
	char exe[PATH_MAX], *p, *r;
	const char *dir;

	if (env && *env)
		return ks_xstrdup(env);
	dir = exe_dir(exe, sizeof(exe));
	if (*dir && file_in(dir, "ksunset.so"))
		return ks_strdupf("%s/ksunset.so", dir);
	if (*dir && file_in(dir, "../lib/ksunset/ksunset.so")) {
		p = ks_strdupf("%s/../lib/ksunset/ksunset.so", dir);
		r = realpath(p, NULL);
		free(p);
		return r;
	}
	return file_in(KS_PLUGINDIR, "ksunset.so") ? ks_xstrdup(KS_PLUGINDIR "/ksunset.so") : NULL;
}

#ifndef KS_DATADIR
#define KS_DATADIR "/usr/local/share"
#endif

char *ks_cli_migrations_file(const char *to)
{
	static const char *const ups[] = { "/..", "/../.." };	/* build/, build/san/ */
	char exe[PATH_MAX], *dir_path = NULL, *r = NULL;
	const char *dir = exe_dir(exe, sizeof(exe));
	struct dirent **names = NULL;
	char *suffix = ks_strdupf("-%s.migrations", to);
	int n;

	for (size_t i = 0; !dir_path && *dir && i < KS_ARRAY_SIZE(ups); i++) {
		char *p = ks_strdupf("%s%s/share/migrations", dir, ups[i]);

		if (access(p, R_OK) == 0)
			dir_path = p;
		else
			free(p);
	}
	if (!dir_path)
		dir_path = ks_xstrdup(KS_DATADIR "/ksunset/migrations");
	/* the first, by name, of the files that lead to that release */
	n = scandir(dir_path, &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		size_t len = strlen(names[i]->d_name), sl = strlen(suffix);

		if (!r && len > sl && !strcmp(names[i]->d_name + len - sl, suffix))
			r = ks_strdupf("%s/%s", dir_path, names[i]->d_name);
		free(names[i]);
	}
	free(names);
	free(suffix);
	free(dir_path);
	return r;
}

const char *ks_cli_history_file(void)
{
	static const char *const ups[] = { "/..", "/../.." };	/* build/, build/san/ */
	static char built[PATH_MAX + 32];
	const char *env = getenv("KSUNSET_HISTORY"), *dir;
	char exe[PATH_MAX];

	if (env && *env)
		return env;
	dir = exe_dir(exe, sizeof(exe));
	for (size_t i = 0; *dir && i < KS_ARRAY_SIZE(ups); i++) {
		snprintf(built, sizeof(built), "%s%s/share/history.schedule", dir, ups[i]);
		if (access(built, R_OK) == 0)
			return built;
	}
	return KS_DATADIR "/ksunset/history.schedule";
}
