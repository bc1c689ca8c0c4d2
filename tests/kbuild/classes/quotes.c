// SPDX-License-Identifier: GPL-2.0
/* forecast: outlook quotes.ko builds-and-loads */
#include "quotes_cfg.h"
#include "quotes_api.h"
#include <linux/module.h>

static int __init quotes_init(void)
{
	pr_info("%s\n", QUOTES_GREETING);
	return 0;
}
module_init(quotes_init);

MODULE_LICENSE("GPL");
