// SPDX-License-Identifier: GPL-2.0
/* An inode_operations.update_time callback: 6.12's take no struct
 * timespec64 *; this one passes it on only to generic_update_time(),
 * whose in-tree callers drop it too. */
#include <linux/module.h>
#include <linux/fs.h>

static int fixcbdrop_update_time(struct inode *inode, struct timespec64 *time, int flags)
{
	return generic_update_time(inode, time, flags);
}

const struct inode_operations fixcbdrop_iops = {
	.update_time	= fixcbdrop_update_time,
};
EXPORT_SYMBOL_GPL(fixcbdrop_iops);

MODULE_LICENSE("GPL");
