/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FIXSPLIT_H
#define FIXSPLIT_H

#include <linux/device.h>
#include <linux/version.h>

/* an older kernel's prototype (other parameters): not rewritten */
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 0)
int fixsplit_uevent(struct device *dev, char **envp, int num_envp);
#else
int fixsplit_uevent(struct device *dev, struct kobj_uevent_env *env);
#endif
extern int fixsplit_match(struct device *dev,
			  struct device_driver *drv);

#endif
