// SPDX-License-Identifier: GPL-2.0
/* Imports what another module exports: an in-tree one given with it
 * (intree_a.c), which the target replaces by its own, which lacks it. The
 * kernel it was built for does not export it either: no rebuild makes
 * the target export it.
 * forecast: remedy intree_b.ko intree_a_hello unknown
 * forecast: outlook intree_b.ko unknown
 */
#include <linux/module.h>

int intree_a_hello(void);

static int __init intree_b_init(void)
{
	return intree_a_hello();
}

module_init(intree_b_init);
MODULE_LICENSE("GPL");
