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

/* defined in two branches of an #if, with other parameters in the one this
 * build does not compile (an older kernel's): the head rewritten is the
 * compiled one's */
#if 0
static int fixcb_uevent2(struct device *dev, char **envp, int num_envp, char *buf, int size)
{
	return num_envp;
}
#else
static int fixcb_uevent2(struct device *dev, struct kobj_uevent_env *env)
{
	return add_uevent_var(env, "FIXCB2=%s", dev_name(dev));
}
#endif

static struct bus_type fixcb_bus2 = {
	.name = "fixcb2",
	.match = fixcb_match2,
	.uevent = fixcb_uevent2,
};

/* one head per branch of an #if, one body: the compiled head rewritten */
#if 0
static char *fixcb_devnode(struct device *dev, mode_t *mode)
#else
static char *fixcb_devnode(struct device *dev, umode_t *mode)
#endif
{
	return NULL;
}

static struct class fixcb_class = {
	.name = "fixcb",
	.devnode = fixcb_devnode,
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
	if (r)
		goto bus;
	r = class_register(&fixcb_class);
	if (r)
		goto bus2;
	r = hid_register_driver(&fixcb_driver);
	if (!r)
		return 0;
	class_unregister(&fixcb_class);
bus2:
	bus_unregister(&fixcb_bus2);
bus:
	bus_unregister(&fixcb_bus);
	return r;
}
module_init(fixcb_init);

static void __exit fixcb_exit(void)
{
	hid_unregister_driver(&fixcb_driver);
	class_unregister(&fixcb_class);
	bus_unregister(&fixcb_bus2);
	bus_unregister(&fixcb_bus);
}
module_exit(fixcb_exit);
MODULE_LICENSE("GPL");
