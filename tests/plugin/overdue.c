/* Past deadlines: each action in the past tense, the days overdue in the
 * singular and the plural, and what to do still said after them. */
extern int due_yesterday(void);
extern int gpl_overdue(int);
extern int ns_overdue(int);

int use_overdue(int x)
{
	return due_yesterday() + gpl_overdue(x) + ns_overdue(x);
}

/*
 * expect: 9:16: warning: 'due_yesterday' was due for removal on 2026-12-02 (overdue by 1 day) [-Wdeprecated-declarations]
 * expect: 9:34: warning: 'gpl_overdue' was due to become GPL-only on 2026-06-01 (overdue by 185 days); only modules whose license is not GPL-compatible are concerned; use 'gpl_overdue_helper' instead [-Wdeprecated-declarations]
 * expect: 9:51: warning: 'ns_overdue' was due to move to namespace OLD_NS on 2026-11-03 (overdue by 30 days); add MODULE_IMPORT_NS(OLD_NS) [-Wdeprecated-declarations]
 * expect: 9:51: note: Test entry: the past tense of a namespace move.
 * record: due_yesterday call overdue.c 9 16 use_overdue 2026-12-02
 * record: gpl_overdue call overdue.c 9 34 use_overdue 2026-06-01
 * record: ns_overdue call overdue.c 9 51 use_overdue 2026-11-03
 */
