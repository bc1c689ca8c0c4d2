// SPDX-License-Identifier: GPL-2.0
/* NVIDIA's conftest.sh writes headers of nothing but #define and #undef
 * lines, what each compile test found of the kernel it ran for: another
 * kernel's conftest may find otherwise (follow_pfn, gone in 6.10).
 * forecast: unknown conftest.ko it tests CONFTEST_FOLLOW_PFN_PRESENT, which the module's configure script sets
 */
#include "conftest_functions.h"
#include <linux/mm.h>
#include <linux/module.h>

int conftest_pfn(struct vm_area_struct *vma, unsigned long address, unsigned long *pfn);
int conftest_pfn(struct vm_area_struct *vma, unsigned long address, unsigned long *pfn)
{
#if defined(CONFTEST_FOLLOW_PFN_PRESENT)
	return follow_pfn(vma, address, pfn);
#else
	return -ENOSYS;
#endif
}
EXPORT_SYMBOL_GPL(conftest_pfn);

MODULE_LICENSE("GPL");
