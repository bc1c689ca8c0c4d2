// SPDX-License-Identifier: GPL-2.0
/* A macro the module only #undefs, outside any #if (dahdi's
 * CONFIG_WCTC4XXP_POLLING), or inside its header's include guard only
 * (undef.h, as dahdi's CONFIG_VOICEBUS_ECREFERENCE), or in each branch of
 * an #if and defined nowhere (dahdi's USE_ASYNC_INIT): it is undefined on
 * every kernel, so the branch that tests it is judged, not unknown.
 * forecast: outlook undef.ko builds-and-loads
 */
#include <linux/module.h>
#include <linux/slab.h>

#include <linux/version.h>

#include "undef.h"

#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 30)
#undef UNDEF_ASYNC
#else
#undef UNDEF_ASYNC
#endif

#undef CONFIG_UNDEF_POLLING

static void *undef_buf;

static int __init undef_init(void)
{
#if !defined(CONFIG_UNDEF_POLLING)
	undef_buf = kzalloc(64, GFP_KERNEL);
#endif
#ifndef CONFIG_UNDEF_ECREF
	if (undef_buf)
		memset(undef_buf, 1, 64);
#endif
#ifndef UNDEF_ASYNC
	if (undef_buf)
		memset(undef_buf, 2, 64);
#endif
	return undef_buf ? 0 : -ENOMEM;
}

static void __exit undef_exit(void)
{
	kfree(undef_buf);
}
module_init(undef_init);
module_exit(undef_exit);

MODULE_LICENSE("GPL");
