// SPDX-License-Identifier: GPL-2.0
/* A function that 6.1's <linux/netdevice.h> declared through the headers
 * it included, and 6.12's no longer does.
 * break: not-included vzalloc buffer.c:12
 */
#include <linux/netdevice.h>

void *breaks_work_of(void);

void *breaks_buffer(unsigned long n)
{
	return vzalloc(n) ? breaks_work_of() : NULL;
}
