// SPDX-License-Identifier: GPL-2.0
/* Distribution tests: RHEL_RELEASE_CODE, which neither kernel nor module
 * defines, is 0 on both, so the branch built here is the one built there;
 * RHEL_RELEASE_VERSION() is the module's own, and the target's
 * preprocessor can only answer with its definition.
 * forecast: compiles rhel.c:30
 * forecast: remedy rhel.ko kmalloc_trace rebuild
 * forecast: break gone strlcpy rhel.c:31
 * forecast: outlook rhel.ko needs-source-changes
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#ifndef RHEL_RELEASE_VERSION
#define RHEL_RELEASE_VERSION(a, b) (((a) << 8) + (b))
#endif

static char *rhel_buf;

static int __init rhel_init(void)
{
#if defined(RHEL_RELEASE_CODE) && RHEL_RELEASE_CODE >= RHEL_RELEASE_VERSION(9, 2)
	rhel_buf = kmalloc(8, GFP_KERNEL);
	if (rhel_buf)
		strscpy(rhel_buf, "rhel", 8);
#elif RHEL_RELEASE_CODE >= RHEL_RELEASE_VERSION(8, 0)
	rhel_buf = NULL;
#else
	rhel_buf = kzalloc(8, GFP_KERNEL);
	strlcpy(rhel_buf, "rhel", 8);
#endif
	return rhel_buf ? 0 : -ENOMEM;
}

static void __exit rhel_exit(void)
{
	kfree(rhel_buf);
}

module_init(rhel_init);
module_exit(rhel_exit);
MODULE_LICENSE("GPL");
