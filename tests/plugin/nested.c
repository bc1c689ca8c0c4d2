/* A kernel-header wrapper called in another call's arguments: GCC gives
 * every argument the location of the call it is passed to, so the use
 * is found again by the wrapper's name inside that call. */
#include <linux/ksunset-test.h>

extern int consume(int a, unsigned long b);

static int sink(int a, unsigned long b)
{
	return consume(a, b) + 1;
}

int nested(void)
{
	return consume(1, register_chrdev(0, "x"));
}

int deeper(void)
{
	return consume(2, consume(3, register_chrdev(0, "y")));
}

int in_own(void)
{
	return sink(4, read_ticks()) + sink(5, 0);
}

#define PASS(x) consume(6, (x))

int in_macro(void)
{
	return PASS(read_ticks());
}

/* a builtin's call, which keeps no source range, over lines; the wrapper
 * written as a macro */
int in_builtin(const char *a, const char *b)
{
	return strncmp(a, b,
		       TICKS());
}

/*
 * expect: 15:27: warning: '__register_chrdev' is scheduled for removal on 2027-03-01; use 'misc_register' instead [-Wdeprecated-declarations]
 * expect: 15:27: note: the source writes 'register_chrdev', which the kernel's headers make a call of '__register_chrdev': a rebuild against headers that no longer do is enough for this use (ksunset check --target tells)
 * expect: 20:38: warning: '__register_chrdev' is scheduled for removal on 2027-03-01; use 'misc_register' instead [-Wdeprecated-declarations]
 * expect: 20:38: note: the source writes 'register_chrdev', which the kernel's headers make a call of '__register_chrdev': a rebuild against headers that no longer do is enough for this use (ksunset check --target tells)
 * expect: 25:24: warning: 'jiffies' will become GPL-only on 2027-01-01; only modules whose license is not GPL-compatible are concerned; get_jiffies_64() and jiffies_64 [-Wdeprecated-declarations]
 * expect: 25:24: note: the source writes 'read_ticks', which the kernel's headers make a call of 'jiffies': a rebuild against headers that no longer do is enough for this use (ksunset check --target tells)
 * expect: 32:21: warning: 'jiffies' will become GPL-only on 2027-01-01; only modules whose license is not GPL-compatible are concerned; get_jiffies_64() and jiffies_64 [-Wdeprecated-declarations]
 * expect: 32:21: note: the source writes 'read_ticks', which the kernel's headers make a call of 'jiffies': a rebuild against headers that no longer do is enough for this use (ksunset check --target tells)
 * expect: 40:24: warning: 'jiffies' will become GPL-only on 2027-01-01; only modules whose license is not GPL-compatible are concerned; get_jiffies_64() and jiffies_64 [-Wdeprecated-declarations]
 * expect: 40:24: note: the source writes 'TICKS', which the kernel's headers make a call of 'jiffies': a rebuild against headers that no longer do is enough for this use (ksunset check --target tells)
 * record: __register_chrdev call nested.c 15 27 nested 2027-03-01
 * record: __register_chrdev call nested.c 20 38 deeper 2027-03-01
 * record: jiffies data nested.c 25 24 in_own 2027-01-01
 * record: jiffies data nested.c 32 21 in_macro 2027-01-01
 * record: jiffies data nested.c 40 24 in_builtin 2027-01-01
 */
