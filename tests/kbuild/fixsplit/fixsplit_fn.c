// SPDX-License-Identifier: GPL-2.0
/* The callbacks of fixsplit_ops.c's bus, defined here: one head per
 * branch of an #if, each over two lines, one body. */
#include "fixsplit.h"

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 0)
int fixsplit_uevent(struct device *dev, char **envp, int num_envp)
#else
int fixsplit_uevent(struct device *dev,
		    struct kobj_uevent_env *env)
#endif
{
	return add_uevent_var(env, "FIXSPLIT=%s", dev_name(dev));
}

int fixsplit_match(struct device *dev,
		   struct device_driver *drv)
{
	return dev && drv;
}
