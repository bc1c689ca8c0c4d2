/* strict: every use is an error and the build fails, with or without
 * -Werror; the notes still come with it. */
/* cflags: -Werror */
/* ksunset-args: strict */
/* expect-exit: 1 */
#include <linux/ksunset-test.h>

int set(const struct timespec64 *ts)
{
	return do_settimeofday64(ts) + (int)jiffies;
}

/*
 * expect: 10:16: error: 'do_settimeofday64' is scheduled for removal on 2027-09-01; use 'rtc_set_time' instead
 * expect: 10:16: note: No in-tree modular user.
 * expect: 10:45: error: 'jiffies' will become GPL-only on 2027-01-01; only modules whose license is not GPL-compatible are concerned; get_jiffies_64() and jiffies_64
 */
