// SPDX-License-Identifier: GPL-2.0
/* A flag gone by 6.12, OR-ed with another, and standing alone. */
#include <linux/module.h>
#include <linux/slab.h>

static struct kmem_cache *fixomit_cache, *fixomit_cache2;

static int __init fixomit_init(void)
{
	fixomit_cache = kmem_cache_create("fixomit", 64, 0, SLAB_HWCACHE_ALIGN | SLAB_MEM_SPREAD, NULL);
	if (!fixomit_cache)
		return -ENOMEM;
	fixomit_cache2 = kmem_cache_create("fixomit2", 64, 0, SLAB_MEM_SPREAD, NULL);
	if (fixomit_cache2)
		return 0;
	kmem_cache_destroy(fixomit_cache);
	return -ENOMEM;
}

static void __exit fixomit_exit(void)
{
	kmem_cache_destroy(fixomit_cache2);
	kmem_cache_destroy(fixomit_cache);
}
module_init(fixomit_init);
module_exit(fixomit_exit);
MODULE_LICENSE("GPL");
