// SPDX-License-Identifier: GPL-2.0
/* Imports pair_a's export (pair_a.c). */
#include <linux/module.h>

int pair_hello(void);

static int __init pair_b_init(void)
{
	return pair_hello() == 42 ? 0 : -EINVAL;
}
module_init(pair_b_init);
MODULE_LICENSE("GPL");
