// SPDX-License-Identifier: GPL-2.0
/* Test module, second file: sets the clock as old RTC drivers did. */
#include <linux/module.h>
#include <linux/timekeeping.h>

#include "legacy.h"

int legacy_set_clock(long sec)
{
	struct timespec64 ts = { .tv_sec = sec };

	return do_settimeofday64(&ts);
}
