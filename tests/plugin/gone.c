/* Uses the optimiser removes altogether are warned about, as they are in
 * the source, but not recorded: the object does not import the symbol. */
#include <linux/ksunset-test.h>

static int debug(int on)
{
	if (on)
		return legacy_printk("debug\n");
	return 0;
}

int quiet_path(void)
{
	return debug(0);
}

static const struct file_operations never_used __attribute__((unused)) = {
	.open = nonseekable_open,
};

/* a use that stays: recorded */
int set(const struct timespec64 *ts)
{
	return do_settimeofday64(ts);
}

/*
 * expect: 8:24: warning: 'legacy_printk' is scheduled for removal on 2027-06-01 [-Wdeprecated-declarations]
 * expect: 18:17: warning: 'nonseekable_open' will move to namespace VFS_LEGACY in Linux 6.20; add MODULE_IMPORT_NS(VFS_LEGACY) [-Wdeprecated-declarations]
 * expect: 24:16: warning: 'do_settimeofday64' is scheduled for removal on 2027-09-01; use 'rtc_set_time' instead [-Wdeprecated-declarations]
 * expect: 24:16: note: No in-tree modular user.
 * record: do_settimeofday64 call gone.c 24 16 set 2027-09-01
 */
