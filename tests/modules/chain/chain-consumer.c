// SPDX-License-Identifier: GPL-2.0
/* Test module: imports from chain-provider, one import through a namespace. */
#include <linux/module.h>

int chain_hello(int x);
int chain_gpl_only(int x);
int chain_in_ns(int x);

static int __init consumer_init(void)
{
	return chain_hello(1) + chain_gpl_only(2) + chain_in_ns(3) == 8 ? 0 : -EINVAL;
}

static void __exit consumer_exit(void)
{
}

module_init(consumer_init);
module_exit(consumer_exit);
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(KSUNSET_TEST);
