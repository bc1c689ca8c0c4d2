/* Growable string buffer. Every append checks for overflow, so callers
 * never size a fixed array for text taken from input files; running out
 * of memory is fatal (alloc.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array.h"
#include "buf.h"

/* Room for extra more bytes and the NUL. */
static void grow(struct ks_buf *b, size_t extra)
{
	if (extra > SIZE_MAX - b->len - 1)
		ks_nomem();
	ks_array_room((void **)&b->p, &b->cap, b->len + extra + 1, 1);
}

void ks_buf_add(struct ks_buf *b, const void *data, size_t n)
{
	if (n >= b->cap - b->len)	/* no room for them and the NUL */
		grow(b, n);
	if (n)
		memcpy(b->p + b->len, data, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void ks_buf_adds(struct ks_buf *b, const char *s)
{
	ks_buf_add(b, s, strlen(s));
}

void ks_buf_addc(struct ks_buf *b, char c)
{
	if (b->cap - b->len < 2)
		grow(b, 1);
	b->p[b->len++] = c;
	b->p[b->len] = '\0';
}

void ks_buf_vaddf(struct ks_buf *b, const char *fmt, va_list ap)
{
	size_t room = b->cap - b->len;	/* the NUL's byte included */
	va_list aq;
	int n;

	/* formatted once where it fits the room left, twice where not */
	va_copy(aq, ap);
	n = vsnprintf(b->cap ? b->p + b->len : NULL, room, fmt, aq);
	va_end(aq);
	if (n < 0)		/* more than INT_MAX bytes */
		ks_nomem();
	if ((size_t)n >= room) {
		grow(b, (size_t)n);
		vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	}
	b->len += (size_t)n;
}

void ks_buf_addf(struct ks_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ks_buf_vaddf(b, fmt, ap);
	va_end(ap);
}

char *ks_buf_steal(struct ks_buf *b)
{
	char *p = b->p;

	if (!p)
		p = ks_xcalloc(1, 1);
	b->p = NULL;
	b->len = b->cap = 0;
	return p;
}

void ks_buf_reset(struct ks_buf *b)
{
	b->len = 0;
	if (b->p)
		b->p[0] = '\0';
}

void ks_buf_free(struct ks_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

char *ks_strdupf(const char *fmt, ...)
{
	struct ks_buf b = KS_BUF_INIT;
	va_list ap;

	/* most are short: room for them, so that they are formatted once */
	ks_array_room((void **)&b.p, &b.cap, 64, 1);
	va_start(ap, fmt);
	ks_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	return ks_buf_steal(&b);
}

int ks_buf_read_file(struct ks_buf *b, const char *path)
{
	char chunk[65536];
	FILE *f = fopen(path, "rb");
	size_t n;
	int r = 0;

	if (!f)
		return -errno;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		ks_buf_add(b, chunk, n);
	if (ferror(f))
		r = -EIO;
	fclose(f);
	return r;
}

long ks_strv_find(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return (long)i;
	return -1;
}

void ks_strv_add_unique(char ***v, size_t *n, const char *s)
{
	if (ks_strv_find(*v, *n, s) < 0)
		ks_strv_add(v, n, s);
}

void ks_strv_add(char ***v, size_t *n, const char *s)
{
	ks_array_grow((void **)v, *n, 1, sizeof(**v));
	(*v)[*n] = ks_xstrdup(s);
	(*n)++;
}

void ks_strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
