// SPDX-License-Identifier: GPL-2.0
/* A unit one of whose kernel includes a configure script decides
 * (nvidia-fs's <linux/blk-integrity.h>): the target's build may read other
 * headers, yet a member gone from a struct, or a name no header of the
 * target declares, breaks whatever it reads; a struct that other headers
 * could complete is not judged, and the outlook counts that place.
 * forecast: break gone FMODE_UNSIGNED_OFFSET cfginc.c:23
 * forecast: break member-gone struct fd.file cfginc.c:32
 * forecast: outlook cfginc.ko needs-source-changes
 * forecast: says cfginc.ko whether 1 more place builds there is unknown (whether the target compiles
 */
#include "cfginc_config.h"
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/module.h>
#ifdef HAVE_BLK_INTEGRITY_H
#include <linux/blk-integrity.h>
#endif

int cfginc_unsigned(struct file *file);
int cfginc_unsigned(struct file *file)
{
	return !!(file->f_mode & FMODE_UNSIGNED_OFFSET);
}
EXPORT_SYMBOL_GPL(cfginc_unsigned);

int cfginc_bad(unsigned int n);
int cfginc_bad(unsigned int n)
{
	struct fd f = fdget(n);

	if (!f.file)
		return 1;
	fdput(f);
	return 0;
}
EXPORT_SYMBOL_GPL(cfginc_bad);

void cfginc_nosleep(struct file_lock *fl);
void cfginc_nosleep(struct file_lock *fl)
{
	fl->fl_flags &= ~FL_SLEEP;
}
EXPORT_SYMBOL_GPL(cfginc_nosleep);

MODULE_LICENSE("GPL");
