// SPDX-License-Identifier: GPL-2.0
/* A function the module defines for itself, static, that a kernel header
 * comes to declare: 6.12's <linux/panic.h> declares abort(), which
 * openafs defines as its own.
 * forecast: break clash abort clash.c:13
 * forecast: compiles clash.c:18
 * forecast: outlook clash.ko loads-but-rebuild-fails
 */
#include <linux/kernel.h>
#include <linux/module.h>

static void __attribute__((noreturn, cold))
abort(void)
{
	panic("clash: aborting\n");
}

static int clash_helper(int x)
{
	return x + 1;
}

static int __init clash_init(void)
{
	if (clash_helper(0) < 0)
		abort();
	return 0;
}
module_init(clash_init);

MODULE_LICENSE("GPL");
