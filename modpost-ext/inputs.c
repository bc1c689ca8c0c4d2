/* Expanding MODULE arguments. Directory order is made deterministic by
 * sorting, so reports do not depend on the file system. */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "inputs.h"

static int push(struct ks_inputs *in, char *path)
{
	if (!path)
		return -ENOMEM;
	if (in->n == in->cap) {
		size_t cap = in->cap ? in->cap * 2 : 64;
		char **v = realloc(in->paths, cap * sizeof(*v));

		if (!v) {
			free(path);
			return -ENOMEM;
		}
		in->paths = v;
		in->cap = cap;
	}
	in->paths[in->n++] = path;
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int is_module_name(const char *s)
{
	return ends_with(s, ".ko") || ends_with(s, ".ko.xz") || ends_with(s, ".ko.zst") ||
	       ends_with(s, ".ko.gz");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int dir_problem(struct ks_diags *d, const char *dir, int err)
{
	return ks_diag_add(d, KS_ERROR, dir, 0, 0, "cannot search directory: %s",
			   strerror(err)) < 0 ? -ENOMEM : -err;
}

/* The type of p, for file systems whose readdir() does not say. */
/* The type of name in dfd, for file systems whose readdir() does not say. */
static int file_type(int dfd, const char *name, const char *p, unsigned char *type,
		     struct ks_diags *d)
{
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return dir_problem(d, p, errno);
	*type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
	return 0;
}

/* Collects module files below the directory open as dh (named dir), each
 * subdirectory opened relative to its parent. Symbolic links are not
 * followed, so a /lib/modules tree's build and source links are not
 * entered. Takes dh over. */
static int walk(struct ks_inputs *in, DIR *dh, const char *dir, struct ks_diags *d)
{
	struct dirent *de;
	int r = 0;

	while (r != -ENOMEM && (de = readdir(dh)) != NULL) {
		unsigned char type = de->d_type;
		char *p;
		int e = 0, fd;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		/* most entries are files of another name: no path, no stat */
		if (type == DT_REG && !is_module_name(de->d_name))
			continue;
		p = ks_strdupf("%s/%s", dir, de->d_name);
		if (!p) {
			e = -ENOMEM;
		} else if (type == DT_UNKNOWN && (e = file_type(dirfd(dh), de->d_name, p, &type, d)) < 0) {
			/* reported */
		} else if (type == DT_DIR) {
			fd = openat(dirfd(dh), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			DIR *sub = fd < 0 ? NULL : fdopendir(fd);

			if (!sub && fd >= 0)
				close(fd);
			e = sub ? walk(in, sub, p, d) : dir_problem(d, p, errno);
		} else if (type == DT_REG && is_module_name(de->d_name)) {
			e = push(in, p);
			p = NULL;
		}
		free(p);
		/* go on after a bad entry; remember the first problem */
		if (e && (!r || e == -ENOMEM))
			r = e;
	}
	closedir(dh);
	return r;
}

static int add_dir(struct ks_inputs *in, const char *dir, struct ks_diags *d)
{
	size_t first = in->n;
	DIR *dh = opendir(dir);
	int r = dh ? walk(in, dh, dir, d) : dir_problem(d, dir, errno);

	if (in->n > first)	/* in->paths is NULL while nothing was found */
		qsort(in->paths + first, in->n - first, sizeof(*in->paths), cmp_str);
	return r;
}

/* One line of modules.order: a module path relative to the list's folder.
 * Kernels since 6.3 list the .o; the module beside it is the .ko. */
static char *order_entry(const char *dir, const char *line)
{
	char *p = line[0] == '/' ? strdup(line) : ks_strdupf("%s/%s", dir, line);
	size_t n;

	if (p && ends_with(p, ".o")) {
		n = strlen(p);
		char *ko = ks_strdupf("%.*s.ko", (int)(n - 2), p);

		free(p);
		p = ko;
	}
	return p;
}

static int add_order(struct ks_inputs *in, const char *path, struct ks_diags *d)
{
	FILE *f = fopen(path, "r");
	const char *slash = strrchr(path, '/');
	char *dir, *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int r = 0;

	if (!f) {
		r = -errno;
		return ks_diag_add(d, KS_ERROR, path, 0, 0, "cannot read: %s", strerror(-r)) < 0
			       ? -ENOMEM
			       : r;
	}
	dir = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
	while (!r && dir && (n = getline(&line, &cap, f)) >= 0) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (n)
			r = push(in, order_entry(dir, line));
	}
	if (!dir)
		r = -ENOMEM;
	free(line);
	free(dir);
	fclose(f);
	return r;
}

int ks_inputs_add(struct ks_inputs *in, const char *arg, struct ks_diags *d)
{
	const char *base = strrchr(arg, '/');
	struct stat st;

	base = base ? base + 1 : arg;
	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode))
		return add_dir(in, arg, d);
	if (strcmp(base, "modules.order") == 0)
		return add_order(in, arg, d);
	/* anything else is read as a module, which reports a bad path */
	return push(in, strdup(arg));
}

void ks_inputs_free(struct ks_inputs *in)
{
	for (size_t i = 0; i < in->n; i++)
		free(in->paths[i]);
	free(in->paths);
	memset(in, 0, sizeof(*in));
}
