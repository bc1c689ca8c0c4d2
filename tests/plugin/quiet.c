/* quiet: nothing printed, every use still recorded. A diagnostic pragma
 * hides a warning the same way, and the use is recorded too. */
/* ksunset-args: quiet */
#include <linux/ksunset-test.h>

int set(const struct timespec64 *ts)
{
	return do_settimeofday64(ts);
}

/*
 * record: do_settimeofday64 call quiet.c 8 16 set 2027-09-01
 */
