// SPDX-License-Identifier: GPL-2.0
/* Names the unit's headers no longer declare or complete on 6.12, for
 * which no in-tree user added an #include: the target's header that
 * declares or defines each is included (MODULE_ALIAS_GENL_FAMILY, which
 * <net/genetlink.h> declares there; struct circ_buf, which
 * <linux/serial_core.h> no longer brings, and <linux/circ_buf.h>
 * defines: in fixtgt.h, which names it before this file does). */
#include <linux/genetlink.h>
#include <linux/module.h>
#include <linux/serial_core.h>

#include "fixtgt.h"

static char fixtgt_buf[16];
static struct circ_buf fixtgt_ring = { .buf = fixtgt_buf };
static struct fixtgt_state fixtgt_state;

static int __init fixtgt_init(void)
{
	fixtgt_ring.head = 1;
	fixtgt_state.ring.tail = fixtgt_ring.head;
	return fixtgt_ring.tail;
}
module_init(fixtgt_init);

MODULE_LICENSE("GPL");
MODULE_ALIAS_GENL_FAMILY("fixtgt");
