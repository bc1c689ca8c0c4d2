// SPDX-License-Identifier: GPL-2.0
/* Members gone by 6.12 (struct inode's i_ctime, i_mtime, i_atime): a
 * chain of assignments, its inner link the outer one's value, and
 * assignments of values. */
#include <linux/fs.h>
#include <linux/module.h>

void fixchain_dirty(struct inode *dir);
void fixchain_set(struct inode *inode, struct timespec64 ts);

void fixchain_dirty(struct inode *dir)
{
	dir->i_mtime = dir->i_ctime = current_time(dir);
}
EXPORT_SYMBOL_GPL(fixchain_dirty);

void fixchain_set(struct inode *inode, struct timespec64 ts)
{
	inode->i_atime = ts;
	inode->i_mtime = ts;
}
EXPORT_SYMBOL_GPL(fixchain_set);

MODULE_LICENSE("GPL");
