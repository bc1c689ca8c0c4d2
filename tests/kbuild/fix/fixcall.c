// SPDX-License-Identifier: GPL-2.0
/* Calls whose arguments changed by 6.12, where in-tree code dropped one
 * (class_create's owner) or inserted one (DEFINE_SEMAPHORE's count); a
 * function gone there, where it calls another (strlcpy: strscpy); a
 * member become read-only, where it calls accessors (vm_flags). */
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/semaphore.h>
#include <linux/string.h>

static DEFINE_SEMAPHORE(fixcall_lock);
static struct class *fixcall_class;
static char fixcall_name[16];

static int fixcall_mmap(struct file *file, struct vm_area_struct *vma)
{
	vma->vm_flags |= VM_IO | VM_DONTEXPAND;
	return 0;
}

static const struct file_operations fixcall_fops = {
	.owner = THIS_MODULE,
	.mmap = fixcall_mmap,
};

static int __init fixcall_init(void)
{
	if (!fixcall_fops.mmap)
		return -EINVAL;
	down(&fixcall_lock);
	strlcpy(fixcall_name, "fixcall", sizeof(fixcall_name));
	fixcall_class = class_create(THIS_MODULE, fixcall_name);
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
