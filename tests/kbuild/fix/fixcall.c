// SPDX-License-Identifier: GPL-2.0
/* Calls whose arguments changed by 6.12, where in-tree code dropped one
 * (class_create's owner) or inserted one (DEFINE_SEMAPHORE's count). */
#include <linux/device.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/semaphore.h>

static DEFINE_SEMAPHORE(fixcall_lock);
static struct class *fixcall_class;

static int __init fixcall_init(void)
{
	down(&fixcall_lock);
	fixcall_class = class_create(THIS_MODULE, "fixcall");
	up(&fixcall_lock);
	return PTR_ERR_OR_ZERO(fixcall_class);
}
module_init(fixcall_init);

static void __exit fixcall_exit(void)
{
	class_destroy(fixcall_class);
}
module_exit(fixcall_exit);
MODULE_LICENSE("GPL");
