/* KSUNSET_ACCEPT("reason") accepts every scheduled use written in the
 * function that holds it, through macros and kernel-header wrappers too:
 * no warning, and the record carries the reason. A function it is not in
 * (a helper, even one inlined into it) is not accepted, nor is a use past
 * its date. */
#include <ksunset/sunset.h>
#include <linux/ksunset-test.h>

extern int due_yesterday(void);

static int helper(const struct timespec64 *ts)
{
	return do_settimeofday64(ts);
}

int accepted(const struct timespec64 *ts)
{
	int r = set_clock(ts) + helper(ts);

	KSUNSET_ACCEPT("board has no RTC class driver yet");
	return r + register_chrdev(0, "acc") + (int)jiffies;
}

int not_accepted(const struct timespec64 *ts)
{
	return do_settimeofday64(ts);
}

int overdue(void)
{
	KSUNSET_ACCEPT("still needed");
	return due_yesterday();
}

/*
 * expect: 13:16: warning: 'do_settimeofday64' is scheduled for removal on 2027-09-01; use 'rtc_set_time' instead [-Wdeprecated-declarations]
 * expect: 13:16: note: No in-tree modular user.
 * expect: 26:16: warning: 'do_settimeofday64' is scheduled for removal on 2027-09-01; use 'rtc_set_time' instead [-Wdeprecated-declarations]
 * expect: 26:16: note: No in-tree modular user.
 * expect: 32:16: warning: 'due_yesterday' was due for removal on 2026-12-02 (overdue by 1 day) [-Wdeprecated-declarations]
 * expect: 32:16: note: accepted in the source ("still needed"), but a use past its date never is
 * record: do_settimeofday64 call accept.c 13 16 helper 2027-09-01
 * record: do_settimeofday64 call accept.c 18 17 accepted 2027-09-01 accepted "board has no RTC class driver yet"
 * record: __register_chrdev call accept.c 21 20 accepted 2027-03-01 accepted "board has no RTC class driver yet"
 * record: jiffies data accept.c 21 53 accepted 2027-01-01 accepted "board has no RTC class driver yet"
 * record: do_settimeofday64 call accept.c 26 16 not_accepted 2027-09-01
 * record: due_yesterday call accept.c 32 16 overdue 2026-12-02 accepted "still needed"
 */
