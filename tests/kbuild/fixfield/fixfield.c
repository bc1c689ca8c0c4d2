// SPDX-License-Identifier: GPL-2.0
/* Fields of an inode's times, members gone by 6.12, read: in-tree code
 * calls the getter of the field (inode_get_mtime_sec()); the whole time
 * read, the getter of the time (inode_get_atime()). */
#include <linux/fs.h>
#include <linux/module.h>

time64_t fixfield_age(struct inode *inode, time64_t now);

time64_t fixfield_age(struct inode *inode, time64_t now)
{
	struct timespec64 a = inode->i_atime;
	time64_t t = inode->i_mtime.tv_sec;

	if (a.tv_sec > now)
		return 0;
	if (now < inode->i_ctime.tv_sec || now < inode->i_atime.tv_sec)
		return 0;
	return now - t;
}
EXPORT_SYMBOL_GPL(fixfield_age);

MODULE_LICENSE("GPL");
