// SPDX-License-Identifier: GPL-2.0
/* Whether a HID device is on USB, asked as drivers did before
 * hid_is_usb() came; and a buffer got as filesystems did before
 * __getblk_gfp() went. */
#include <linux/buffer_head.h>
#include <linux/module.h>
#include <linux/hid.h>

bool fixwrap_on_usb(struct hid_device *hdev)
{
	return hdev && hid_is_using_ll_driver(hdev, &usb_hid_driver);
}
EXPORT_SYMBOL_GPL(fixwrap_on_usb);

struct buffer_head *fixwrap_getblk(struct block_device *bdev, sector_t block, unsigned int size)
{
	return __getblk_gfp(bdev, block, size, __GFP_MOVABLE);
}
EXPORT_SYMBOL_GPL(fixwrap_getblk);

MODULE_LICENSE("GPL");
