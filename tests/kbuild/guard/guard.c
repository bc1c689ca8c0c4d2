// SPDX-License-Identifier: GPL-2.0
/* A module that has already been written for the kernel after 6.1: its
 * 6.1 build compiles strlcpy() (gone from 6.8), but built against 6.12
 * it compiles the other branch, which no one has compiled here. The
 * forecast on 6.12 says so and calls nothing there a break; on 6.1, the
 * branch it took, it builds. */
#include <linux/module.h>
#include <linux/string.h>
#include <linux/version.h>

static char name[16];

static int __init guard_init(void)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 8, 0)
	strlcpy(name, "guard", sizeof(name));
#else
	strscpy(name, "guard", sizeof(name));
#endif
	return 0;
}

module_init(guard_init);
MODULE_LICENSE("GPL");
