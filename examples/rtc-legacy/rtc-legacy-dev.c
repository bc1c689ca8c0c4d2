// SPDX-License-Identifier: GPL-2.0
/* rtc-legacy: the /dev/rtc-legacy character device, registered the old
 * way with register_chrdev(). */
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include "rtc-legacy.h"

static int major;

static ssize_t rtc_legacy_write(struct file *file, const char __user *buf, size_t len,
				loff_t *off)
{
	char tmp[24];
	size_t n = min(len, sizeof(tmp) - 1);
	int ret;

	if (copy_from_user(tmp, buf, n))
		return -EFAULT;
	tmp[n] = '\0';
	ret = rtc_legacy_sync_clock(simple_strtoul(tmp, NULL, 10));
	return ret ? ret : len;
}

static const struct file_operations rtc_legacy_fops = {
	.owner = THIS_MODULE,
	.write = rtc_legacy_write,
	.llseek = noop_llseek,
};

int rtc_legacy_dev_init(void)
{
	major = register_chrdev(0, "rtc-legacy", &rtc_legacy_fops);
	return major < 0 ? major : 0;
}

void rtc_legacy_dev_exit(void)
{
	unregister_chrdev(major, "rtc-legacy");
}
