// SPDX-License-Identifier: GPL-2.0
/* A module for Debian 12's 6.1 with a break of each kind on bookworm-
 * backports' 6.12 (helpers.c, buffer.c: the rest): t-target.sh asserts
 * each kind of check --target's forecast at its line ("break: KIND NAME
 * FILE:LINE"), and that the real 6.12 build fails on those lines.
 * break: header-gone <asm/unaligned.h> main.c:18
 * break: arity DEFINE_SEMAPHORE main.c:21
 * break: prototype generic_fillattr main.c:29
 * break: callback-prototype struct inode_operations.getattr main.c:34
 * break: member-gone struct inode.i_mtime main.c:39
 * break: member-type struct inode_operations.getattr main.c:48
 * break: read-only struct vm_area_struct.vm_flags main.c:53
 * break: gone strlcpy main.c:58
 * break: arity class_create main.c:59
 */
#include <linux/device.h>
#include <linux/fs.h>
#include <asm/unaligned.h>
#include <linux/mm.h>
#include <linux/module.h>
static DEFINE_SEMAPHORE(breaks_lock);
static struct class *breaks_class;
static char breaks_name[16];

static int breaks_getattr(struct user_namespace *ns, const struct path *path,
			  struct kstat *stat, u32 mask, unsigned int flags)
{
	down(&breaks_lock);
	generic_fillattr(ns, d_inode(path->dentry), stat);
	up(&breaks_lock);
	return 0;
}
static const struct inode_operations breaks_iops = {
	.getattr = breaks_getattr,
};

long breaks_mtime(struct inode *inode)
{
	return inode->i_mtime.tv_sec + get_unaligned_le32(breaks_name);
}

int (*breaks_old)(struct user_namespace *, const struct path *, struct kstat *, u32,
		  unsigned int);

void breaks_peek(struct inode *inode)
{
	inode->i_op = &breaks_iops;
	breaks_old = inode->i_op->getattr;
}

void breaks_vma(struct vm_area_struct *vma)
{
	vma->vm_flags |= VM_IO;
}

static int __init breaks_init(void)
{
	strlcpy(breaks_name, "breaks", sizeof(breaks_name));
	breaks_class = class_create(THIS_MODULE, breaks_name);
	return IS_ERR(breaks_class) ? PTR_ERR(breaks_class) : 0;
}

static void __exit breaks_exit(void)
{
	class_destroy(breaks_class);
}

module_init(breaks_init);
module_exit(breaks_exit);
MODULE_LICENSE("GPL");
