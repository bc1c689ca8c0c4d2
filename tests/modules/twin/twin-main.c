// SPDX-License-Identifier: GPL-2.0
/* Test module: two files named parse.c, in a/ and b/. */
#include <linux/module.h>

#include "twin.h"

static int __init twin_init(void)
{
	return a_parse() ?: b_parse();
}

static void __exit twin_exit(void)
{
}

module_init(twin_init);
module_exit(twin_exit);
MODULE_LICENSE("GPL");
