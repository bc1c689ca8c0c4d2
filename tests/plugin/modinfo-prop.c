/* A unit whose MODULE_LICENSE is not GPL-compatible is told so in the
 * checker's words; MODULE_IMPORT_NS("NS") in the string form of 6.13 and
 * later spares namespace NS entries all the same. */
#include <linux/ksunset-test.h>

#define MODULE_INFO(tag, info)                                                   \
	static const char __UNIQUE_ID_##tag[] __attribute__((used, section(".modinfo"), \
							      aligned(1))) = #tag "=" info
#define MODULE_LICENSE(l) MODULE_INFO(license, l)
#define MODULE_IMPORT_NS(ns) MODULE_INFO(import_ns, ns)

MODULE_LICENSE("Proprietary");
MODULE_IMPORT_NS("VFS_LEGACY");

unsigned long ticks(void)
{
	return jiffies;
}

int opener(struct inode *i, struct file *f)
{
	return nonseekable_open(i, f);
}

/*
 * expect: 17:16: warning: 'jiffies' will become GPL-only on 2027-01-01; module license 'Proprietary' is not GPL-compatible; get_jiffies_64() and jiffies_64 [-Wdeprecated-declarations]
 * record: jiffies data modinfo-prop.c 17 16 ticks 2027-01-01
 * record: nonseekable_open call modinfo-prop.c 22 16 opener 6.20
 */
