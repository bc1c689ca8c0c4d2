/* A use GCC locates at the punctuation after it: a read of an exported
 * pointer through '->', a call whose result is indexed. */
#include <linux/ksunset-test.h>

int through(int x)
{
	int error;

	error = legacy_adap->algo->xfer(x);
	return error + legacy_adap->nr;
}

int *address(void)
{
	return &legacy_adap->nr;
}

void *indexed(int bar)
{
	return legacy_table(bar)[0];
}

/*
 * expect: 9:17: warning: 'legacy_adap' is scheduled for removal on 2027-06-01 [-Wdeprecated-declarations]
 * expect: 10:24: warning: 'legacy_adap' is scheduled for removal on 2027-06-01 [-Wdeprecated-declarations]
 * expect: 15:17: warning: 'legacy_adap' is scheduled for removal on 2027-06-01 [-Wdeprecated-declarations]
 * expect: 20:16: warning: 'legacy_table' is scheduled for removal on 2027-06-01 [-Wdeprecated-declarations]
 * record: legacy_adap data punct.c 9 17 through 2027-06-01
 * record: legacy_adap data punct.c 10 24 through 2027-06-01
 * record: legacy_adap data punct.c 15 17 address 2027-06-01
 * record: legacy_table call punct.c 20 16 indexed 2027-06-01
 */
