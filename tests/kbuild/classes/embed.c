// SPDX-License-Identifier: GPL-2.0
/* forecast: outlook embed.ko loads-but-rebuild-fails */
#include <linux/compat.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_edid.h>
#include "embed_uapi.h"
#include <drm/drm_drv.h>
#include <linux/module.h>

struct embed_event *embed_new(void);
struct embed_event *embed_new(void)
{
	static struct embed_event ev;

	ev.mode = 1;
	return &ev;
}
EXPORT_SYMBOL_GPL(embed_new);

MODULE_LICENSE("GPL");
