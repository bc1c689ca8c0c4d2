// SPDX-License-Identifier: GPL-2.0
/* A module one of whose units is empty after preprocessing (its option
 * is off): built with the api argument all the same, so the forecast
 * judges it.
 * forecast: outlook empty.ko builds-and-loads
 */
#include <linux/module.h>

static int __init empty_init(void)
{
	return 0;
}

module_init(empty_init);
MODULE_LICENSE("GPL");
