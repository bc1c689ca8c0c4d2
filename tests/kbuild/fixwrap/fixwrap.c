// SPDX-License-Identifier: GPL-2.0
/* Whether a HID device is on USB, asked as drivers did before
 * hid_is_usb() came. */
#include <linux/module.h>
#include <linux/hid.h>

bool fixwrap_on_usb(struct hid_device *hdev)
{
	return hdev && hid_is_using_ll_driver(hdev, &usb_hid_driver);
}
EXPORT_SYMBOL_GPL(fixwrap_on_usb);

MODULE_LICENSE("GPL");
