// SPDX-License-Identifier: GPL-2.0
/* Test module: uses of scheduled exports after a tab, spaces and a tab,
 * wide characters (two display columns, one UTF-16 unit each) and an
 * emoji (two display columns, two UTF-16 units): GCC counts display
 * columns, SARIF UTF-16 code units. Two uses share a function. */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/timekeeping.h>

static unsigned long columns_parse(void)
{
	unsigned long v = simple_strtoul("1", NULL, 10);

	/* 時計 */ v += simple_strtoul("2", NULL, 10);
  	/* é😀 */ v += simple_strtoul("3", NULL, 10);
	return v;
}

static int __init columns_init(void)
{
	struct timespec64 ts = { .tv_sec = columns_parse() };

	return do_settimeofday64(&ts);
}

static void __exit columns_exit(void)
{
}

module_init(columns_init);
module_exit(columns_exit);
MODULE_LICENSE("GPL");
