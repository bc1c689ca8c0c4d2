/* SPDX-License-Identifier: GPL-2.0 */
/* The module's own name for an allocator of the kernel's, inside an
 * include guard: a branch that tests only the module's own macros is the
 * same on any kernel. FORECAST_HAVE_PWM, the module's own macro, is
 * defined for some kernels: a probe asks the target whether it is. */
#ifndef FORECAST_H
#define FORECAST_H
#include <linux/vmalloc.h>
#define forecast_valloc vmalloc
#include <linux/version.h>
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 15, 0)
#define FORECAST_HAVE_PWM
#endif
#endif
