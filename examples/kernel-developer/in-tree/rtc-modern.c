// SPDX-License-Identifier: GPL-2.0
/* An in-tree style RTC driver: it registers with the rtc class and lets the
 * core set the system clock, so it never calls do_settimeofday64(). */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/rtc.h>

static int modern_read_time(struct device *dev, struct rtc_time *tm)
{
	rtc_time64_to_tm(0, tm);
	return 0;
}

static const struct rtc_class_ops modern_ops = {
	.read_time = modern_read_time,
};

static int modern_probe(struct platform_device *pdev)
{
	struct rtc_device *rtc = devm_rtc_allocate_device(&pdev->dev);

	if (IS_ERR(rtc))
		return PTR_ERR(rtc);
	rtc->ops = &modern_ops;
	return devm_rtc_register_device(rtc);
}

static struct platform_driver modern_driver = {
	.probe = modern_probe,
	.driver = { .name = "rtc-modern" },
};
module_platform_driver(modern_driver);
MODULE_LICENSE("GPL");
