// SPDX-License-Identifier: GPL-2.0
/* Callbacks whose prototypes changed by 6.12, where in-tree callbacks made
 * a parameter const (bus_type's match and uevent) or the return type
 * (hid_driver's report_fixup); two functions in one member (match), each
 * rewritten. */
#include <linux/device.h>
#include <linux/hid.h>
#include <linux/module.h>

static int fixcb_match(struct device *dev, struct device_driver *drv)
{
	return dev && drv;
}

static int fixcb_uevent(struct device *dev, struct kobj_uevent_env *env)
{
	return add_uevent_var(env, "FIXCB=%s", dev_name(dev));
}

static struct bus_type fixcb_bus = {
	.name = "fixcb",
	.match = fixcb_match,
	.uevent = fixcb_uevent,
};

static int fixcb_match2(struct device *dev, struct device_driver *drv)
{
	return !dev || !drv;
}

static struct bus_type fixcb_bus2 = {
	.name = "fixcb2",
	.match = fixcb_match2,
};

static __u8 *fixcb_report_fixup(struct hid_device *hdev, __u8 *rdesc, unsigned int *rsize)
{
	return rdesc;
}

static const struct hid_device_id fixcb_devices[] = {
	{ HID_USB_DEVICE(0x1234, 0x5678) },
	{ }
};

static struct hid_driver fixcb_driver = {
	.name = "fixcb",
	.id_table = fixcb_devices,
	.report_fixup = fixcb_report_fixup,
};

static int __init fixcb_init(void)
{
	int r = bus_register(&fixcb_bus);

	if (r)
		return r;
	r = bus_register(&fixcb_bus2);
	if (!r)
		r = hid_register_driver(&fixcb_driver);
	if (r) {
		bus_unregister(&fixcb_bus2);
		bus_unregister(&fixcb_bus);
	}
	return r;
}
module_init(fixcb_init);

static void __exit fixcb_exit(void)
{
	hid_unregister_driver(&fixcb_driver);
	bus_unregister(&fixcb_bus2);
	bus_unregister(&fixcb_bus);
}
module_exit(fixcb_exit);
MODULE_LICENSE("GPL");
