/* Uses in the module's own code that the optimiser copies, moves or
 * drops: one warning and one record each, where it is written, in the
 * function that writes it. */
#include <linux/ksunset-test.h>

typedef int (*open_fn)(struct inode *, struct file *);

/* a static function inlined into two callers */
static unsigned long parse(const char *s)
{
	return simple_strtoul(s, NULL, 0);
}

unsigned long one(const char *s) { return parse(s); }
unsigned long two(const char *s) { return parse(s) + 1; }

/* an address taken inside a small inline function */
static inline open_fn opener(void)
{
	return nonseekable_open;
}

open_fn get1(void) { return opener(); }
open_fn get2(int i) { return i ? opener() : 0; }

/* __init and __exit code */
static int __init mod_init(void)
{
	return simple_strtoul("1", NULL, 0);
}

static void __exit mod_exit(void)
{
	unregister_chrdev(0, "x");
}

int (*const init_p)(void) = mod_init;
void (*const exit_p)(void) = mod_exit;

/* a designated initializer spanning lines */
static const struct file_operations fops = {
	.llseek
		= noop_llseek,
	.open =

		nonseekable_open,
};

const struct file_operations *get_fops(void) { return &fops; }

/* code under a constant condition, which the compiler drops: warned, and
 * recorded where the object imports the symbol all the same */
unsigned long dead(const char *s)
{
	if (0)
		return simple_strtoul(s, NULL, 1);
	if (sizeof(long) == 3)
		return legacy_printk("never\n");
	return 0;
}

/*
 * expect: 11:16: warning: 'simple_strtoul' is scheduled for removal on 2027-03-01; use 'kstrtoul' instead [-Wdeprecated-declarations]
 * expect: 20:16: warning: 'nonseekable_open' will move to namespace VFS_LEGACY in Linux 6.20; add MODULE_IMPORT_NS(VFS_LEGACY) [-Wdeprecated-declarations]
 * expect: 29:16: warning: 'simple_strtoul' is scheduled for removal on 2027-03-01; use 'kstrtoul' instead [-Wdeprecated-declarations]
 * expect: 34:9: warning: '__unregister_chrdev' is scheduled for removal on 2027-03-01; use 'misc_register' instead [-Wdeprecated-declarations]
 * expect: 34:9: note: the source writes 'unregister_chrdev', which the kernel's headers make a call of '__unregister_chrdev': a rebuild against headers that no longer do is enough for this use (ksunset check --target tells)
 * expect: 43:19: warning: 'noop_llseek' was due for removal on 2026-06-01 (overdue by 185 days); use 'no_llseek' instead [-Wdeprecated-declarations]
 * expect: 46:17: warning: 'nonseekable_open' will move to namespace VFS_LEGACY in Linux 6.20; add MODULE_IMPORT_NS(VFS_LEGACY) [-Wdeprecated-declarations]
 * expect: 56:24: warning: 'simple_strtoul' is scheduled for removal on 2027-03-01; use 'kstrtoul' instead [-Wdeprecated-declarations]
 * expect: 58:24: warning: 'legacy_printk' is scheduled for removal on 2027-06-01 [-Wdeprecated-declarations]
 * record: simple_strtoul call inlined.c 11 16 parse 2027-03-01
 * record: nonseekable_open addr inlined.c 20 16 opener 6.20
 * record: simple_strtoul call inlined.c 29 16 mod_init 2027-03-01
 * record: __unregister_chrdev call inlined.c 34 9 mod_exit 2027-03-01
 * record: noop_llseek addr inlined.c 43 19 - 2026-06-01
 * record: nonseekable_open addr inlined.c 46 17 - 6.20
 * record: simple_strtoul call inlined.c 56 24 dead 2027-03-01
 */
