/* SPDX-License-Identifier: GPL-2.0 */
/* The module's own name for an allocator of the kernel's, inside an
 * include guard: a branch that tests only the module's own macros is the
 * same on any kernel. */
#ifndef FORECAST_H
#define FORECAST_H
#include <linux/vmalloc.h>
#define forecast_valloc vmalloc
#endif
