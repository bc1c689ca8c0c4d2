/* Calls inside the kernel's static inline wrappers are reported at the
 * module's call of the wrapper, once per call site, however often the
 * optimiser copies the inlined body. */
#include <linux/ksunset-test.h>

static int major;

int setup(void)
{
	major = register_chrdev(0, "legacy");
	return major;
}

void teardown(void)
{
	unregister_chrdev(major, "legacy");
}

int both(void)
{
	return register_two(10, "pair");
}

/* the module's own inline function: the wrapper call in it is the use,
 * not the two places it is inlined into */
static inline int mod_register(const char *name)
{
	return register_chrdev(0, name);
}

int first(void)
{
	return mod_register("a");
}

int second(int n)
{
	int r = 0;

	for (int i = 0; i < n; i++)
		r += mod_register("b");
	return r;
}

/*
 * expect: 10:17: warning: '__register_chrdev' is scheduled for removal on 2027-03-01; use 'misc_register' instead [-Wdeprecated-declarations]
 * expect: 10:17: note: the source writes 'register_chrdev', which the kernel's headers make a call of '__register_chrdev': a rebuild against headers that no longer do is enough for this use (ksunset check --target tells)
 * expect: 16:9: warning: '__unregister_chrdev' is scheduled for removal on 2027-03-01; use 'misc_register' instead [-Wdeprecated-declarations]
 * expect: 16:9: note: the source writes 'unregister_chrdev', which the kernel's headers make a call of '__unregister_chrdev': a rebuild against headers that no longer do is enough for this use (ksunset check --target tells)
 * expect: 21:16: warning: '__register_chrdev' is scheduled for removal on 2027-03-01; use 'misc_register' instead [-Wdeprecated-declarations]
 * expect: 21:16: note: the source writes 'register_two', which the kernel's headers make a call of '__register_chrdev': a rebuild against headers that no longer do is enough for this use (ksunset check --target tells)
 * expect: 28:16: warning: '__register_chrdev' is scheduled for removal on 2027-03-01; use 'misc_register' instead [-Wdeprecated-declarations]
 * expect: 28:16: note: the source writes 'register_chrdev', which the kernel's headers make a call of '__register_chrdev': a rebuild against headers that no longer do is enough for this use (ksunset check --target tells)
 * record: __register_chrdev call wrappers.c 10 17 setup 2027-03-01
 * record: __unregister_chrdev call wrappers.c 16 9 teardown 2027-03-01
 * record: __register_chrdev call wrappers.c 21 16 both 2027-03-01
 * record: __register_chrdev call wrappers.c 28 16 mod_register 2027-03-01
 */
