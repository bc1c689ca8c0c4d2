/* rtc-legacy: shared between the module's two files. */
#ifndef RTC_LEGACY_H
#define RTC_LEGACY_H

#include <linux/types.h>

int rtc_legacy_dev_init(void);
void rtc_legacy_dev_exit(void);
int rtc_legacy_sync_clock(time64_t secs);

#endif
