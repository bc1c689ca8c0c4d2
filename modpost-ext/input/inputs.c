/* Expanding MODULE arguments lazily. A directory is read one folder at a
 * time, its entries sorted so that modules come in the order of their
 * sorted full paths, whatever order the file system keeps. */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "array.h"
#include "buf.h"
#include "input/inputs.h"

struct entry {
	const char *name;
	bool dir;
};

struct ks_dir_frame {
	DIR *dh;		/* kept open: its subdirectories are opened relative to it */
	char *path;
	char *names;		/* the entries' names in one block, each after a kind byte */
	struct entry *v;
	size_t n, next;
};

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

/* Compares as the full paths below compare: a folder's name as if it
 * ended in '/', since every path under it continues so. */
static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	const unsigned char *p = (const unsigned char *)x->name, *q = (const unsigned char *)y->name;
	int cp, cq;

	while (*p && *p == *q)
		p++, q++;
	cp = *p ? *p : x->dir ? '/' : 0;
	cq = *q ? *q : y->dir ? '/' : 0;
	return cp - cq;
}

/* dir/name, with no second '/' when dir already ends in one: paths are
 * printed as the argument gave them. */
static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir);

	return ks_strdupf("%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
}

static void problem(struct ks_inputs *in, struct ks_diags *d, const char *file, const char *what,
		    int err)
{
	in->unusable = true;
	in->arg_failed = true;
	ks_diag_add(d, KS_ERROR, file, 0, 0, "%s: %s", what, strerror(err));
}

