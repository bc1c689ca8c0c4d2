// SPDX-License-Identifier: GPL-2.0
/* A version macro of the module's own called with the same value twice
 * (jool's LINUX_VERSION_AT_LEAST(4, 10, 0, 8, 0)): each argument takes
 * its own parameter, so the condition the target answers is whole.
 * forecast: outlook dupargs.ko builds-and-loads
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/version.h>

#ifdef RHEL_RELEASE_CODE
#define DUPARGS_AT_LEAST(a, b, c, ra, rb) RHEL_RELEASE_CODE >= RHEL_RELEASE_VERSION(ra, rb)
#else
#define DUPARGS_AT_LEAST(a, b, c, ra, rb) LINUX_VERSION_CODE >= KERNEL_VERSION(a, b, c)
#endif

static void *dupargs_buf;

static int __init dupargs_init(void)
{
#if DUPARGS_AT_LEAST(4, 10, 0, 8, 0)
	dupargs_buf = kzalloc(64, GFP_KERNEL);
#else
	dupargs_buf = kmalloc(64, GFP_KERNEL);
#endif
	return dupargs_buf ? 0 : -ENOMEM;
}

static void __exit dupargs_exit(void)
{
	kfree(dupargs_buf);
}
module_init(dupargs_init);
module_exit(dupargs_exit);

MODULE_LICENSE("GPL");
