/* Reads and writes of an exported data symbol, its address, and a read
 * through a kernel macro. */
#include <linux/ksunset-test.h>

unsigned long elapsed(unsigned long start)
{
	return jiffies - start;
}

void poke(void)
{
	jiffies = 0;
}

volatile unsigned long *where(void)
{
	return &jiffies;
}

int expired(unsigned long t)
{
	return (long)(time_now() - t) > 0;
}

/*
 * expect: 7:16: warning: 'jiffies' will become GPL-only on 2027-01-01; only modules whose license is not GPL-compatible are concerned; get_jiffies_64() and jiffies_64 [-Wdeprecated-declarations]
 * expect: 12:9: warning: 'jiffies' will become GPL-only on 2027-01-01; only modules whose license is not GPL-compatible are concerned; get_jiffies_64() and jiffies_64 [-Wdeprecated-declarations]
 * expect: 17:17: warning: 'jiffies' will become GPL-only on 2027-01-01; only modules whose license is not GPL-compatible are concerned; get_jiffies_64() and jiffies_64 [-Wdeprecated-declarations]
 * expect: 22:34: warning: 'jiffies' will become GPL-only on 2027-01-01; only modules whose license is not GPL-compatible are concerned; get_jiffies_64() and jiffies_64 [-Wdeprecated-declarations]
 * record: jiffies data data.c 7 16 elapsed 2027-01-01
 * record: jiffies data data.c 12 9 poke 2027-01-01
 * record: jiffies data data.c 17 17 where 2027-01-01
 * record: jiffies data data.c 22 34 expired 2027-01-01
 */
