// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
#include "du.h"

static int __init du_init(void)
{
	int r = du_alloc_init();

	if (r)
		return r;
	du_timer_start();
	pr_info("dwarfunits: %zu\n", du_str_len("loaded"));
	return du_file_register();
}

static void __exit du_exit(void)
{
	du_file_unregister();
	du_timer_stop();
	du_alloc_exit();
}
module_init(du_init);
module_exit(du_exit);
MODULE_LICENSE("GPL");
