/* A growable, always NUL-terminated byte buffer: the one way ksunset builds
 * strings of unknown length. */
#ifndef KS_BUF_H
#define KS_BUF_H

#include <stdarg.h>
#include <stddef.h>

#include "compiler.h"

KS_BEGIN_DECLS

struct ks_buf {
	char *p;
	size_t len;
	size_t cap;
};

#define KS_BUF_INIT { NULL, 0, 0 }

/* Appends: running out of memory is fatal (alloc.h). */
void ks_buf_add(struct ks_buf *b, const void *data, size_t n);
void ks_buf_adds(struct ks_buf *b, const char *s);
void ks_buf_addc(struct ks_buf *b, char c);
void ks_buf_addf(struct ks_buf *b, const char *fmt, ...) KS_PRINTF(2, 3);
void ks_buf_vaddf(struct ks_buf *b, const char *fmt, va_list ap) KS_PRINTF(2, 0);
/* Hands the string out (never NULL) and leaves b empty. */
char *ks_buf_steal(struct ks_buf *b);
void ks_buf_reset(struct ks_buf *b);
void ks_buf_free(struct ks_buf *b);

/* Appends the whole file at path; -errno if it cannot be read. */
int ks_buf_read_file(struct ks_buf *b, const char *path) KS_MUST_CHECK;

/* Formats into a fresh heap string (never NULL). */
char *ks_strdupf(const char *fmt, ...) KS_PRINTF(1, 2) __attribute__((returns_nonnull));

/* A vector of strings: appends a copy of s; _unique: unless it is there
 * already. _find: the index of s, or -1. */
void ks_strv_add(char ***v, size_t *n, const char *s);
void ks_strv_add_unique(char ***v, size_t *n, const char *s);
long ks_strv_find(char *const *v, size_t n, const char *s);
void ks_strv_free(char **v, size_t n);

KS_END_DECLS

#endif
