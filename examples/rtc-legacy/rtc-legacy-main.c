// SPDX-License-Identifier: GPL-2.0
/*
 * rtc-legacy: an out-of-tree RTC driver written the way the ARM board
 * drivers of 2005 were. It sets the system clock itself from its battery-
 * backed counter instead of registering with the rtc class.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/rtc.h>
#include <linux/timekeeping.h>

#include "rtc-legacy.h"

static char *epoch = "1704067200";
module_param(epoch, charp, 0444);
MODULE_PARM_DESC(epoch, "counter value at power-on, in seconds since 1970");

int rtc_legacy_sync_clock(time64_t secs)
{
	struct timespec64 ts = { .tv_sec = secs };
	struct rtc_time tm;

	rtc_time64_to_tm(secs, &tm);
	pr_info("rtc-legacy: setting the clock to %ptRs\n", &tm);
	return do_settimeofday64(&ts);
}

static int __init rtc_legacy_init(void)
{
	time64_t secs = simple_strtoul(epoch, NULL, 10);
	int ret = rtc_legacy_dev_init();

	if (ret)
		return ret;
	ret = rtc_legacy_sync_clock(secs);
	if (ret)
		rtc_legacy_dev_exit();
	return ret;
}

static void __exit rtc_legacy_exit(void)
{
	rtc_legacy_dev_exit();
}

module_init(rtc_legacy_init);
module_exit(rtc_legacy_exit);
MODULE_DESCRIPTION("Legacy RTC driver that sets the system clock");
MODULE_LICENSE("GPL");
