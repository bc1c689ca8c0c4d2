// SPDX-License-Identifier: GPL-2.0
/* Kernel objects the module defines with the kernel's macros and uses
 * through its accessors: the members those macros initialize are the
 * kernel's business (6.12 changed struct ratelimit_state's), not lines of
 * the module's to change.
 * forecast: compiles locks.c:17
 * forecast: compiles locks.c:18
 * forecast: compiles locks.c:19
 * forecast: compiles locks.c:20
 * forecast: outlook locks.ko builds-and-loads
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/ratelimit.h>
#include <linux/spinlock.h>

static DEFINE_SPINLOCK(locks_lock);
static DEFINE_MUTEX(locks_mutex);
static DEFINE_RATELIMIT_STATE(locks_rs, 5 * HZ, 10);
static DECLARE_COMPLETION(locks_done);

static int __init locks_init(void)
{
	spin_lock(&locks_lock);
	spin_unlock(&locks_lock);
	mutex_lock(&locks_mutex);
	mutex_unlock(&locks_mutex);
	if (__ratelimit(&locks_rs))
		complete(&locks_done);
	return 0;
}

module_init(locks_init);
MODULE_LICENSE("GPL");
