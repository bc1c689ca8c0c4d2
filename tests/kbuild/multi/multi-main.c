// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
#include <linux/jiffies.h>
#include "multi.h"

static char *arg = "1";
module_param(arg, charp, 0444);
static unsigned long start;

static int __init multi_init(void)
{
	start = jiffies;
	if (multi_parse(arg) > 100)
		return -EINVAL;
	return multi_dev_init(arg);
}

static void __exit multi_exit(void)
{
	if (time_after(jiffies, start + HZ))
		pr_info("multi: ran for over a second\n");
	multi_dev_exit();
}

module_init(multi_init);
module_exit(multi_exit);
MODULE_LICENSE("GPL");
