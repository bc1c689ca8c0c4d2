/* Paths (path.h): plain string work and stat(2), no GCC headers, since the
 * plugin links this too. */
#include <errno.h>
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
