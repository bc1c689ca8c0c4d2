// SPDX-License-Identifier: GPL-2.0
/* A flag gone by 6.12, OR-ed with another. */
#include <linux/module.h>
#include <linux/slab.h>

static struct kmem_cache *fixomit_cache;

static int __init fixomit_init(void)
{
	fixomit_cache = kmem_cache_create("fixomit", 64, 0, SLAB_HWCACHE_ALIGN | SLAB_MEM_SPREAD, NULL);
	return fixomit_cache ? 0 : -ENOMEM;
}

static void __exit fixomit_exit(void)
{
	kmem_cache_destroy(fixomit_cache);
}
module_init(fixomit_init);
module_exit(fixomit_exit);
MODULE_LICENSE("GPL");
