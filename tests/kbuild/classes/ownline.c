// SPDX-License-Identifier: GPL-2.0
/* A kernel use spelled with a macro of the module's own that its
 * configure script's answer defines (NVIDIA's NV_PROC_OPS_OPEN, openafs's
 * static_inline): which spelling the target's build takes, configure
 * decides there; the forecast says it does not know, and names the macro
 * and what decides it.
 * forecast: unknown ownline.ko it is spelled with the module's OWNLINE_SETATTR, defined where it tests HAVE_SETATTR_PREPARE_USERNS, which the module's configure script sets
 */
#include "configure_config.h"
#include <linux/fs.h>
#include <linux/module.h>

#if defined(HAVE_SETATTR_PREPARE_USERNS)
#define OWNLINE_SETATTR(d, a) setattr_prepare(&init_user_ns, d, a)
#else
#define OWNLINE_SETATTR(d, a) setattr_prepare(&nop_mnt_idmap, d, a)
#endif

int ownline_prepare(struct dentry *dentry, struct iattr *attr);
int ownline_prepare(struct dentry *dentry, struct iattr *attr)
{
	return OWNLINE_SETATTR(dentry, attr);
}
EXPORT_SYMBOL_GPL(ownline_prepare);

MODULE_LICENSE("GPL");
