// SPDX-License-Identifier: GPL-2.0
/* Code the module already wrote for newer kernels, behind its own macro
 * that compares LINUX_VERSION_CODE: the target's preprocessor answers
 * with the macro's definition; and a header of its own whose include
 * guard sits inside another conditional (ownver.h).
 * forecast: compiles ownver.c:28
 * forecast: compiles ownver.h:10
 * forecast: remedy ownver.ko kmalloc_trace rebuild
 * forecast: outlook ownver.ko builds-and-loads
 */
#include <linux/module.h>
#include <linux/string.h>
#include <linux/version.h>
#include "ownver.h"

#define OWNVER_HAS_STRSCPY() (LINUX_VERSION_CODE >= KERNEL_VERSION(4, 3, 0))

static char *ownver_buf;

static int __init ownver_init(void)
{
	ownver_buf = ownver_alloc(8);
	if (!ownver_buf)
		return -ENOMEM;
#if !OWNVER_HAS_STRSCPY()
	strlcpy(ownver_buf, "ownver", 8);
#else
	strscpy(ownver_buf, "ownver", 8);
#endif
	return 0;
}

static void __exit ownver_exit(void)
{
	kfree(ownver_buf);
}

module_init(ownver_init);
module_exit(ownver_exit);
MODULE_LICENSE("GPL");
