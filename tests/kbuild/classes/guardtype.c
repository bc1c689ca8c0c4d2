// SPDX-License-Identifier: GPL-2.0
/* A typedef the module's own #if includes a header for, another header on
 * another kernel (zfs's zstd: ptrdiff_t through its own <stddef.h>, under
 * conditions the target answers otherwise): that header is not read where
 * the target's build reads another, and the scan of the target's headers
 * indexes no typedef, so that none is found there says nothing. Whether
 * the line builds is unknown, never "gone".
 * forecast: compiles guardtype.c:20
 * forecast: compiles guardtype.c:22
 * forecast: unknown guardtype.ko guardtype.c:15
 */
#include <linux/version.h>
#include <linux/module.h>
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)
#include <linux/blk_types.h>
#else
#include <linux/blkdev.h>
#endif

blk_status_t guardtype_status(int x)
{
	return x ? BLK_STS_IOERR : BLK_STS_OK;
}
EXPORT_SYMBOL_GPL(guardtype_status);

MODULE_LICENSE("GPL");
