/* Growing arrays (array.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array.h"

#define FIRST_CAP 16

void ks_array_room(void **v, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? *cap : FIRST_CAP;
	void *old, *p;

	if (n <= *cap)
		return;
	while (c < n)
		c = c > SIZE_MAX / 2 ? n : c * 2;
	if (c > SIZE_MAX / size)
		ks_nomem();
	/* *v is the caller's T *: read and written as bytes, not as a void * */
	memcpy(&old, v, sizeof(old));
	p = ks_xrealloc(old, c * size);
	memcpy(v, &p, sizeof(p));
	*cap = c;
}

/* The capacity ks_array_room reaches for n elements: 0 for none. */
static size_t cap_for(size_t n)
{
	size_t c = FIRST_CAP;

	if (!n)
		return 0;
	while (c < n)
		c = c > SIZE_MAX / 2 ? n : c * 2;
	return c;
}

void ks_array_grow(void **v, size_t n, size_t more, size_t size)
{
	size_t cap = cap_for(n);

	if (more > SIZE_MAX - n)
		ks_nomem();
	ks_array_room(v, &cap, n + more, size);
}
