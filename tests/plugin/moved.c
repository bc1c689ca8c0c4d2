/* Uses the optimiser moves out of the kernel-header function that wrote
 * them: zone_tmpl() returns &legacy_zone_dflt; once it and zone_id() are
 * inlined, the address is a PHI argument with no location, and on the
 * path where tmpl is NULL (threaded for the test below) the reads of
 * legacy_zone_dflt's members sit in zone_id()'s code. Each is reported at
 * the call of the function that reaches the symbol. */
#include <linux/ksunset-test.h>

extern int hash(int id, const struct legacy_zone *zone);
extern int counter;

int lookup(const struct legacy_zone *tmpl)
{
	const struct legacy_zone *zone;
	int id;

	zone = zone_tmpl(tmpl);

	id = zone_id(zone, 1);
	if (!tmpl)
		counter++;
	return hash(id, zone);
}

/*
 * expect: 17:16: warning: 'legacy_zone_dflt' is scheduled for removal on 2027-06-01 [-Wdeprecated-declarations]
 * expect: 17:16: note: the source writes 'zone_tmpl', which the kernel's headers make a call of 'legacy_zone_dflt': a rebuild against headers that no longer do is enough for this use (ksunset check --target tells)
 * record: legacy_zone_dflt data moved.c 17 16 lookup 2027-06-01
 */
