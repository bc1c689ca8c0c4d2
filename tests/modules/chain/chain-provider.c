// SPDX-License-Identifier: GPL-2.0
/* Test module: exports of every kind, one of them used by nobody. */
#include <linux/export.h>
#include <linux/module.h>

int chain_hello(int x)
{
	return x + 1;
}
EXPORT_SYMBOL(chain_hello);

int chain_gpl_only(int x)
{
	return x * 2;
}
EXPORT_SYMBOL_GPL(chain_gpl_only);

int chain_in_ns(int x)
{
	return x - 1;
}
EXPORT_SYMBOL_NS_GPL(chain_in_ns, KSUNSET_TEST);

int chain_nobody(int x)
{
	return x;
}
EXPORT_SYMBOL(chain_nobody);

MODULE_LICENSE("GPL");
