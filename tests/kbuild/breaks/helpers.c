// SPDX-License-Identifier: GPL-2.0
/* A struct that 6.1's <linux/sched.h> brought with it and 6.12's no
 * longer does; a function of its own that 6.12's headers declare.
 * break: incomplete struct work_struct helpers.c:10
 * break: clash abort helpers.c:18
 */
#include <linux/kernel.h>
#include <linux/sched.h>

static struct work_struct breaks_work;

void *breaks_work_of(void)
{
	return &breaks_work;
}

/* <linux/panic.h> declares abort() from 6.11 on */
static void __attribute__((noreturn, cold)) abort(void)
{
	panic("breaks: aborting\n");
}

void breaks_check(int ok)
{
	if (!ok)
		abort();
}
