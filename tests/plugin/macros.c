/* Uses through macros next to direct calls of the same symbol, in one
 * function, on one line and on nearby lines: each use is its own warning
 * and record, at the macro's name where a macro's body names the symbol,
 * at the symbol's own name where the source writes it (also as a macro's
 * argument, also a variable's); a fix-it only there. */
/* cflags: -fdiagnostics-parseable-fixits */
#include <linux/ksunset-test.h>

#define PARSE(x) simple_strtoul((x), NULL, 10)
#define PARSE16(x) PARSE(x) + simple_strtoul((x), NULL, 16)
#define CALL(f, x) f((x), NULL, 0)
#define REGISTER(n) register_chrdev(0, (n))
#define TWICE(e) ((e) + (e))

unsigned long only_macro(const char *buf)
{
	return PARSE(buf);
}
unsigned long only_direct(const char *buf) { return simple_strtoul(buf, NULL, 10); }

unsigned long both(const char *buf)
{
	unsigned long a = PARSE(buf);

	return a + PARSE(buf) + simple_strtoul(buf, NULL, 8);
}

unsigned long nested(const char *buf)
{
	return PARSE16(buf) + TWICE(PARSE(buf));
}

unsigned long argument(const char *buf)
{
	return CALL(simple_strtoul, buf) + TWICE(simple_strtoul(buf, NULL, 2));
}

int wrapper(void)
{
	return REGISTER("a") + TWICE(register_chrdev(1, "b"));
}

/* a variable is no token of its own: its name among a macro's arguments */
int data(unsigned long t)
{
	return time_after(jiffies, t) || time_after(t, /* jiffies */ time_now());
}

/*
 * expect: 17:16: warning: 'simple_strtoul' is scheduled for removal on 2027-03-01; use 'kstrtoul' instead [-Wdeprecated-declarations]
 * expect: 19:53: warning: 'simple_strtoul' is scheduled for removal on 2027-03-01; use 'kstrtoul' instead [-Wdeprecated-declarations]
 * expect: fix-it:"macros.c":{19:53-19:67}:"kstrtoul"
 * expect: 23:27: warning: 'simple_strtoul' is scheduled for removal on 2027-03-01; use 'kstrtoul' instead [-Wdeprecated-declarations]
 * expect: 25:20: warning: 'simple_strtoul' is scheduled for removal on 2027-03-01; use 'kstrtoul' instead [-Wdeprecated-declarations]
 * expect: 25:33: warning: 'simple_strtoul' is scheduled for removal on 2027-03-01; use 'kstrtoul' instead [-Wdeprecated-declarations]
 * expect: fix-it:"macros.c":{25:26-25:40}:"kstrtoul"
 * expect: 30:16: warning: 'simple_strtoul' is scheduled for removal on 2027-03-01; use 'kstrtoul' instead [-Wdeprecated-declarations]
 * expect: 30:37: warning: 'simple_strtoul' is scheduled for removal on 2027-03-01; use 'kstrtoul' instead [-Wdeprecated-declarations]
 * expect: 35:21: warning: 'simple_strtoul' is scheduled for removal on 2027-03-01; use 'kstrtoul' instead [-Wdeprecated-declarations]
 * expect: fix-it:"macros.c":{35:14-35:28}:"kstrtoul"
 * expect: 35:50: warning: 'simple_strtoul' is scheduled for removal on 2027-03-01; use 'kstrtoul' instead [-Wdeprecated-declarations]
 * expect: fix-it:"macros.c":{35:43-35:57}:"kstrtoul"
 * expect: 40:16: warning: '__register_chrdev' is scheduled for removal on 2027-03-01; use 'misc_register' instead [-Wdeprecated-declarations]
 * expect: 40:38: warning: '__register_chrdev' is scheduled for removal on 2027-03-01; use 'misc_register' instead [-Wdeprecated-declarations]
 * expect: 40:38: note: the source writes 'register_chrdev', which the kernel's headers make a call of '__register_chrdev': a rebuild against headers that no longer do is enough for this use (ksunset check --target tells)
 * expect: 46:27: warning: 'jiffies' will become GPL-only on 2027-01-01; only modules whose license is not GPL-compatible are concerned; get_jiffies_64() and jiffies_64 [-Wdeprecated-declarations]
 * expect: 46:42: warning: 'jiffies' will become GPL-only on 2027-01-01; only modules whose license is not GPL-compatible are concerned; get_jiffies_64() and jiffies_64 [-Wdeprecated-declarations]
 * expect: 46:42: note: the source writes 'time_after', which the kernel's headers make a call of 'jiffies': a rebuild against headers that no longer do is enough for this use (ksunset check --target tells)
 * record: simple_strtoul call macros.c 17 16 only_macro 2027-03-01
 * record: simple_strtoul call macros.c 19 53 only_direct 2027-03-01
 * record: simple_strtoul call macros.c 23 27 both 2027-03-01
 * record: simple_strtoul call macros.c 25 20 both 2027-03-01
 * record: simple_strtoul call macros.c 25 33 both 2027-03-01
 * record: simple_strtoul call macros.c 30 16 nested 2027-03-01
 * record: simple_strtoul call macros.c 30 37 nested 2027-03-01
 * record: simple_strtoul call macros.c 35 21 argument 2027-03-01
 * record: simple_strtoul call macros.c 35 50 argument 2027-03-01
 * record: __register_chrdev call macros.c 40 16 wrapper 2027-03-01
 * record: __register_chrdev call macros.c 40 38 wrapper 2027-03-01
 * record: jiffies data macros.c 46 27 data 2027-01-01
 * record: jiffies data macros.c 46 42 data 2027-01-01
 */
