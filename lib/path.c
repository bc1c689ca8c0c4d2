/* Paths (path.h): plain string work and stat(2), no GCC headers, since the
 * plugin links this too. */
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
static void add_component(struct ks_buf *b, const char *c, size_t n, bool absolute)
{
	const char *last;

	if (!n || (n == 1 && c[0] == '.'))
		return;
	last = b->len ? memrchr(b->p, '/', b->len) : NULL;
	last = last ? last + 1 : b->p;
	if (n == 2 && c[0] == '.' && c[1] == '.' &&
	    (absolute || (b->len && strncmp(last, "..", (size_t)(b->p + b->len - last)) != 0))) {
		b->len = last > b->p ? (size_t)(last - b->p - 1) : 0;
		return;
	}
	if (absolute || b->len)
		ks_buf_addc(b, '/');
	ks_buf_add(b, c, n);
}

char *ks_path_clean(const char *dir, const char *path)
{
	struct ks_buf b = KS_BUF_INIT;
	bool absolute = (dir && *dir == '/') || (!dir && *path == '/');

	for (int part = dir ? 0 : 1; part < 2; part++) {
		for (const char *p = part ? path : dir; *p;) {
			size_t n = strcspn(p, "/");

			add_component(&b, p, n, absolute);
			p += n;
			p += *p == '/';
		}
	}
	if (!b.len)
		ks_buf_adds(&b, absolute ? "/" : ".");
	return ks_buf_steal(&b);
}

/* Whether dir/sub is there with type (S_IFDIR, S_IFREG). */
static bool has(const char *dir, const char *sub, mode_t type)
{
	struct stat st;
	char *path = ks_strdupf("%s/%s", dir, sub);
	bool r = stat(path, &st) == 0 && (st.st_mode & S_IFMT) == type;

	free(path);
	return r;
}

bool ks_path_kernel_tree(const char *dir)
{
	return has(dir, "arch", S_IFDIR) && has(dir, "scripts", S_IFDIR) &&
	       (has(dir, "include/linux/kernel.h", S_IFREG) ||
		has(dir, "include/generated", S_IFDIR));
}
