/* Replacing a file whole: a schedule that mark adds to, a baseline, diff's
 * --schedule-out. A crash leaves either the old file or the new one,
 * never half of it. And reading a source file's lines, or one of them. */
#ifndef KS_FILE_H
#define KS_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
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

/* A file's lines: where each starts and its length, without its '\n'. */
struct ks_lines {
	struct ks_buf text;
	const char **p;
	size_t *len, n;
	bool eol;		/* the last line ends with '\n' */
};

/* Reads the file at path into ls, its lines split: 0 or -errno (ls then
 * holds nothing to use, and is freed with ks_lines_free all the same). */
int ks_lines_read(struct ks_lines *ls, const char *path) KS_MUST_CHECK;
void ks_lines_free(struct ks_lines *ls);

KS_END_DECLS

#endif
