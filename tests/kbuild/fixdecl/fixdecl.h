/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FIXDECL_H
#define FIXDECL_H

#include <drm/drm_crtc_helper.h>

int fixdecl_notify(struct i2c_msg *msg);

#endif
