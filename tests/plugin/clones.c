/* GCC's clones (here reg.constprop.0, made because both callers pass 10)
 * are warned and recorded under the function's name as written, also when
 * the use is inside an inlined kernel-header wrapper (seen by the late
 * pass, in the clone). */
#include <linux/ksunset-test.h>

static __attribute__((noinline)) int reg(const char *name, unsigned int major)
{
	if (major > 5)
		return register_chrdev(major, name);
	return 0;
}

int first(const char *n)
{
	return reg(n, 10);
}

int second(const char *n)
{
	return reg(n + 1, 10);
}

/*
 * expect: 10:24: warning: '__register_chrdev' is scheduled for removal on 2027-03-01; use 'misc_register' instead [-Wdeprecated-declarations]
 * expect: 10:24: note: the source writes 'register_chrdev', which the kernel's headers make a call of '__register_chrdev': a rebuild against headers that no longer do is enough for this use (ksunset check --target tells)
 * record: __register_chrdev call clones.c 10 24 reg 2027-03-01
 */
