// SPDX-License-Identifier: GPL-2.0
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include "du.h"

struct du_item {
	struct list_head node;
	int v;
};

static LIST_HEAD(du_items);
static DEFINE_MUTEX(du_lock);

void du_list_add(int v)
{
	struct du_item *it = kzalloc(sizeof(*it), GFP_KERNEL);

	if (!it)
		return;
	it->v = v;
	mutex_lock(&du_lock);
	list_add_tail(&it->node, &du_items);
	mutex_unlock(&du_lock);
}
