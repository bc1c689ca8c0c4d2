// SPDX-License-Identifier: GPL-2.0
/* The size of a kernel struct taken, a value C folds as it parses (evdi's
 * kzalloc(sizeof(struct drm_encoder))): complete with 6.1's
 * drm_crtc_helper.h, incomplete with 6.12's, which no longer brings
 * drm_encoder.h.
 * forecast: break incomplete struct drm_encoder sizeof.c:17
 * forecast: outlook sizeof.ko needs-source-changes
 */
#include <drm/drm_crtc.h>
#include <drm/drm_crtc_helper.h>
#include <linux/module.h>
#include <linux/slab.h>

void *sizeof_new(void);
void *sizeof_new(void)
{
	return kzalloc(sizeof(struct drm_encoder), GFP_KERNEL);
}
EXPORT_SYMBOL_GPL(sizeof_new);

MODULE_LICENSE("GPL");
