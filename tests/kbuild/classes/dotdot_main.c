// SPDX-License-Identifier: GPL-2.0
/* Built through a path with "..": the plugin's records and the module's
 * DWARF name the same file.
 * forecast: compiles dotdot_main.c:18
 * forecast: remedy dotdot.ko kmalloc_trace rebuild
 * forecast: break gone strlcpy dotdot_main.c:20
 * forecast: outlook dotdot.ko needs-source-changes
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "dotdot/dotdot.h"

static char *dotdot_buf;

static int __init dotdot_init(void)
{
	dotdot_buf = kzalloc(16, GFP_KERNEL);
	if (dotdot_buf)
		strlcpy(dotdot_buf, DOTDOT_NAME, 16);
	return dotdot_buf ? 0 : -ENOMEM;
}

static void __exit dotdot_exit(void)
{
	kfree(dotdot_buf);
}

module_init(dotdot_init);
module_exit(dotdot_exit);
MODULE_LICENSE("GPL");
