// SPDX-License-Identifier: GPL-2.0
/* A struct that 6.1's <linux/sched.h> brought with it and 6.12's no
 * longer does.
 * break: incomplete struct work_struct helpers.c:8
 */
#include <linux/sched.h>

static struct work_struct breaks_work;

void *breaks_work_of(void)
{
	return &breaks_work;
}
