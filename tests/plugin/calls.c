/* Direct calls, calls through macros (the kernel's and the module's own),
 * a call in the module's own header, __init code, K&R and variadic calls. */
#include <linux/ksunset-test.h>
#include "mod-helpers.h"

#define RESET(ts) do_settimeofday64(ts)

extern int old_kr_func();

int direct(const struct timespec64 *ts)
{
	return do_settimeofday64(ts);
}

int through_macros(const struct timespec64 *ts)
{
	int r = set_clock(ts);

	return r + RESET(ts);
}

int through_header(const struct timespec64 *ts)
{
	return mod_reset_clock(ts);
}

int __init init_code(void)
{
	struct timespec64 ts = { 0, 0 };

	return do_settimeofday64(&ts);
}

int kr_and_variadic(void)
{
	return old_kr_func(1, 2) + legacy_printk("%d %s\n", 1, "x");
}

/*
 * expect: 12:16: warning: 'do_settimeofday64' is scheduled for removal on 2027-09-01; use 'rtc_set_time' instead [-Wdeprecated-declarations]
 * expect: 12:16: note: No in-tree modular user.
 * expect: 17:17: warning: 'do_settimeofday64' is scheduled for removal on 2027-09-01; use 'rtc_set_time' instead [-Wdeprecated-declarations]
 * expect: 17:17: note: No in-tree modular user.
 * expect: 17:17: note: the source writes 'set_clock', which the kernel's headers make a call of 'do_settimeofday64': a rebuild against headers that no longer do is enough for this use (ksunset check --target tells)
 * expect: 19:20: warning: 'do_settimeofday64' is scheduled for removal on 2027-09-01; use 'rtc_set_time' instead [-Wdeprecated-declarations]
 * expect: 19:20: note: No in-tree modular user.
 * expect: 31:16: warning: 'do_settimeofday64' is scheduled for removal on 2027-09-01; use 'rtc_set_time' instead [-Wdeprecated-declarations]
 * expect: 31:16: note: No in-tree modular user.
 * expect: 36:16: warning: 'old_kr_func' is scheduled for removal on 2027-06-01 [-Wdeprecated-declarations]
 * expect: 36:36: warning: 'legacy_printk' is scheduled for removal on 2027-06-01 [-Wdeprecated-declarations]
 * expect: include/mod-helpers.h:4:16: warning: 'do_settimeofday64' is scheduled for removal on 2027-09-01; use 'rtc_set_time' instead [-Wdeprecated-declarations]
 * expect: include/mod-helpers.h:4:16: note: No in-tree modular user.
 * record: do_settimeofday64 call calls.c 12 16 direct 2027-09-01
 * record: do_settimeofday64 call calls.c 17 17 through_macros 2027-09-01
 * record: do_settimeofday64 call calls.c 19 20 through_macros 2027-09-01
 * record: do_settimeofday64 call calls.c 31 16 init_code 2027-09-01
 * record: old_kr_func call calls.c 36 16 kr_and_variadic 2027-06-01
 * record: legacy_printk call calls.c 36 36 kr_and_variadic 2027-06-01
 * record: do_settimeofday64 call include/mod-helpers.h 4 16 mod_reset_clock 2027-09-01
 */
