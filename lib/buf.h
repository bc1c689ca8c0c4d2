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

int ks_buf_add(struct ks_buf *b, const void *data, size_t n) KS_MUST_CHECK;
int ks_buf_adds(struct ks_buf *b, const char *s) KS_MUST_CHECK;
int ks_buf_addc(struct ks_buf *b, char c) KS_MUST_CHECK;
int ks_buf_addf(struct ks_buf *b, const char *fmt, ...) KS_PRINTF(2, 3) KS_MUST_CHECK;
int ks_buf_vaddf(struct ks_buf *b, const char *fmt, va_list ap) KS_PRINTF(2, 0) KS_MUST_CHECK;
/* Hands the string out (never NULL on success) and leaves b empty. */
char *ks_buf_steal(struct ks_buf *b);
void ks_buf_reset(struct ks_buf *b);
void ks_buf_free(struct ks_buf *b);

/* Appends the whole file at path; -errno if it cannot be read. */
int ks_buf_read_file(struct ks_buf *b, const char *path) KS_MUST_CHECK;

/* Formats into a fresh heap string; NULL when out of memory. */
char *ks_strdupf(const char *fmt, ...) KS_PRINTF(1, 2);

/* A vector of strings: appends a copy of s; _unique: unless it is there
 * already. 0 or -ENOMEM. */
int ks_strv_add(char ***v, size_t *n, const char *s) KS_MUST_CHECK;
int ks_strv_add_unique(char ***v, size_t *n, const char *s) KS_MUST_CHECK;
void ks_strv_free(char **v, size_t n);

KS_END_DECLS

#endif
