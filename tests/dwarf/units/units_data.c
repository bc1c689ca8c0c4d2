// SPDX-License-Identifier: GPL-2.0
/* tests/shell/t-dwarf.sh: a global table that points to imports only, in
 * a module without functions of its own: nothing tells its unit without
 * reading the DWARF, so every unit is read. */
#include <linux/module.h>
#include <linux/fs.h>

const struct file_operations units_data_fops = {	/* dwarf: generic_file_llseek addr units_data_fops .llseek; generic_read_dir addr units_data_fops .read */
	.llseek = generic_file_llseek,
	.read = generic_read_dir,
};
EXPORT_SYMBOL_GPL(units_data_fops);
MODULE_LICENSE("GPL");
