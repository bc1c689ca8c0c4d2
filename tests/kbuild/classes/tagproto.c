// SPDX-License-Identifier: GPL-2.0
/* forecast: break not-included struct i2c_msg tagproto.c:9
 * forecast: outlook tagproto.ko loads-but-rebuild-fails
 */
#include "tagproto.h"
#include <linux/i2c.h>
#include <linux/module.h>

bool tagproto_notify(struct i2c_msg *msg)
{
	return msg->len > 0;
}
EXPORT_SYMBOL_GPL(tagproto_notify);

MODULE_LICENSE("GPL");
