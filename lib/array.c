/* Growing arrays (array.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array.h"

#define FIRST_CAP 16

/* The capacity c doubles to until it holds n (n itself where doubling
 * would overflow). */
static size_t doubled(size_t c, size_t n)
{
	while (c < n)
		c = c > SIZE_MAX / 2 ? n : c * 2;
	return c;
}

void ks_array_room(void **v, size_t *cap, size_t n, size_t size)
{
	size_t c;
	void *old, *p;

	if (n <= *cap)
		return;
	c = doubled(*cap ? *cap : FIRST_CAP, n);
	if (c > SIZE_MAX / size)
		ks_nomem();
	/* *v is the caller's T *: read and written as bytes, not as a void * */
	memcpy(&old, v, sizeof(old));
	p = ks_xrealloc(old, c * size);
	memcpy(v, &p, sizeof(p));
	*cap = c;
}

void ks_array_grow(void **v, size_t n, size_t more, size_t size)
{
	/* the capacity ks_array_room reached for n elements */
	size_t cap = n ? doubled(FIRST_CAP, n) : 0;

	if (more > SIZE_MAX - n)
		ks_nomem();
	ks_array_room(v, &cap, n + more, size);
}
