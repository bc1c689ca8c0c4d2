// SPDX-License-Identifier: GPL-2.0
/* A device class of the module's own, as drivers declared one before
 * struct class lost its owner. */
#include <linux/device.h>
#include <linux/module.h>

static struct class fixinit_class = {
	.name = "fixinit",
	.owner = THIS_MODULE,
};

static int __init fixinit_init(void)
{
	return class_register(&fixinit_class);
}

static void __exit fixinit_exit(void)
{
	class_unregister(&fixinit_class);
}
module_init(fixinit_init);
module_exit(fixinit_exit);
MODULE_LICENSE("GPL");
