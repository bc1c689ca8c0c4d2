/* Replacing a file whole: a schedule that mark adds to, a baseline, diff's
 * --schedule-out. A crash leaves either the old file or the new one,
 * never half of it. And reading one line of a source file. */
#ifndef KS_FILE_H
#define KS_FILE_H

#include <stddef.h>

#include "compiler.h"
#include "diag.h"

KS_BEGIN_DECLS

/* Replaces path's contents with data, atomically: a temporary file in the
 * same folder, written and synced, then renamed over path (a symbolic link
 * is followed). An existing file's mode, owner and group are kept (when
 * they cannot be, path is left alone). Problems are diagnostics naming
 * path; returns 0 or -errno. */
int ks_file_replace(const char *path, const char *data, size_t len,
		    struct ks_diags *d) KS_MUST_CHECK;

/* Line lineno (1-based) of the file at path, without its line end (nor,
 * on line 1, a UTF-8 byte order mark), in *line (len bytes; to free): 0,
 * -ERANGE past the end, or -errno. */
int ks_file_line(const char *path, unsigned lineno, char **line, size_t *len) KS_MUST_CHECK;

KS_END_DECLS

#endif
