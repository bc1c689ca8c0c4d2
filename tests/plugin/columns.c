/* Columns: the caret is on a token GCC's locations give, never on a
 * comment or a string that names the symbol on the same line; a fix-it
 * only where that token is the scheduled symbol itself (the module's call
 * of the wrapper register_chrdev() is no place to write misc_register). */
/* cflags: -fdiagnostics-parseable-fixits */
#include <linux/ksunset-test.h>

extern unsigned long log_val(const char *what, unsigned long v);
extern void set_open(int (*open)(struct inode *, struct file *));

int commented(void)
{
	return register_chrdev(0, "x"); /* calls __register_chrdev */
}

unsigned long strings(const char *buf)
{
	return log_val("jiffies", jiffies) + log_val("simple_strtoul", simple_strtoul(buf, NULL, 0));
}

unsigned long comment_first(const char *buf)
{
	set_open(/* nonseekable_open */ nonseekable_open);
	return /* not simple_strtoul(buf) */ simple_strtoul(buf, NULL, 0);
}

unsigned long split(unsigned long v)
{
	return v + log_val("noop_llseek",
			   (unsigned long)&noop_llseek) + /* jiffies */ v *
		jiffies;
}

/* a declaration's statement has the location of the declared name only */
unsigned long decl_init(void)
{
	unsigned long local_jiffies = jiffies, other = /* jiffies */ 1 + jiffies;

	return local_jiffies + other;
}

/*
 * expect: 13:16: warning: '__register_chrdev' is scheduled for removal on 2027-03-01; use 'misc_register' instead [-Wdeprecated-declarations]
 * expect: 13:16: note: the source writes 'register_chrdev', which the kernel's headers make a call of '__register_chrdev': a rebuild against headers that no longer do is enough for this use (ksunset check --target tells)
 * expect: 18:35: warning: 'jiffies' will become GPL-only on 2027-01-01; only modules whose license is not GPL-compatible are concerned; get_jiffies_64() and jiffies_64 [-Wdeprecated-declarations]
 * expect: 18:72: warning: 'simple_strtoul' is scheduled for removal on 2027-03-01; use 'kstrtoul' instead [-Wdeprecated-declarations]
 * expect: fix-it:"columns.c":{18:65-18:79}:"kstrtoul"
 * expect: 23:41: warning: 'nonseekable_open' will move to namespace VFS_LEGACY in Linux 6.20; add MODULE_IMPORT_NS(VFS_LEGACY) [-Wdeprecated-declarations]
 * expect: 24:46: warning: 'simple_strtoul' is scheduled for removal on 2027-03-01; use 'kstrtoul' instead [-Wdeprecated-declarations]
 * expect: fix-it:"columns.c":{24:39-24:53}:"kstrtoul"
 * expect: 30:44: warning: 'noop_llseek' was due for removal on 2026-06-01 (overdue by 185 days); use 'no_llseek' instead [-Wdeprecated-declarations]
 * expect: fix-it:"columns.c":{30:23-30:34}:"no_llseek"
 * expect: 31:17: warning: 'jiffies' will become GPL-only on 2027-01-01; only modules whose license is not GPL-compatible are concerned; get_jiffies_64() and jiffies_64 [-Wdeprecated-declarations]
 * expect: 37:39: warning: 'jiffies' will become GPL-only on 2027-01-01; only modules whose license is not GPL-compatible are concerned; get_jiffies_64() and jiffies_64 [-Wdeprecated-declarations]
 * expect: 37:74: warning: 'jiffies' will become GPL-only on 2027-01-01; only modules whose license is not GPL-compatible are concerned; get_jiffies_64() and jiffies_64 [-Wdeprecated-declarations]
 * record: __register_chrdev call columns.c 13 16 commented 2027-03-01
 * record: jiffies data columns.c 18 35 strings 2027-01-01
 * record: simple_strtoul call columns.c 18 72 strings 2027-03-01
 * record: nonseekable_open addr columns.c 23 41 comment_first 6.20
 * record: simple_strtoul call columns.c 24 46 comment_first 2027-03-01
 * record: noop_llseek addr columns.c 30 44 split 2026-06-01
 * record: jiffies data columns.c 31 17 split 2027-01-01
 * record: jiffies data columns.c 37 39 decl_init 2027-01-01
 * record: jiffies data columns.c 37 74 decl_init 2027-01-01
 */
