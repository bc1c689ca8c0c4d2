/* SPDX-License-Identifier: GPL-2.0 */
/* The module's own name for an allocator of the kernel's. */
#include <linux/vmalloc.h>
#define forecast_valloc vmalloc
