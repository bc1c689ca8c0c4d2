// SPDX-License-Identifier: GPL-2.0
/* A module written for Debian 12's 6.1 that t-target.sh forecasts on
 * 6.12: each call imports an export that 6.12 no longer has. Through
 * kmalloc(), vmalloc() (by the module's own name) and class_create(), a
 * rebuild is enough: 6.12 still declares them; follow_pfn() and strlcpy()
 * are gone from 6.12's headers too, so the source must change. */
#include <linux/device.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#define forecast_valloc vmalloc
static char name[16];
static struct class *cls;
static void *buf, *big;

static int forecast_pfn(struct vm_area_struct *vma, unsigned long addr)
{
	unsigned long pfn;

	return follow_pfn(vma, addr, &pfn);
}

static int __init forecast_init(void)
{
	buf = kmalloc(64, GFP_KERNEL);
	big = forecast_valloc(1 << 20);
	strlcpy(name, "forecast", sizeof(name));
	cls = class_create(THIS_MODULE, name);
	return forecast_pfn(NULL, 0) == 12345 ? -EINVAL : 0;
}

static void __exit forecast_exit(void)
{
	class_destroy(cls);
	vfree(big);
	kfree(buf);
}

module_init(forecast_init);
module_exit(forecast_exit);
MODULE_LICENSE("GPL");
