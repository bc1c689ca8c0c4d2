/* Growing arrays: the one way ksunset makes room in a vector, by doubling
 * its capacity, with every size checked for overflow. */
#ifndef KS_ARRAY_H
#define KS_ARRAY_H

#include <stddef.h>

#include "compiler.h"

KS_BEGIN_DECLS

/* Makes room for n elements of size bytes (size > 0) in all in the array
 * *v of *cap elements: the capacity doubles (from 16) until it holds n.
 * On failure *v and *cap are left as they were. 0 or -ENOMEM.
 *   if (ks_array_room((void **)&s->v, &s->cap, s->n + 1, sizeof(*s->v)) < 0) */
int ks_array_room(void **v, size_t *cap, size_t n, size_t size) KS_MUST_CHECK;

KS_END_DECLS

#endif
