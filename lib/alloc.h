/* Memory: running out of it is fatal, and reported here once ("ksunset:
 * error: out of memory", exit status 2, the program's usage-error status),
 * so that no caller passes it back. Every allocation of lib/ and the
 * checker goes through these or through what calls them (buf.h,
 * array.h); the plugin's own C++ uses GCC's xmalloc, which does the
 * same for cc1. */
#ifndef KS_ALLOC_H
#define KS_ALLOC_H

#include <stddef.h>

#include "compiler.h"

KS_BEGIN_DECLS

__attribute__((noreturn)) void ks_nomem(void);
/* Never NULL; a size of 0 gives a pointer free() takes. */
void *ks_xmalloc(size_t n) __attribute__((malloc, returns_nonnull));
void *ks_xcalloc(size_t n, size_t size) __attribute__((malloc, returns_nonnull));
void *ks_xrealloc(void *p, size_t n) __attribute__((returns_nonnull));
char *ks_xstrdup(const char *s) __attribute__((malloc, returns_nonnull));
char *ks_xstrndup(const char *s, size_t n) __attribute__((malloc, returns_nonnull));

KS_END_DECLS

#endif
