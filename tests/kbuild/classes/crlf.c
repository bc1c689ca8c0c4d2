// SPDX-License-Identifier: GPL-2.0
/* A source with CRLF line ends: its #if conditions hold no carriage
 * return in the probe, which judges the branch both kernels take.
 * forecast: compiles crlf.c:19
 * forecast: remedy crlf.ko kmalloc_trace rebuild
 * forecast: break gone strlcpy crlf.c:22
 * forecast: outlook crlf.ko needs-source-changes
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/version.h>

static char *crlf_buf;

static int __init crlf_init(void)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 0, 0)
	crlf_buf = kzalloc(8, GFP_KERNEL);
#endif
	if (crlf_buf)
		strlcpy(crlf_buf, "crlf", 8);
	return crlf_buf ? 0 : -ENOMEM;
}

static void __exit crlf_exit(void)
{
	kfree(crlf_buf);
}

module_init(crlf_init);
module_exit(crlf_exit);
MODULE_LICENSE("GPL");
