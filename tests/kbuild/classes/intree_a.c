// SPDX-License-Identifier: GPL-2.0
/* An in-tree module (intree=Y) checked with others: the target ships its
 * own build of it, so its exports are the target's, not this file's. */
#include <linux/module.h>

int intree_a_hello(void)
{
	return 0;
}
EXPORT_SYMBOL_GPL(intree_a_hello);

MODULE_INFO(intree, "Y");
MODULE_LICENSE("GPL");
