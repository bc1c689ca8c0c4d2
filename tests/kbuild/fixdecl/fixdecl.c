// SPDX-License-Identifier: GPL-2.0
/* The definition of a function whose prototype in fixdecl.h names a
 * struct that header's #includes declare in 6.1 only. */
#include <linux/module.h>
#include "fixdecl.h"

int fixdecl_notify(struct i2c_msg *msg)
{
	return msg->len;
}
EXPORT_SYMBOL_GPL(fixdecl_notify);
MODULE_LICENSE("GPL");
