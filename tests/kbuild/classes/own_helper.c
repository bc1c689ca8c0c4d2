// SPDX-License-Identifier: GPL-2.0
/* The module's own definition of a name a kernel header declares. */
#include <linux/mm.h>

void mem_init(void)
{
}
