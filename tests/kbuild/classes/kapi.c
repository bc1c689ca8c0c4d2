// SPDX-License-Identifier: GPL-2.0
/* Kernel interfaces whose shape changed in ways a name or an arity does
 * not show: get_file_rcu(), a macro of one argument in 6.1, a function
 * of one argument of another type in 6.12; PG_error, an enumeration
 * constant 6.12 removed; inode_permission() given current_user_ns(), a
 * macro of 6.1's, where 6.12 wants a struct mnt_idmap * (GCC reports that
 * error inside the macro, at the module's line in the note).
 * forecast: break prototype get_file_rcu kapi.c:21
 * forecast: break gone PG_error kapi.c:26
 * forecast: break prototype inode_permission kapi.c:31
 * forecast: outlook kapi.ko needs-source-changes
 */
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/page-flags.h>

int kapi_hold(struct file *f)
{
	return get_file_rcu(f) ? 0 : -ENOENT;
}

bool kapi_failed(struct page *page)
{
	return test_bit(PG_error, &page->flags);
}

int kapi_may_read(struct inode *inode)
{
	return inode_permission(current_user_ns(), inode, MAY_READ);
}

MODULE_LICENSE("GPL");
