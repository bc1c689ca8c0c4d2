/* Growable string buffer. Every append checks for overflow and memory, so
 * callers never size a fixed array for text taken from input files. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "buf.h"

/* Room for extra more bytes and the NUL. */
static int grow(struct ks_buf *b, size_t extra)
{
	if (extra > SIZE_MAX - b->len - 1)
		return -ENOMEM;
	return ks_array_room((void **)&b->p, &b->cap, b->len + extra + 1, 1);
}

int ks_buf_add(struct ks_buf *b, const void *data, size_t n)
{
	int r = grow(b, n);

	if (r < 0)
		return r;
	if (n)
		memcpy(b->p + b->len, data, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

int ks_buf_adds(struct ks_buf *b, const char *s)
{
	return ks_buf_add(b, s, strlen(s));
}

int ks_buf_addc(struct ks_buf *b, char c)
{
	return ks_buf_add(b, &c, 1);
}

int ks_buf_vaddf(struct ks_buf *b, const char *fmt, va_list ap)
{
	va_list aq;
	int n, r;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return -EINVAL;
	r = grow(b, (size_t)n);
	if (r < 0)
		return r;
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return 0;
}

int ks_buf_addf(struct ks_buf *b, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = ks_buf_vaddf(b, fmt, ap);
	va_end(ap);
	return r;
}

char *ks_buf_steal(struct ks_buf *b)
{
	char *p = b->p;

	if (!p)
		p = calloc(1, 1);
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
	int r;

	va_start(ap, fmt);
	r = ks_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (r < 0) {
		ks_buf_free(&b);
		return NULL;
	}
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
	while (!r && (n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		r = ks_buf_add(b, chunk, n);
	if (!r && ferror(f))
		r = -EIO;
	fclose(f);
	return r;
}

int ks_strv_add_unique(char ***v, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return 0;
	return ks_strv_add(v, n, s);
}

int ks_strv_add(char ***v, size_t *n, const char *s)
{
	char **nv = realloc(*v, (*n + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	if (!(nv[*n] = strdup(s)))
		return -ENOMEM;
	(*n)++;
	return 0;
}

void ks_strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
