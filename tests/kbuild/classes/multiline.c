// SPDX-License-Identifier: GPL-2.0
/* A call whose arguments run over several lines: GCC reports a bad
 * argument at its own line, not at the call's.
 * forecast: break prototype inode_init_owner multiline.c:18
 * forecast: compiles multiline.c:17
 * forecast: outlook multiline.ko loads-but-rebuild-fails
 */
#include <linux/fs.h>
#include <linux/module.h>

void multiline_init_owner(struct user_namespace *ns, struct inode *inode,
			  const struct inode *dir, umode_t mode);

void multiline_init_owner(struct user_namespace *ns, struct inode *inode,
			  const struct inode *dir, umode_t mode)
{
	inode_init_owner(
		ns, inode, dir, mode);
}

MODULE_LICENSE("GPL");
