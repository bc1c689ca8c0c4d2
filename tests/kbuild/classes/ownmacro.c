// SPDX-License-Identifier: GPL-2.0
/* Uses written through the module's own macros are where the module's
 * code expands them, not in the macros' bodies: GCC reports an error
 * there, and names the line of the use in its note.
 * forecast: compiles ownmacro.c:17
 * forecast: remedy ownmacro.ko kmalloc_trace rebuild
 * forecast: break gone strlcpy ownmacro.c:19
 * forecast: outlook ownmacro.ko needs-source-changes
 */
#include <linux/module.h>
#include "ownmacro.h"

static char *ownmacro_buf;

static int __init ownmacro_init(void)
{
	ownmacro_buf = OWNMACRO_ALLOC(16, GFP_KERNEL);
	if (ownmacro_buf)
		OWNMACRO_COPY(ownmacro_buf, "ownmacro", 16);
	return ownmacro_buf ? 0 : -ENOMEM;
}

static void __exit ownmacro_exit(void)
{
	kfree(ownmacro_buf);
}

module_init(ownmacro_init);
module_exit(ownmacro_exit);
MODULE_LICENSE("GPL");
