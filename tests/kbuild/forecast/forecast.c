// SPDX-License-Identifier: GPL-2.0
/* A module written for Debian 12's 6.1 that t-target.sh forecasts on
 * 6.12: each import below is gone from 6.12's exports or in a namespace
 * there, and a rebuild against 6.12's headers is enough for all of them.
 * kmalloc() was an inline calling kmalloc_trace; vmalloc(), through the
 * module's own macro in its own header, is a macro of vmalloc_noprof;
 * current, a macro, read the per-CPU current_task; pwm_get is in
 * namespace PWM, which 6.12's <linux/pwm.h> imports for the module.
 * What must not be called a break: the variable rtc_lock beside the
 * macro rtc_lock(d) of <linux/rtc.h>; crypto_req_done passed where 6.12
 * changed both its type and the callback parameter's; NULL passed there;
 * ethtool_op_get_ts_info stored in the member whose type changed with it. */
#include <crypto/hash.h>
#include <linux/ethtool.h>
#include <linux/mc146818rtc.h>
#include <linux/module.h>
#include <linux/pwm.h>
#include <linux/rtc.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/version.h>
#include "forecast.h"

static void *buf, *big;

static const struct ethtool_ops forecast_ethtool __maybe_unused = {
	.get_link = ethtool_op_get_link,
	.get_ts_info = ethtool_op_get_ts_info,
};

static u8 __maybe_unused forecast_cmos(void)
{
	unsigned long flags;
	u8 v;

	spin_lock_irqsave(&rtc_lock, flags);
	v = CMOS_READ(0x7c);
	spin_unlock_irqrestore(&rtc_lock, flags);
	return v;
}

static void __maybe_unused forecast_hash(struct ahash_request *req, struct crypto_wait *wait)
{
	ahash_request_set_callback(req, CRYPTO_TFM_REQ_MAY_BACKLOG, crypto_req_done, wait);
	ahash_request_set_callback(req, 0, NULL, NULL);
}

static int __init forecast_init(void)
{
#ifdef FORECAST_HAVE_PWM	/* forecast.h: taken on 6.1 and 6.12 alike */
	struct pwm_device *pwm = pwm_get(NULL, "forecast");

	if (!IS_ERR(pwm))
		pwm_put(pwm);
#endif
	buf = kmalloc(64, GFP_KERNEL);
	big = forecast_valloc(1 << 20);
	pr_info("forecast: loaded by %d\n", current->pid);
	return buf && big ? 0 : -ENOMEM;
}

static void __exit forecast_exit(void)
{
	vfree(big);
	kfree(buf);
}

module_init(forecast_init);
module_exit(forecast_exit);
MODULE_LICENSE("GPL");
