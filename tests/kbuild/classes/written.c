// SPDX-License-Identifier: GPL-2.0
/* The name the source writes for an import, not the macro around it:
 * kzalloc() in pr_info()'s arguments is what becomes kmalloc_trace.
 * forecast: written written.ko kmalloc_trace kzalloc
 * forecast: remedy written.ko kmalloc_trace rebuild
 * forecast: outlook written.ko builds-and-loads
 */
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/slab.h>

static int __init written_init(void)
{
	void *p;

	pr_info("written: %px\n", (p = kzalloc(8, GFP_KERNEL)));
	kfree(p);
	return 0;
}

module_init(written_init);
MODULE_LICENSE("GPL");
