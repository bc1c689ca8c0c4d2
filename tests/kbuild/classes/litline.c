// SPDX-License-Identifier: GPL-2.0
/* A string literal continued over lines before a version test
 * (nvidia-fs's messages): the lines of the #if after it are where the
 * source has them, so the branch the target does not compile is known:
 * its assignment to a member read-only there is no break, and the other
 * branch, which this build did not compile, is what is not known.
 * forecast: compiles litline.c:21
 * forecast: unknown litline.ko litline.c:21, which needs (LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0))
 */
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/version.h>

int litline_mmap(struct vm_area_struct *vma);
int litline_mmap(struct vm_area_struct *vma)
{
	pr_debug("litline: mapping %lx, \
which the module's own code shares\n", vma->vm_start);

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
	vma->vm_flags |= VM_IO | VM_DONTEXPAND;
#else
	vm_flags_set(vma, VM_IO | VM_DONTEXPAND);
#endif
	return 0;
}
EXPORT_SYMBOL_GPL(litline_mmap);

MODULE_LICENSE("GPL");
