// SPDX-License-Identifier: GPL-2.0
/* A kernel header included inside a function, an X-macro list expanded
 * with the module's own SUBSYS(): the probe cannot include it where the
 * unit did, and must not let it spoil the judgement of the rest.
 * forecast: compiles infunc.c:27
 * forecast: remedy infunc.ko kmalloc_trace rebuild
 * forecast: break gone strlcpy infunc.c:29
 * forecast: outlook infunc.ko needs-source-changes
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

static int infunc_count(void)
{
	int n = 0;
#define SUBSYS(_x) n++;
#include <linux/cgroup_subsys.h>
#undef SUBSYS
	return n;
}

static char *infunc_buf;

static int __init infunc_init(void)
{
	infunc_buf = kzalloc(infunc_count() + 8, GFP_KERNEL);
	if (infunc_buf)
		strlcpy(infunc_buf, "infunc", 8);
	return infunc_buf ? 0 : -ENOMEM;
}

static void __exit infunc_exit(void)
{
	kfree(infunc_buf);
}

module_init(infunc_init);
module_exit(infunc_exit);
MODULE_LICENSE("GPL");
