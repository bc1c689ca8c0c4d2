// SPDX-License-Identifier: GPL-2.0
/* A module whose #if tests what its configure script found: which branch
 * the target's build takes, configure decides there; the forecast says it
 * does not know, and names the macro.
 * forecast: unknown configure.ko it tests HAVE_SETATTR_PREPARE_USERNS, which the module's configure script sets
 */
#include "configure_config.h"
#include <linux/fs.h>
#include <linux/module.h>

int configure_prepare(struct dentry *dentry, struct iattr *attr);
int configure_prepare(struct dentry *dentry, struct iattr *attr)
{
#if defined(HAVE_SETATTR_PREPARE_USERNS)
	return setattr_prepare(&init_user_ns, dentry, attr);
#elif defined(HAVE_SETATTR_PREPARE_IDMAP)
	return setattr_prepare(&nop_mnt_idmap, dentry, attr);
#else
	return setattr_prepare(dentry, attr);
#endif
}
EXPORT_SYMBOL_GPL(configure_prepare);

MODULE_LICENSE("GPL");
