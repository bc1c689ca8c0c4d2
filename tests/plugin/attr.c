/* The sunset attribute: a marked declaration is scheduled with no schedule
 * entry; an entry for the same symbol wins over the mark. */
#include <ksunset/sunset.h>

#ifndef __KSUNSET__
#error "the plugin predefines __KSUNSET__"
#endif

extern int marked_fn(int) __sunset("2027-04-01", "better_fn");
extern int marked_by_release(int) __sunset("6.19", "");
extern int scheduled_and_marked(int) __sunset("2030-01-01", "mark_loses");
extern int marked_data __sunset("2026-11-01", "a sentence, not a symbol");
extern int marked_by_sentence(void) __sunset("2027-04", "no replacement needed");

int use_marked(int x)
{
	return marked_fn(x) + marked_by_release(x) + scheduled_and_marked(x) +
	       marked_data + marked_by_sentence();
}

/*
 * expect: 17:16: warning: 'marked_fn' is scheduled for removal on 2027-04-01; use 'better_fn' instead [-Wdeprecated-declarations]
 * expect: 17:31: warning: 'marked_by_release' is scheduled for removal in Linux 6.19 [-Wdeprecated-declarations]
 * expect: 17:54: warning: 'scheduled_and_marked' is scheduled for removal on 2027-02-01; use 'schedule_wins' instead [-Wdeprecated-declarations]
 * expect: 18:16: warning: 'marked_data' was due for removal on 2026-11-01 (overdue by 32 days); a sentence, not a symbol [-Wdeprecated-declarations]
 * expect: 18:30: warning: 'marked_by_sentence' is scheduled for removal on 2027-04-01; no replacement needed [-Wdeprecated-declarations]
 * record: marked_fn call attr.c 17 16 use_marked 2027-04-01
 * record: marked_by_release call attr.c 17 31 use_marked 6.19
 * record: scheduled_and_marked call attr.c 17 54 use_marked 2027-02-01
 * record: marked_data data attr.c 18 16 use_marked 2026-11-01
 * record: marked_by_sentence call attr.c 18 30 use_marked 2027-04-01
 */
