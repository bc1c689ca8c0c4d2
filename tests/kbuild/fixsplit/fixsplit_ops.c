// SPDX-License-Identifier: GPL-2.0
/* A bus whose callbacks are defined in fixsplit_fn.c and declared in
 * fixsplit.h, and one whose match is declared static before its table
 * and defined after it. */
#include <linux/module.h>
#include "fixsplit.h"

static int fixsplit_match2(struct device *dev, struct device_driver *drv);

static struct bus_type fixsplit_bus = {
	.name = "fixsplit",
	.match = fixsplit_match,
	.uevent = fixsplit_uevent,
};

static struct bus_type fixsplit_bus2 = {
	.name = "fixsplit2",
	.match = fixsplit_match2,
};

static int fixsplit_match2(struct device *dev, struct device_driver *drv)
{
	return !dev || !drv;
}

static int __init fixsplit_init(void)
{
	int r = bus_register(&fixsplit_bus);

	if (r)
		return r;
	r = bus_register(&fixsplit_bus2);
	if (r)
		bus_unregister(&fixsplit_bus);
	return r;
}
module_init(fixsplit_init);

static void __exit fixsplit_exit(void)
{
	bus_unregister(&fixsplit_bus2);
	bus_unregister(&fixsplit_bus);
}
module_exit(fixsplit_exit);
MODULE_LICENSE("GPL");
