// SPDX-License-Identifier: GPL-2.0
/* A callback whose definition has one prototype per kernel version
 * (nvidia-fs's nvfs_devnode, its device const from 6.2): the target's
 * build stores the other definition, so the line that stores it is no
 * break; the forecast says that definition is what it did not compile.
 * forecast: compiles cbdecl.c:26
 * forecast: unknown cbdecl.ko cbdecl.c:14, which needs (LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0))
 */
#include <linux/device.h>
#include <linux/module.h>
#include <linux/version.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
static char *cbdecl_devnode(struct device *dev, umode_t *mode)
#else
static char *cbdecl_devnode(const struct device *dev, umode_t *mode)
#endif
{
	if (mode)
		*mode = 0666;
	return NULL;
}

struct class cbdecl_class = {
	.name = "cbdecl",
	.devnode = cbdecl_devnode,
};
EXPORT_SYMBOL_GPL(cbdecl_class);

MODULE_LICENSE("GPL");
