// SPDX-License-Identifier: GPL-2.0
/* <asm/unaligned.h>, gone in 6.12, where in-tree code includes
 * <linux/unaligned.h> instead; <linux/version.h> comes after it. */
#include <linux/module.h>
#include <linux/types.h>
#include <asm/unaligned.h>
#include <linux/version.h>

u32 fixhdr_le32(const void *p);
u32 fixhdr_le32(const void *p)
{
	return get_unaligned_le32(p);
}
EXPORT_SYMBOL_GPL(fixhdr_le32);

MODULE_LICENSE("GPL");
