// SPDX-License-Identifier: GPL-2.0
/* Test module: a character device the old way. */
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/rtc.h>

#include "legacy.h"

static int major;

static const struct file_operations legacy_fops = {
	.owner = THIS_MODULE,
	.llseek = noop_llseek,
};

static int __init legacy_init(void)
{
	struct rtc_time tm;
	unsigned long v = simple_strtoul("42", NULL, 10);

	rtc_time64_to_tm(v, &tm);
	major = register_chrdev(0, "legacy", &legacy_fops);
	if (major < 0)
		return major;
	return legacy_set_clock(tm.tm_sec);
}

static void __exit legacy_exit(void)
{
	unregister_chrdev(major, "legacy");
}

module_init(legacy_init);
module_exit(legacy_exit);
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(RTC);
