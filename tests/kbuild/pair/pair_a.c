// SPDX-License-Identifier: GPL-2.0
/* Two modules of one package: pair_b imports pair_a's export. Checked
 * together against another kernel, pair_a's export is there. */
#include <linux/module.h>

int pair_hello(void)
{
	return 42;
}
EXPORT_SYMBOL_GPL(pair_hello);
MODULE_LICENSE("GPL");
