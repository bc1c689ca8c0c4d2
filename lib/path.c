/* Paths (path.h): plain string work and stat(2), no GCC headers, since the
 * plugin links this too. */
#include <string.h>

#include "path.h"

const char *ks_path_under(const char *file, const char *root)
{
	size_t n = root ? strlen(root) : 0;

	while (n > 1 && root[n - 1] == '/')
		n--;
	return n && !strncmp(file, root, n) && file[n] == '/' ? file + n + 1 : NULL;
}
