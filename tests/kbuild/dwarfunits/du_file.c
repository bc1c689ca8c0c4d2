// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/uaccess.h>
#include "du.h"

static ssize_t du_read(struct file *f, char __user *buf, size_t len, loff_t *pos)
{
	static const char msg[] = "dwarfunits\n";

	return simple_read_from_buffer(buf, len, pos, msg, sizeof(msg) - 1);
}

static const struct file_operations du_fops = {
	.owner = THIS_MODULE,
	.read = du_read,
	.llseek = default_llseek,
	.open = nonseekable_open,
};

static struct miscdevice du_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "dwarfunits",
	.fops = &du_fops,
};

int du_file_register(void)
{
	return misc_register(&du_dev);
}

void du_file_unregister(void)
{
	misc_deregister(&du_dev);
}
