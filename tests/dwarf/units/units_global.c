// SPDX-License-Identifier: GPL-2.0
/* tests/shell/t-dwarf.sh: the other unit of dwarf_units.ko. Its table is
 * global, so no file symbol leads to its unit: the function it points to
 * does. */
#include <linux/fs.h>

int units_global_touch(int v);

static int units_open(struct inode *inode, struct file *file)
{
	return stream_open(inode, file);	/* dwarf: stream_open call units_open */
}

const struct file_operations units_global_fops = {	/* dwarf: default_llseek addr units_global_fops .llseek */
	.open = units_open,
	.llseek = default_llseek,
};

int units_global_touch(int v)
{
	return v + (units_global_fops.open == units_open);
}
