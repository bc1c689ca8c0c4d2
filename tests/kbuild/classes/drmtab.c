// SPDX-License-Identifier: GPL-2.0
/* What a driver's static tables use: an object-like macro of the kernel's
 * in an ioctl table, written inside a kernel macro (DRM_UNLOCKED, gone in
 * 6.12), and a member of a const ops struct's designated initializer
 * (output_poll_changed, gone in 6.12).
 * forecast: break gone DRM_UNLOCKED drmtab.c:27
 * forecast: break member-gone struct drm_mode_config_funcs.output_poll_changed drmtab.c:31
 * forecast: outlook drmtab.ko needs-source-changes
 */
#include <linux/module.h>
#include <drm/drm_drv.h>
#include <drm/drm_fb_helper.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_mode_config.h>
#include "drmtab.h"

#define DRM_DRMTAB_GET 0x00
#define DRM_IOCTL_DRMTAB_GET DRM_IOWR(DRM_COMMAND_BASE + DRM_DRMTAB_GET, struct drm_mode_card_res)

static int drmtab_get(struct drm_device *dev, void *data, struct drm_file *file)
{
	return 0;
}

const struct drm_ioctl_desc drmtab_ioctls[] = {
	DRM_IOCTL_DEF_DRV(DRMTAB_GET, drmtab_get,
			  DRM_UNLOCKED | DRM_AUTH),
};

const struct drm_mode_config_funcs drmtab_funcs = {
	.output_poll_changed = drm_fb_helper_output_poll_changed,
};

struct drmtab_lock *drmtab_locks;

MODULE_LICENSE("GPL");
