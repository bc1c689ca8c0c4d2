// SPDX-License-Identifier: GPL-2.0
#include <linux/jiffies.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include "du.h"

static struct timer_list du_timer;
static struct work_struct du_work;

static void du_work_fn(struct work_struct *w)
{
	du_list_add(2);
}

static void du_tick(struct timer_list *t)
{
	schedule_work(&du_work);
	mod_timer(&du_timer, jiffies + msecs_to_jiffies(1000));
}

void du_timer_start(void)
{
	INIT_WORK(&du_work, du_work_fn);
	timer_setup(&du_timer, du_tick, 0);
	mod_timer(&du_timer, jiffies + HZ);
}

void du_timer_stop(void)
{
	del_timer_sync(&du_timer);
	cancel_work_sync(&du_work);
}
