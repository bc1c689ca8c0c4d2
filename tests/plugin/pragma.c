/* The warnings are -Wdeprecated-declarations: a diagnostic pragma hides
 * them where it applies (the use is still recorded), not elsewhere. */
#include <linux/ksunset-test.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
int hidden(const struct timespec64 *ts)
{
	return do_settimeofday64(ts);
}
#pragma GCC diagnostic pop

int shown(const struct timespec64 *ts)
{
	return do_settimeofday64(ts);
}

/*
 * expect: 15:16: warning: 'do_settimeofday64' is scheduled for removal on 2027-09-01; use 'rtc_set_time' instead [-Wdeprecated-declarations]
 * expect: 15:16: note: No in-tree modular user.
 * record: do_settimeofday64 call pragma.c 9 16 hidden 2027-09-01
 * record: do_settimeofday64 call pragma.c 15 16 shown 2027-09-01
 */
