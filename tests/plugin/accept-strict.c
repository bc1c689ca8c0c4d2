/* strict: an accepted use is no error, and the build passes; the reason
 * may be adjacent string literals. (strict.c: any other use fails it.) */
/* ksunset-args: strict */
#include <ksunset/sunset.h>
#include <linux/ksunset-test.h>

static inline int reset_clock(const struct timespec64 *ts)
{
	KSUNSET_ACCEPT("kept " "until the RTC driver lands");
	return set_clock(ts);
}

int probe(const struct timespec64 *ts)
{
	KSUNSET_ACCEPT("printk cannot be called here");
	return reset_clock(ts) + legacy_printk("%d\n", 1);
}

/*
 * record: do_settimeofday64 call accept-strict.c 10 16 reset_clock 2027-09-01 accepted "kept until the RTC driver lands"
 * record: legacy_printk call accept-strict.c 16 34 probe 2027-06-01 accepted "printk cannot be called here"
 */
