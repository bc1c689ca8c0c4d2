/* Test module: not GPL-compatible, no namespace imports. */
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/rtc.h>

static int major;
static const struct file_operations prop_fops = { .owner = THIS_MODULE };

static int __init prop_init(void)
{
	struct rtc_time tm;

	rtc_time64_to_tm(0, &tm);
	major = __register_chrdev(0, 0, 256, "prop", &prop_fops);
	return major < 0 ? major : 0;
}

static void __exit prop_exit(void)
{
	__unregister_chrdev(major, 0, 256, "prop");
}

module_init(prop_init);
module_exit(prop_exit);
MODULE_LICENSE("Proprietary");
