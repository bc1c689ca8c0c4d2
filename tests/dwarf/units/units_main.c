// SPDX-License-Identifier: GPL-2.0
/* tests/shell/t-dwarf.sh: a module of two units, whose DWARF is read a
 * unit at a time (dwarf/dwarfpick.c). This unit's table is static: the
 * file symbol before it leads to a function of its unit. "dwarf:"
 * comments as in ../kmod/dwarf_demo.c. */
#include <linux/module.h>
#include <linux/fs.h>

int units_global_touch(int v);

static const struct file_operations units_main_fops = {	/* dwarf: noop_llseek addr units_main_fops .llseek */
	.owner = THIS_MODULE,
	.llseek = noop_llseek,
};

static int major;

static int __init units_init(void)
{
	major = register_chrdev(0, "units", &units_main_fops);	/* dwarf: __register_chrdev call units_init */
	return units_global_touch(major) < 0 ? -EINVAL : 0;
}

static void __exit units_exit(void)
{
	unregister_chrdev(major, "units");	/* dwarf: __unregister_chrdev call units_exit */
}

module_init(units_init);
module_exit(units_exit);
MODULE_LICENSE("GPL");
