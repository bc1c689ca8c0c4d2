// SPDX-License-Identifier: GPL-2.0
/* Names the module itself provides are not the kernel's to export:
 * THIS_MODULE is __this_module, which modpost defines in every module,
 * and mem_init(), though <linux/mm.h> declares it, is the module's own
 * function (own_helper.c): neither is gone on 6.12.
 * forecast: compiles own_main.c:16
 * forecast: compiles own_main.c:17
 * forecast: outlook own.ko builds-and-loads
 */
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/printk.h>

static int __init own_init(void)
{
	pr_info("%s: loaded\n", THIS_MODULE->name);
	mem_init();
	return 0;
}

static void __exit own_exit(void)
{
}

module_init(own_init);
module_exit(own_exit);
MODULE_LICENSE("GPL");
