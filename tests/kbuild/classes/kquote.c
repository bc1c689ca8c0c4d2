// SPDX-License-Identifier: GPL-2.0
/* A kernel header included in quotes (adv-17v35x's "linux/version.h"):
 * the probe includes it as the source does, so the #if that tests
 * LINUX_VERSION_CODE is judged there, and the break inside it found.
 * forecast: compiles kquote.c:19
 * forecast: break gone strlcpy kquote.c:21
 * forecast: outlook kquote.ko needs-source-changes
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "linux/version.h"

static char *kquote_buf;

static int __init kquote_init(void)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 0, 0)
	kquote_buf = kzalloc(8, GFP_KERNEL);
	if (kquote_buf)
		strlcpy(kquote_buf, "kq", 8);
#endif
	return kquote_buf ? 0 : -ENOMEM;
}

static void __exit kquote_exit(void)
{
	kfree(kquote_buf);
}

module_init(kquote_init);
module_exit(kquote_exit);
MODULE_LICENSE("GPL");