/* The type of the entry, for file systems whose readdir() does not say. */
static void entry_type(struct ks_inputs *in, const struct ks_dir_frame *f, const char *name,
		       unsigned char *type, struct ks_diags *d)
{
	struct stat st;
	char *p;
	int e;

	if (fstatat(dirfd(f->dh), name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		*type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
		return;
	}
	e = errno;
	*type = DT_UNKNOWN;
	p = join(f->path, name);
	problem(in, d, p, "cannot search directory", e);
	free(p);
}

/* Points the entries at their names and sorts them. */
static void index_names(struct ks_dir_frame *f, size_t len)
{
	size_t i = 0;

	if (!f->n)
		return;
	f->v = ks_xcalloc(f->n, sizeof(*f->v));
	for (size_t off = 0; off < len; off += strlen(f->names + off) + 1, i++) {
		f->v[i].dir = f->names[off] == 'd';
		f->v[i].name = f->names + off + 1;
	}
	qsort(f->v, f->n, sizeof(*f->v), cmp_entry);
}

/* Keeps the entries worth a look: folders and module files. */
static void list_dir(struct ks_inputs *in, struct ks_dir_frame *f, struct ks_diags *d)
{
	struct ks_buf names = KS_BUF_INIT;
	struct dirent *de;

	while ((errno = 0, de = readdir(f->dh)) != NULL) {
		unsigned char type = de->d_type;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		/* most entries are files of another name: no stat for them */
		if (type == DT_REG && !is_module_name(de->d_name))
			continue;
		if (type == DT_UNKNOWN)
			entry_type(in, f, de->d_name, &type, d);
		if (type != DT_DIR && !(type == DT_REG && is_module_name(de->d_name)))
			continue;
		ks_buf_addc(&names, type == DT_DIR ? 'd' : 'f');
		ks_buf_add(&names, de->d_name, strlen(de->d_name) + 1);
		f->n++;
	}
	if (errno)
		problem(in, d, f->path, "cannot search directory", errno);
	f->names = names.p;
	index_names(f, names.len);
}

static void frame_free(struct ks_dir_frame *f)
{
	if (f->dh)
		closedir(f->dh);
	free(f->path);
	free(f->names);
	free(f->v);
	memset(f, 0, sizeof(*f));
}

/* Opens name (relative to the folder open as at) as the innermost folder
 * to search; takes path over. Only the argument itself may be a link. */
static void push_dir(struct ks_inputs *in, int at, const char *name, char *path,
		     struct ks_diags *d)
{
	int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | (at == AT_FDCWD ? 0 : O_NOFOLLOW);
	struct ks_dir_frame *f;
	int fd;

	ks_array_room((void **)&in->dirs, &in->cap, in->depth + 1, sizeof(*in->dirs));
	f = &in->dirs[in->depth++];
	*f = (struct ks_dir_frame){ .path = path };
	fd = openat(at, name, flags);
	f->dh = fd < 0 ? NULL : fdopendir(fd);
	if (!f->dh && fd >= 0)
		close(fd);
	if (f->dh) {
		list_dir(in, f, d);
		return;
	}
	problem(in, d, path, "cannot search directory", errno);
	frame_free(f);
	in->depth--;
}

static bool next_in_dirs(struct ks_inputs *in, char **path, struct ks_diags *d)
{
	while (in->depth) {
		struct ks_dir_frame *f = &in->dirs[in->depth - 1];
		const struct entry *e;
		char *p;

		if (f->next == f->n) {
			frame_free(f);
			in->depth--;
			continue;
		}
		e = &f->v[f->next++];
		p = join(f->path, e->name);
		if (!e->dir) {
			*path = p;
			return true;
		}
		push_dir(in, dirfd(f->dh), e->name, p, d);
	}
	return false;
}

/* One line of modules.order: a module path relative to the list's folder.
 * Kernels since 6.3 list the .o; the module beside it is the .ko. */
static char *order_entry(const char *dir, const char *line)
{
	char *p = line[0] == '/' ? ks_xstrdup(line) : join(dir, line);
	size_t n;

	if (ends_with(p, ".o")) {
		n = strlen(p);
		char *ko = ks_strdupf("%.*s.ko", (int)(n - 2), p);

		free(p);
		p = ko;
	}
	return p;
}

static void close_order(struct ks_inputs *in)
{
	if (in->order)
		fclose(in->order);
	in->order = NULL;
	free(in->order_dir);
	in->order_dir = NULL;
}

static bool next_in_order(struct ks_inputs *in, char **path, struct ks_diags *d)
{
	ssize_t n;

	while ((n = getline(&in->line, &in->line_cap, in->order)) >= 0) {
		while (n > 0 && (in->line[n - 1] == '\n' || in->line[n - 1] == '\r'))
			in->line[--n] = '\0';
		if (!n)
			continue;
		*path = order_entry(in->order_dir, in->line);
		return true;
	}
	if (ferror(in->order))
		problem(in, d, in->args[in->arg - 1], "cannot read", errno ? errno : EIO);
	close_order(in);
	return false;
}

static void open_order(struct ks_inputs *in, const char *path, struct ks_diags *d)
{
	const char *slash = strrchr(path, '/');

	in->order = fopen(path, "r");
	if (!in->order) {
		problem(in, d, path, "cannot read", errno);
		return;
	}
	in->order_dir = slash ? ks_xstrndup(path, (size_t)(slash - path)) : ks_xstrdup(".");
}

/* Starts on arg; a module file is handed out at once (true). */
static bool start_arg(struct ks_inputs *in, const char *arg, char **path, struct ks_diags *d)
{
	const char *base = strrchr(arg, '/');
	struct stat st;

	base = base ? base + 1 : arg;
	in->arg_open = true;
	in->arg_failed = false;
	in->found = 0;
	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
		push_dir(in, AT_FDCWD, arg, ks_xstrdup(arg), d);
		return false;
	}
	if (strcmp(base, "modules.order") == 0) {
		open_order(in, arg, d);
		return false;
	}
	/* anything else is read as a module, which reports a bad path */
	*path = ks_xstrdup(arg);
	return true;
}

void ks_inputs_init(struct ks_inputs *in, char *const *args, size_t nargs)
{
	*in = (struct ks_inputs){ .args = args, .nargs = nargs };
}

/* The current argument is done: one that gave no module is a problem,
 * unless another was already said of it. */
static void end_arg(struct ks_inputs *in, struct ks_diags *d)
{
	if (!in->arg_open)
		return;
	in->arg_open = false;
	if (in->found || in->arg_failed || in->allow_empty)
		return;
	in->unusable = true;
	ks_diag_add(d, KS_ERROR, in->args[in->arg - 1], 0, 0, "no module found");
}

bool ks_inputs_next(struct ks_inputs *in, char **path, struct ks_diags *d)
{
	for (;;) {
		bool got = in->order ? next_in_order(in, path, d) : next_in_dirs(in, path, d);

		if (!got) {
			end_arg(in, d);
			if (in->arg == in->nargs)
				return false;
			got = start_arg(in, in->args[in->arg++], path, d);
		}
		if (got) {
			in->found++;
			return true;
		}
	}
}

void ks_inputs_free(struct ks_inputs *in)
{
	while (in->depth)
		frame_free(&in->dirs[--in->depth]);
	free(in->dirs);
	close_order(in);
	free(in->line);
	memset(in, 0, sizeof(*in));
}
