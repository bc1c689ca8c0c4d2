/* Paths as both halves judge them: whether a file lies below a directory,
 * and whether a directory is a kernel tree. */
#ifndef KS_PATH_H
#define KS_PATH_H

#include <stdbool.h>

#include "compiler.h"

KS_BEGIN_DECLS

/* The part of file below the directory root (trailing slashes of root
 * ignored), or NULL if it is not below: "/src/a/b.c" under "/src/" is
 * "a/b.c". A NULL or empty root has nothing below it. */
const char *ks_path_under(const char *file, const char *root);
/* Whether dir is a kernel tree on this machine: arch/ and scripts/, and
 * include/linux/kernel.h (a source tree) or include/generated/ (a build
 * tree); distribution header packages keep exactly these. The plugin and
 * the DWARF location source both judge trees by it. */
bool ks_path_kernel_tree(const char *dir);

/* path after dir (NULL: none; path absolute: dir ignored by the caller)
 * with "." and ".." resolved as written, not through symbolic links, as
 * Kbuild's paths ("drivers/x/../staging/y.c") and DWARF's are read; a
 * ".." at the start of a relative path stays. */
char *ks_path_clean(const char *dir, const char *path);

KS_END_DECLS

#endif
