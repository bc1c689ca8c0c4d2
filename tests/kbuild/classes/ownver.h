/* SPDX-License-Identifier: GPL-2.0 */
/* A header whose include guard sits inside another conditional. */
#if defined(CONFIG_X86) || defined(CONFIG_ARM64)
#ifndef OWNVER_H
#define OWNVER_H
#include <linux/slab.h>

static inline void *ownver_alloc(size_t n)
{
	return kzalloc(n, GFP_KERNEL);
}
#endif
#endif
