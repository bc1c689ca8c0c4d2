// SPDX-License-Identifier: GPL-2.0
/* An i2c_driver.probe callback that reads its struct i2c_device_id: 6.12's
 * probe callbacks take the client alone. */
#include <linux/module.h>
#include <linux/i2c.h>

static int fixcblocal_probe(struct i2c_client *client, const struct i2c_device_id *id)
{
	dev_info(&client->dev, "probed as %s\n", id->name);
	return id->driver_data ? 0 : -ENODEV;
}

static const struct i2c_device_id fixcblocal_ids[] = {
	{ "fixcblocal", 1 },
	{ }
};
MODULE_DEVICE_TABLE(i2c, fixcblocal_ids);

static struct i2c_driver fixcblocal_driver = {
	.driver		= { .name = "fixcblocal" },
	.probe		= fixcblocal_probe,
	.id_table	= fixcblocal_ids,
};
module_i2c_driver(fixcblocal_driver);

MODULE_LICENSE("GPL");
