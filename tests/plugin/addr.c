/* Addresses taken: in static initializers (each at its own element), in
 * static data the optimiser drops, in a function's local static, passed as
 * an argument, returned from a static function that gets inlined. */
#include <linux/ksunset-test.h>

extern void register_fops(const struct file_operations *fops);
extern void set_open(int (*open)(struct inode *, struct file *));

static const struct file_operations used_fops = {
	.llseek = noop_llseek,
	.open = nonseekable_open,
};

/* never referenced: gone from the object, still a use in the source */
static const struct file_operations dropped_fops = {
	.llseek =
		noop_llseek,
};

static void *pick(int i)
{
	return i ? (void *)nonseekable_open : (void *)0;
}

void init(void)
{
	static const struct file_operations local_fops = { .open = nonseekable_open };

	register_fops(&used_fops);
	register_fops(&local_fops);
	set_open(nonseekable_open);
}

void *caller(int i)
{
	return pick(i);
}

/*
 * expect: 15:37: warning: 'dropped_fops' defined but not used [-Wunused-const-variable=]
 * expect: 10:19: warning: 'noop_llseek' was due for removal on 2026-06-01 (overdue by 185 days); use 'no_llseek' instead [-Wdeprecated-declarations]
 * expect: 11:17: warning: 'nonseekable_open' will move to namespace VFS_LEGACY in Linux 6.20; add MODULE_IMPORT_NS(VFS_LEGACY) [-Wdeprecated-declarations]
 * expect: 17:17: warning: 'noop_llseek' was due for removal on 2026-06-01 (overdue by 185 days); use 'no_llseek' instead [-Wdeprecated-declarations]
 * expect: 22:28: warning: 'nonseekable_open' will move to namespace VFS_LEGACY in Linux 6.20; add MODULE_IMPORT_NS(VFS_LEGACY) [-Wdeprecated-declarations]
 * expect: 27:68: warning: 'nonseekable_open' will move to namespace VFS_LEGACY in Linux 6.20; add MODULE_IMPORT_NS(VFS_LEGACY) [-Wdeprecated-declarations]
 * expect: 31:18: warning: 'nonseekable_open' will move to namespace VFS_LEGACY in Linux 6.20; add MODULE_IMPORT_NS(VFS_LEGACY) [-Wdeprecated-declarations]
 * record: noop_llseek addr addr.c 10 19 - 2026-06-01
 * record: nonseekable_open addr addr.c 11 17 - 6.20
 * record: noop_llseek addr addr.c 17 17 - 2026-06-01
 * record: nonseekable_open addr addr.c 22 28 pick 6.20
 * record: nonseekable_open addr addr.c 27 68 init 6.20
 * record: nonseekable_open addr addr.c 31 18 init 6.20
 */
