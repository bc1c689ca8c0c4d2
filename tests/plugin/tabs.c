/* Tabs before a use: GCC counts a tab to the next multiple of 8 in its
 * display columns. With -fdiagnostics-column-unit=byte the warnings count
 * bytes, and the records still hold display columns, what the checker
 * turns into SARIF's UTF-16 columns (and what -fdiagnostics-column-unit
 * and -fdiagnostics-column-origin leave alone). */
/* cflags: -fdiagnostics-column-unit=byte -fdiagnostics-column-origin=0 */
#include <linux/ksunset-test.h>

unsigned long tabs(const char *buf)
{
		unsigned long v =	simple_strtoul(buf, NULL, 0);

	return v +	 	jiffies;
}

/*
 * expect: 11:20: warning: 'simple_strtoul' is scheduled for removal on 2027-03-01; use 'kstrtoul' instead [-Wdeprecated-declarations]
 * expect: 13:14: warning: 'jiffies' will become GPL-only on 2027-01-01; only modules whose license is not GPL-compatible are concerned; get_jiffies_64() and jiffies_64 [-Wdeprecated-declarations]
 * record: simple_strtoul call tabs.c 11 41 tabs 2027-03-01
 * record: jiffies data tabs.c 13 33 tabs 2027-01-01
 */
