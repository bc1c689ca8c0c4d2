/* Allocation that cannot fail (alloc.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

void ks_nomem(void)
{
	fputs("ksunset: error: out of memory\n", stderr);
	exit(2);
}

void *ks_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		ks_nomem();
	return p;
}

void *ks_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		ks_nomem();
	return p;
}

void *ks_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		ks_nomem();
	return q;
}

char *ks_xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		ks_nomem();
	return p;
}

char *ks_xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		ks_nomem();
	return p;
}
