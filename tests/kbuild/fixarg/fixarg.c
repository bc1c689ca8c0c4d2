// SPDX-License-Identifier: GPL-2.0
/* Calls that pass &init_user_ns where 6.12's prototypes take a struct
 * mnt_idmap: in-tree callers pass &nop_mnt_idmap there instead. */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/user_namespace.h>

int fixarg_setattr(struct dentry *dentry, struct iattr *attr)
{
	struct inode *inode = d_inode(dentry);
	int err = setattr_prepare(&init_user_ns, dentry, attr);

	if (err)
		return err;
	if (!inode_owner_or_capable(&init_user_ns, inode))
		return -EPERM;
	setattr_copy(&init_user_ns, inode, attr);
	return 0;
}
EXPORT_SYMBOL_GPL(fixarg_setattr);

MODULE_LICENSE("GPL");
