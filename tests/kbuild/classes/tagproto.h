/* SPDX-License-Identifier: GPL-2.0 */
/* A prototype of the module's own that names a kernel struct by its tag
 * (evdi's evdi_painter_i2c_data_notify()): 6.1's <drm/drm_crtc_helper.h>
 * declares struct i2c_msg, 6.12's does not, and <linux/i2c.h> comes only
 * after this header: there the parameter is a struct of the prototype's
 * own, which the definition's then conflicts with. */
#ifndef TAGPROTO_H
#define TAGPROTO_H
#include <linux/types.h>
#include <drm/drm_crtc_helper.h>

bool tagproto_notify(struct i2c_msg *msg);
#endif
