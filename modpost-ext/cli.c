/* Shared command-line steps: schedule discovery (first match wins, as in
 * ksunset(1)) and today's date. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "cli.h"
#include "cmd.h"

#ifndef KS_SYSCONFDIR
#define KS_SYSCONFDIR "/etc"
#endif
#ifndef KS_DATADIR
#define KS_DATADIR "/usr/local/share"
#endif

int ks_paths_add(struct ks_paths *p, char *path)
{
	char **v = realloc(p->v, (p->n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	p->v = v;
	v[p->n++] = path;
	return 0;
}

void ks_paths_free(struct ks_paths *p)
{
	free(p->v);
	p->v = NULL;
	p->n = 0;
}

static int merge(int ret, int r)
{
	if (r == -ENOMEM || ret == -ENOMEM)
		return -ENOMEM;
	/* an unreadable file outranks errors inside a readable one */
	if (ret < 0 && ret != -EINVAL)
		return ret;
	return r < 0 ? r : ret;
}

/* Loads every *.schedule in dir; returns how many were found, or -errno. */
static int load_dir(struct ks_schedule *s, const char *dir, struct ks_diags *d, int *ret)
{
	char *pat = ks_strdupf("%s/*.schedule", dir);
	glob_t g;
	int n = 0;

	if (!pat)
		return -ENOMEM;
	if (glob(pat, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++, n++)
			*ret = merge(*ret, ks_schedule_load(s, g.gl_pathv[i], d));
		globfree(&g);
	}
	free(pat);
	return n;
}

int ks_cli_load_schedules(struct ks_schedule *s, const struct ks_paths *given,
			  const char *kdir, int required, struct ks_diags *d)
{
	const char *env = getenv("KSUNSET_SCHEDULE");
	int ret = 0;

	if (given->n) {
		for (size_t i = 0; i < given->n; i++)
			ret = merge(ret, ks_schedule_load(s, given->v[i], d));
		return ret;
	}
	if (env && *env)
		return ks_schedule_load_list(s, env, d);
	if (kdir) {
		char *p = ks_strdupf("%s/ksunset.schedule", kdir);

		if (!p)
			return -ENOMEM;
		if (access(p, F_OK) == 0)
			ret = ks_schedule_load(s, p, d);
		free(p);
		if (s->nfiles)
			return ret;
	}
	if (load_dir(s, KS_SYSCONFDIR "/ksunset/schedule.d", d, &ret) > 0)
		return ret;
	if (load_dir(s, KS_DATADIR "/ksunset/schedule.d", d, &ret) > 0 || !required)
		return ret;
	ret = ks_diag_add(d, KS_ERROR, NULL, 0, 0,
			  "no schedule: give -s FILE or set KSUNSET_SCHEDULE");
	return ret < 0 ? ret : -ENOENT;
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
