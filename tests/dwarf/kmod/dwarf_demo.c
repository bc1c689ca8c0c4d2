// SPDX-License-Identifier: GPL-2.0
/* tests/shell/t-dwarf.sh: uses whose lines only DWARF can give (built
 * without the plugin). A "dwarf:" comment states the uses expected at its
 * own line, separated by ';': SYMBOL KIND and the function, or the
 * initializer's variable and member (at the variable's declaration). */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/timekeeping.h>
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/cgroup.h>
#include "helper.h"

static int major;
static int level = 1;
module_param(level, int, 0444);	/* dwarf: param_ops_int addr __param_level .ops */

static const struct file_operations demo_fops = {	/* dwarf: noop_llseek addr demo_fops .llseek; nonseekable_open addr demo_fops .open */
	.owner = THIS_MODULE,
	.llseek = noop_llseek,
	.open = nonseekable_open,
};

struct demo_op {
	const char *name;
	int (*fn)(struct inode *, struct file *);
};

static const struct demo_op demo_ops[] = {	/* dwarf: generic_file_open addr demo_ops [1].fn */
	{ "none", NULL },
	{ "generic", generic_file_open },
};

/* A function's own static table: among the unit's variables only when
 * its functions' are read too. */
static noinline int demo_pick(int which)
{
	static const struct demo_op picked[] = {	/* dwarf: simple_open addr picked [0].fn */
		{ "simple", simple_open },
	};
	const struct demo_op *p = picked;

	OPTIMIZER_HIDE_VAR(p);
	return demo_ops[which & 1].fn && p->fn ? 1 : 0;
}

/* A static call (inline assembly: found in code) and a static key (named
 * only in __jump_table, which belongs to no variable: placed at the
 * branch its entry points at). */
static noinline int demo_work(void)
{
	cond_resched();	/* dwarf: __SCT__cond_resched call demo_work */
	return cgroup_subsys_enabled(cpuset_cgrp_subsys);	/* dwarf: cpuset_cgrp_subsys_enabled_key data demo_work */
}

static int __init demo_init(void)
{
	struct timespec64 ts = { .tv_sec = 0 };

	if (jiffies == 0 && level > 1)	/* dwarf: jiffies data demo_init */
		demo_settime(&ts);
	major = register_chrdev(0, "demo", &demo_fops);	/* dwarf: __register_chrdev call demo_init */
	pr_info("demo: %d\n", demo_pick(level) + demo_work());	/* dwarf: _printk call demo_init */
	return major < 0 ? major : 0;
}

static void __exit demo_exit(void)
{
	unregister_chrdev(major, "demo");	/* dwarf: __unregister_chrdev call demo_exit */
}

module_init(demo_init);
module_exit(demo_exit);
MODULE_LICENSE("GPL");
#ifdef DEMO_OTHER
MODULE_INFO(variant, "other");	/* t-dwarf.sh: the same module with another build-id */
#endif
