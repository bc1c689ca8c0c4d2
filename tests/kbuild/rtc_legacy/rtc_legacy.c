#include <linux/module.h>
#include <linux/fs.h>
#include <linux/timekeeping.h>
#include <linux/jiffies.h>

static int major;

static const struct file_operations legacy_fops = {
	.owner = THIS_MODULE,
	.llseek = noop_llseek,
	.open = nonseekable_open,
};

static int __init legacy_init(void)
{
	struct timespec64 ts = { .tv_sec = 0 };

	if (jiffies == 0)
		do_settimeofday64(&ts);
	major = register_chrdev(0, "legacy", &legacy_fops);
	return major < 0 ? major : 0;
}

static void __exit legacy_exit(void)
{
	unregister_chrdev(major, "legacy");
}

module_init(legacy_init);
module_exit(legacy_exit);
MODULE_LICENSE("GPL");
