// SPDX-License-Identifier: GPL-2.0
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "du.h"

static void *du_buf, *du_big;

int du_alloc_init(void)
{
	du_buf = kmalloc(128, GFP_KERNEL);
	du_big = vzalloc(1 << 16);
	if (!du_buf || !du_big) {
		kfree(du_buf);
		vfree(du_big);
		return -ENOMEM;
	}
	du_list_add(1);
	return 0;
}

void du_alloc_exit(void)
{
	vfree(du_big);
	kfree(du_buf);
}
