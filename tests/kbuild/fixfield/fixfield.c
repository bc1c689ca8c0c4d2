// SPDX-License-Identifier: GPL-2.0
/* Fields of an inode's times, members gone by 6.12, read: in-tree code
 * calls the getter of the field (inode_get_mtime_sec()). */
#include <linux/fs.h>
#include <linux/module.h>

time64_t fixfield_age(struct inode *inode, time64_t now);

time64_t fixfield_age(struct inode *inode, time64_t now)
{
	time64_t t = inode->i_mtime.tv_sec;

	if (now < inode->i_ctime.tv_sec)
		return 0;
	return now - t;
}
EXPORT_SYMBOL_GPL(fixfield_age);

MODULE_LICENSE("GPL");
