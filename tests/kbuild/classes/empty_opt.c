// SPDX-License-Identifier: GPL-2.0
/* An optional part of empty.ko, off in this build. */
#ifdef EMPTY_OPTION
#include <linux/slab.h>

void *empty_alloc(size_t n)
{
	return kzalloc(n, GFP_KERNEL);
}
#endif
