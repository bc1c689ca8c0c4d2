/* Growing arrays: the one way ksunset makes room in a vector, by doubling
 * its capacity, with every size checked for overflow. */
#ifndef KS_ARRAY_H
#define KS_ARRAY_H

#include <stddef.h>

#include "compiler.h"

KS_BEGIN_DECLS

/* Makes room for n elements of size bytes (size > 0) in all in the array
 * *v of *cap elements: the capacity doubles (from 16) until it holds n.
 * Running out of memory is fatal (alloc.h).
 *   ks_array_room((void **)&s->v, &s->cap, s->n + 1, sizeof(*s->v)); */
void ks_array_room(void **v, size_t *cap, size_t n, size_t size);

/* The same for an array that keeps no capacity, only its count n: room
 * for more elements after the n it holds, the capacity being what the
 * same doubling from 16 gives for n (every element must be added
 * through it).
 *   ks_array_grow((void **)&s->v, s->n, 1, sizeof(*s->v)); */
void ks_array_grow(void **v, size_t n, size_t more, size_t size);

KS_END_DECLS

#endif
