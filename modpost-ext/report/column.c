/* GCC's display columns as SARIF's UTF-16 columns. GCC measures a
 * character with cpp_wcwidth(): East Asian wide characters take two
 * columns, combining marks and format characters none, an invalid byte
 * one; the table below holds the common ranges of the first two. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "file.h"
#include "report/column.h"

#define TABSTOP 8		/* GCC's -ftabstop default */

/* Characters whose display width is not 1: { first, last, width }. */
static const struct {
	uint32_t lo, hi;
	unsigned width;
} widths[] = {
	{ 0x0300, 0x036f, 0 },		/* combining diacritical marks */
	{ 0x1100, 0x115f, 2 },		/* Hangul Jamo initials */
	{ 0x1ab0, 0x1aff, 0 },		/* combining marks, extended */
	{ 0x1dc0, 0x1dff, 0 },		/* combining marks, supplement */
	{ 0x200b, 0x200f, 0 },		/* zero-width space, joiners, marks */
	{ 0x2060, 0x2064, 0 },		/* word joiner, invisible operators */
	{ 0x20d0, 0x20ff, 0 },		/* combining marks for symbols */
	{ 0x2e80, 0x303e, 2 },		/* CJK radicals, punctuation */
	{ 0x3041, 0x33ff, 2 },		/* kana, CJK compatibility */
	{ 0x3400, 0x4dbf, 2 },		/* CJK extension A */
	{ 0x4e00, 0x9fff, 2 },		/* CJK unified ideographs */
	{ 0xa000, 0xa4cf, 2 },		/* Yi */
	{ 0xac00, 0xd7a3, 2 },		/* Hangul syllables */
	{ 0xf900, 0xfaff, 2 },		/* CJK compatibility ideographs */
	{ 0xfe00, 0xfe0f, 0 },		/* variation selectors */
	{ 0xfe20, 0xfe2f, 0 },		/* combining half marks */
	{ 0xfe30, 0xfe4f, 2 },		/* CJK compatibility forms */
	{ 0xfeff, 0xfeff, 0 },		/* zero-width no-break space */
	{ 0xff00, 0xff60, 2 },		/* fullwidth forms */
	{ 0xffe0, 0xffe6, 2 },		/* fullwidth signs */
	{ 0x1f300, 0x1f64f, 2 },	/* pictographs, emoticons */
	{ 0x1f900, 0x1f9ff, 2 },	/* supplemental pictographs */
	{ 0x20000, 0x3fffd, 2 },	/* CJK extensions B and later */
	{ 0xe0100, 0xe01ef, 0 },	/* variation selectors supplement */
};

static unsigned display_width(uint32_t c)
{
	for (size_t i = 0; i < KS_ARRAY_SIZE(widths); i++)
		if (c >= widths[i].lo && c <= widths[i].hi)
			return widths[i].width;
	return 1;
}

/* The character at s (n > 0 bytes left) and its length; an invalid or
 * cut sequence is one byte, read as U+FFFD, as a UTF-16 decoder would. */
static size_t utf8_next(const unsigned char *s, size_t n, uint32_t *c)
{
	size_t len = s[0] < 0x80 ? 1 : s[0] < 0xc2 ? 0 : s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3
		   : s[0] < 0xf5 ? 4 : 0;
	uint32_t v = len == 1 ? s[0] : len ? s[0] & (0x7f >> len) : 0;

	for (size_t i = 1; i < len; i++) {
		if (i >= n || (s[i] & 0xc0) != 0x80)
			len = 0;
		else
			v = v << 6 | (s[i] & 0x3f);
	}
	/* overlong, surrogate or past U+10FFFF: invalid too */
	if (len == 3 && (v < 0x800 || (v >= 0xd800 && v <= 0xdfff)))
		len = 0;
	if (len == 4 && (v < 0x10000 || v > 0x10ffff))
		len = 0;
	*c = len ? v : 0xfffd;
	return len ? len : 1;
}

int ks_column_utf16(const char *line, size_t len, unsigned dcol, unsigned *col)
{
	const unsigned char *s = (const unsigned char *)line;
	unsigned d = 1, u = 1;	/* display and UTF-16 columns of s[i] */

	for (size_t i = 0; i < len && d <= dcol;) {
		uint32_t c;
		unsigned w;

		i += utf8_next(s + i, len - i, &c);
		w = c == '\t' ? TABSTOP - (d - 1) % TABSTOP : display_width(c);
		if (d == dcol && w) {
			*col = u;
			return 0;
		}
		d += w;
		u += c >= 0x10000 ? 2 : 1;
	}
	return -ERANGE;
}

int ks_column_in_file(const char *path, unsigned lineno, unsigned dcol, unsigned *col)
{
	char *line;
	size_t len;
	int r = ks_file_line(path, lineno, &line, &len);

	if (!r)
		r = ks_column_utf16(line, len, dcol, col);
	free(line);
	return r;
}

/* The display and UTF-16 columns of byte off of line. */
void ks_columns_at(const char *line, size_t off, unsigned *d, unsigned *u)
{
	const unsigned char *s = (const unsigned char *)line;

	*d = *u = 1;
	for (size_t i = 0; i < off;) {
		uint32_t c;

		i += utf8_next(s + i, off - i, &c);
		*d += c == '\t' ? TABSTOP - (*d - 1) % TABSTOP : display_width(c);
		*u += c >= 0x10000 ? 2 : 1;
	}
}

long ks_include_name_at(const char *s, size_t len, const char *name)
{
	char *line = ks_xstrndup(s, len), *hash = line + strspn(line, " \t"), *at;
	size_t n = strlen(name);
	long r = -1;

	/* "#include <NAME>" or "#include \"NAME\"", as the preprocessor reads it */
	at = *hash == '#' && strstr(hash, "include") ? strstr(hash, name) : NULL;
	if (at && at > line && (at[-1] == '<' || at[-1] == '"') &&
	    at[n] == (at[-1] == '<' ? '>' : '"'))
		r = at - line;
	free(line);
	return r;
}
