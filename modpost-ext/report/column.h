/* Columns: GCC gives a use's column as a display column (tabs expanded to
 * the next multiple of 8, a wide character two columns); SARIF counts
 * UTF-16 code units (a tab one, a character beyond the BMP two). */
#ifndef KS_COLUMN_H
#define KS_COLUMN_H

#include <stddef.h>

#include "compiler.h"

/* The UTF-16 column (1-based) in line, len bytes of UTF-8 without its
 * newline, of the character at display column dcol (1-based). 0, or
 * -ERANGE when no character starts there: past the end, inside a tab or
 * a wide character, or 0, GCC's unknown column. */
int ks_column_utf16(const char *line, size_t len, unsigned dcol, unsigned *col) KS_MUST_CHECK;

/* The UTF-16 column of display column dcol of line lineno (1-based) of
 * the file at path. 0, -ERANGE as above or for a line past the end, or
 * -errno when the file cannot be read. */
int ks_column_in_file(const char *path, unsigned lineno, unsigned dcol,
		      unsigned *col) KS_MUST_CHECK;

/* Where header name stands in line s (len bytes) when it is an #include
 * of it, between its <> or "": its byte offset, or -1. */
long ks_include_name_at(const char *s, size_t len, const char *name);
/* The display column (dcol, GCC's) and the UTF-16 column (ucol, SARIF's)
 * of byte off of line, 1-based. */
void ks_columns_at(const char *line, size_t off, unsigned *dcol, unsigned *ucol);

#endif
