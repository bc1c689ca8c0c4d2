/* -Werror: the plugin's warnings stay warnings, the build succeeds, and
 * the use is still recorded. */
/* cflags: -Werror */
#include <linux/ksunset-test.h>

int set(const struct timespec64 *ts)
{
	return do_settimeofday64(ts);
}

/*
 * expect: 8:16: warning: 'do_settimeofday64' is scheduled for removal on 2027-09-01; use 'rtc_set_time' instead [-Wdeprecated-declarations]
 * expect: 8:16: note: No in-tree modular user.
 * record: do_settimeofday64 call werror.c 8 16 set 2027-09-01
 */
