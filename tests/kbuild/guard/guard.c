// SPDX-License-Identifier: GPL-2.0
/* A module that has already been written for the kernel after 6.1: its
 * 6.1 build compiles strlcpy() (gone from 6.8), but built against 6.12
 * it compiles the other branch, which no one has compiled here. The
 * forecast on 6.12 says so and calls nothing there a break; on 6.1, the
 * branch it took, it builds. So with its own name for a type that 6.2
 * renamed: guard_pre fits .pre_doit on 6.1 through the name the module
 * defines for kernels before 6.2, and 6.12 reads another definition. */
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

#include <net/genetlink.h>
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#define guard_split_ops genl_ops
#else
#define guard_split_ops genl_split_ops
#endif

static int guard_pre(const struct guard_split_ops *ops, struct sk_buff *skb,
		     struct genl_info *info)
{
	return 0;
}

static struct genl_family guard_family __maybe_unused = {
	.pre_doit = guard_pre,
};

module_init(guard_init);
MODULE_LICENSE("GPL");
