// SPDX-License-Identifier: GPL-2.0
/* A member gone by 6.12 (struct fd's file), where in-tree code reads it
 * through an accessor (fd_file()) instead. */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/module.h>

static int fixread_size(unsigned int fd, loff_t *size)
{
	struct fd f = fdget(fd);

	if (!f.file)
		return -EBADF;
	*size = i_size_read(file_inode(f.file));
	fdput(f);
	return 0;
}

static int __init fixread_init(void)
{
	loff_t size;

	return fixread_size(0, &size) == -EBADF ? 0 : 0;
}
module_init(fixread_init);
MODULE_LICENSE("GPL");
