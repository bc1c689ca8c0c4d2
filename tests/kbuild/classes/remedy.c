// SPDX-License-Identifier: GPL-2.0
/* An import's remedy speaks of that import: kzalloc() (an inline calling
 * kmalloc_trace in 6.1) compiles on 6.12, where a rebuild gives it the
 * export it needs, though the module's build fails elsewhere (strlcpy).
 * forecast: remedy remedy.ko kmalloc_trace rebuild
 * forecast: break gone strlcpy remedy.c:19
 * forecast: outlook remedy.ko needs-source-changes
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

static char *remedy_buf;

static int __init remedy_init(void)
{
	remedy_buf = kzalloc(32, GFP_KERNEL);
	if (remedy_buf)
		strlcpy(remedy_buf, "remedy", 32);
	return remedy_buf ? 0 : -ENOMEM;
}

static void __exit remedy_exit(void)
{
	kfree(remedy_buf);
}

module_init(remedy_init);
module_exit(remedy_exit);
MODULE_LICENSE("GPL");
