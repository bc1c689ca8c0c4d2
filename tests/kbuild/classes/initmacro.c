// SPDX-License-Identifier: GPL-2.0
/* A designated initializer whose value is a kernel macro (THIS_MODULE):
 * the member is set where the module writes the designator, though the
 * value is spelled in the kernel's headers (struct class lost its owner
 * in 6.12).
 * forecast: break member-gone struct class.owner initmacro.c:13
 * forecast: outlook initmacro.ko loads-but-rebuild-fails
 */
#include <linux/device.h>
#include <linux/module.h>

struct class initmacro_class = {
	.owner = THIS_MODULE,
	.name = "initmacro",
};

MODULE_LICENSE("GPL");
