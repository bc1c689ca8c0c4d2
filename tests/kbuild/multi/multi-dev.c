// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/slab.h>
#include "multi.h"

static int major;
static char *buf;

static const struct file_operations multi_fops = {
	.owner = THIS_MODULE,
	.open = nonseekable_open,
	.llseek = noop_llseek,
};

int multi_dev_init(const char *arg)
{
	buf = kzalloc(multi_parse(arg) + 16, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	major = register_chrdev(0, "multi", &multi_fops);
	return major < 0 ? major : 0;
}

void multi_dev_exit(void)
{
	unregister_chrdev(major, "multi");
	kfree(buf);
}
