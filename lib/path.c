/* Paths (path.h): plain string work and stat(2), no GCC headers, since the
 * plugin links this too. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "path.h"

const char *ks_path_under(const char *file, const char *root)
{
	size_t n = root ? strlen(root) : 0;

	while (n > 1 && root[n - 1] == '/')
		n--;
	return n && !strncmp(file, root, n) && file[n] == '/' ? file + n + 1 : NULL;
}

/* Appends one component of a path to b, resolving "." and ".." (a ".."
 * at the start of a relative path stays). */
static int add_component(struct ks_buf *b, const char *c, size_t n, bool absolute)
{
	const char *last;

	if (!n || (n == 1 && c[0] == '.'))
		return 0;
	last = b->len ? memrchr(b->p, '/', b->len) : NULL;
	last = last ? last + 1 : b->p;
	if (n == 2 && c[0] == '.' && c[1] == '.' &&
	    (absolute || (b->len && strncmp(last, "..", (size_t)(b->p + b->len - last)) != 0))) {
		b->len = last > b->p ? (size_t)(last - b->p - 1) : 0;
		return 0;
	}
	if ((absolute || b->len) && ks_buf_addc(b, '/') < 0)
		return -ENOMEM;
	return ks_buf_add(b, c, n);
}

char *ks_path_clean(const char *dir, const char *path)
{
	struct ks_buf b = KS_BUF_INIT;
	bool absolute = (dir && *dir == '/') || (!dir && *path == '/');
	int r = 0;

	for (int part = dir ? 0 : 1; part < 2 && !r; part++) {
		for (const char *p = part ? path : dir; *p && !r;) {
			size_t n = strcspn(p, "/");

			r = add_component(&b, p, n, absolute);
			p += n;
			p += *p == '/';
		}
	}
	if (!r && !b.len)
		r = ks_buf_adds(&b, absolute ? "/" : ".");
	if (r) {
		ks_buf_free(&b);
		return NULL;
	}
	return ks_buf_steal(&b);
}

/* Whether dir/sub is there with type (S_IFDIR, S_IFREG); 1, 0 or -ENOMEM. */
static int has(const char *dir, const char *sub, mode_t type)
{
	struct stat st;
	char *path = ks_strdupf("%s/%s", dir, sub);
	int r;

	if (!path)
		return -ENOMEM;
	r = stat(path, &st) == 0 && (st.st_mode & S_IFMT) == type;
	free(path);
	return r;
}

int ks_path_kernel_tree(const char *dir)
{
	int r = has(dir, "arch", S_IFDIR);

	if (r == 1)
		r = has(dir, "scripts", S_IFDIR);
	if (r != 1)
		return r;
	r = has(dir, "include/linux/kernel.h", S_IFREG);
	return r ? r : has(dir, "include/generated", S_IFDIR);
}
