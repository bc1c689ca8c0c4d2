/* Opening another kernel: find its Module.symvers and release, and turn a
 * file that is no Module.symvers into one error instead of one per line. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc.h"
#include "buf.h"
#include "input/kernel.h"

static int say(struct ks_diags *d, const char *file, unsigned line, const char *msg)
{
	ks_diag_add(d, KS_ERROR, file, line, 0, "%s", msg);
	return -EINVAL;
}

/* The first line of path, without its newline; NULL if unreadable. */
static char *first_line(const char *path)
{
	struct ks_buf b = KS_BUF_INIT;
	char *s;

	if (ks_buf_read_file(&b, path) < 0 || !b.p) {
		ks_buf_free(&b);
		return NULL;
	}
	b.p[strcspn(b.p, "\n")] = '\0';
	s = ks_xstrdup(b.p);
	ks_buf_free(&b);
	return s;
}

/* UTS_RELEASE from a "#define UTS_RELEASE "6.1.0-57-amd64"" line. */
static char *uts_release(const char *dir)
{
	char *path = ks_strdupf("%s/include/generated/utsrelease.h", dir);
	char *l = first_line(path), *rel = NULL, *q;
	const char *def = "#define UTS_RELEASE \"";

	if (l && strncmp(l, def, strlen(def)) == 0 && (q = strchr(l + strlen(def), '"'))) {
		*q = '\0';
		rel = ks_xstrdup(l + strlen(def));
	}
	free(l);
	free(path);
	return rel;
}

static void dir_release(struct ks_kernel *k)
{
	char *path;

	k->release = uts_release(k->dir);
	if (k->release)
		return;
	path = ks_strdupf("%s/include/config/kernel.release", k->dir);
	k->release = first_line(path);
	free(path);
	if (k->release && !k->release[0]) {
		free(k->release);
		k->release = NULL;
	}
}

/* Which file to read: arg itself, or the directory's Module.symvers. */
static int locate(struct ks_kernel *k, const char *arg, struct ks_diags *d)
{
	struct stat st;
	int e;

	if (stat(arg, &st) < 0) {
		e = errno;
		ks_diag_add(d, KS_ERROR, arg, 0, 0, "cannot read: %s", strerror(e));
		return -e;
	}
	if (S_ISREG(st.st_mode)) {
		k->symvers = ks_xstrdup(arg);
		return 0;
	}
	if (!S_ISDIR(st.st_mode))
		return say(d, arg, 0, "neither a Module.symvers nor a directory holding one");
	k->dir = ks_xstrdup(arg);
	k->symvers = ks_strdupf("%s/Module.symvers", arg);
	if (stat(k->symvers, &st) < 0 || !S_ISREG(st.st_mode))
		return say(d, arg, 0,
			   "a directory without a Module.symvers: neither a Module.symvers nor "
			   "a kernel build or headers directory");
	dir_release(k);
	return 0;
}

/* The first of the parser's errors, standing for all of them. */
static int first_error(struct ks_diags *got, struct ks_diags *d)
{
	const struct ks_diag *g = &got->v[0];
	char *msg = ks_strdupf("%s%s", g->line == 1 ? "not a Module.symvers: " : "", g->msg);
	char *more = got->n > 1 ? ks_strdupf(" (and %zu more malformed line%s)", got->n - 1,
					     got->n > 2 ? "s" : "")
				: ks_xstrdup("");

	ks_diag_add(d, KS_ERROR, g->file, g->line, 0, "%s%s", msg, more);
	free(msg);
	free(more);
	return -EINVAL;
}

int ks_kernel_open(struct ks_kernel *k, const char *arg, struct ks_diags *d)
{
	struct ks_diags got = { 0 };
	int r;

	k->arg = ks_xstrdup(arg);
	r = locate(k, arg, d);
	if (r)
		return r;
	r = ks_symvers_load(&k->sv, k->symvers, &got);
	if (r == -EINVAL && got.nerrors) {
		r = first_error(&got, d);
	} else {
		ks_diags_move(d, &got);
		if (!r && !k->sv.n)
			r = say(d, k->symvers, 0, "no exports: not a Module.symvers");
	}
	ks_diags_free(&got);
	return r;
}

void ks_kernel_set_release(struct ks_kernel *k, const char *release)
{
	free(k->release);
	k->release = ks_xstrdup(release);
}

void ks_kernel_free(struct ks_kernel *k)
{
	ks_symvers_free(&k->sv);
	free(k->arg);
	free(k->dir);
	free(k->symvers);
	free(k->release);
	memset(k, 0, sizeof(*k));
}
