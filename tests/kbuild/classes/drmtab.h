/* SPDX-License-Identifier: GPL-2.0 */
/* A kernel struct embedded in a struct of the module's own header:
 * <linux/fs.h> defines struct file_lock in 6.1, only declares it in 6.12.
 * forecast: break incomplete struct file_lock drmtab.h:9
 */
#include <linux/fs.h>

struct drmtab_lock {
	struct file_lock base;
	int owner;
};
