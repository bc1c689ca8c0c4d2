// SPDX-License-Identifier: GPL-2.0
/* Names gone by 6.12 whose lines in-tree code deleted: no_llseek stored
 * in a file_operations, I2C_CLASS_DDC in an i2c_adapter. */
#include <linux/fs.h>
#include <linux/i2c.h>
#include <linux/module.h>

static const struct file_operations fixdel_fops = {
	.owner = THIS_MODULE,
	.llseek = no_llseek,
};

static struct i2c_adapter fixdel_adapter = {
	.owner = THIS_MODULE,
	.class = I2C_CLASS_DDC,
	.name = "fixdel",
};

const struct file_operations *fixdel_ops(void);
const struct file_operations *fixdel_ops(void)
{
	return &fixdel_fops;
}
EXPORT_SYMBOL_GPL(fixdel_ops);

static int __init fixdel_init(void)
{
	return i2c_add_adapter(&fixdel_adapter);
}

static void __exit fixdel_exit(void)
{
	i2c_del_adapter(&fixdel_adapter);
}
module_init(fixdel_init);
module_exit(fixdel_exit);
MODULE_LICENSE("GPL");
