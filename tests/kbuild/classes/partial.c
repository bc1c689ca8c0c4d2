// SPDX-License-Identifier: GPL-2.0
/* An import some of whose uses break and some compile: 6.1's fortified
 * memcpy() and strlcpy() both call fortify_panic, which 6.12 does not
 * export; only strlcpy() is gone there. The source change is at that use
 * alone: memcpy()'s line needs a rebuild, nothing more.
 * forecast: remedy partial.ko fortify_panic source-change
 * forecast: break gone strlcpy partial.c:23
 * forecast: compiles partial.c:18
 * forecast: outlook partial.ko needs-source-changes
 */
#include <linux/module.h>
#include <linux/string.h>

static char partial_buf[8];

void partial_copy(const char *src, size_t n)
{
	memcpy(partial_buf, src, n);
}

void partial_name(const char *src, size_t n)
{
	strlcpy(partial_buf, src, n);
}

MODULE_LICENSE("GPL");
