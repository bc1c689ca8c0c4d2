/* A unit whose MODULE_LICENSE is GPL-compatible is not warned of gpl-only
 * entries, nor one with MODULE_IMPORT_NS(NS) of namespace NS entries (the
 * identifier form before 6.13; the string form, modinfo-prop.c). The uses
 * are still recorded: the checker judges them by the module's .modinfo. */
#include <linux/ksunset-test.h>

#define __stringify_1(x) #x
#define __stringify(x) __stringify_1(x)
#define MODULE_INFO(tag, info)                                                   \
	static const char __UNIQUE_ID_##tag[] __attribute__((used, section(".modinfo"), \
							      aligned(1))) = #tag "=" info
#define MODULE_LICENSE(l) MODULE_INFO(license, l)
#define MODULE_IMPORT_NS(ns) MODULE_INFO(import_ns, __stringify(ns))

MODULE_LICENSE("GPL v2");
MODULE_IMPORT_NS(VFS_LEGACY);

unsigned long ticks(void)
{
	return jiffies;
}

int opener(struct inode *i, struct file *f)
{
	return nonseekable_open(i, f);
}

int clock_now(const struct timespec64 *ts)
{
	return do_settimeofday64(ts);
}

/*
 * expect: 30:16: warning: 'do_settimeofday64' is scheduled for removal on 2027-09-01; use 'rtc_set_time' instead [-Wdeprecated-declarations]
 * expect: 30:16: note: No in-tree modular user.
 * record: jiffies data modinfo.c 20 16 ticks 2027-01-01
 * record: nonseekable_open call modinfo.c 25 16 opener 6.20
 * record: do_settimeofday64 call modinfo.c 30 16 clock_now 2027-09-01
 */
