/* The lint rules, one case per row of the table (and the cases where a row
 * must stay quiet): a schedule, what is known about the kernel and the
 * modules, and every message expected. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "rules/lintrules.h"
#include "suites.h"

static const char *symvers_text = "0x1\tplain\tvmlinux\tEXPORT_SYMBOL\t\n"
				  "0x1\tgpl\tvmlinux\tEXPORT_SYMBOL_GPL\t\n"
				  "0x1\tin_rtc\tvmlinux\tEXPORT_SYMBOL\tRTC\n";

#define WW "\nWhy: w\nWho: w\n"

static const struct {
	const char *sched;
	bool symvers;		/* lint with the symvers above */
	const char *used;	/* --modules: the symbols with users ("" none); NULL: no --modules */
	const char *want;	/* messages, one a line */
} cases[] = {
	/* a clean entry says nothing, with or without the kernel's exports */
	{ "What: plain\nWhen: 2027-01-01" WW, true, NULL, "" },
	{ "What: plain\nWhen: 2027-01-01" WW, false, NULL, "" },
	{ "What: plain\nWhen: 2027-01-01\n", false, NULL,
	  "s:1: warning: entry for 'plain' has no Why: say why it goes\n"
	  "s:1: warning: entry for 'plain' has no Who: name someone to ask\n" },
	{ "What: plain, typo_sym\nWhen: 2027-01-01" WW, true, NULL,
	  "s:1: error: 'typo_sym' is not exported by the kernel (not in Module.symvers): a typo, "
	  "or already removed\n" },
	/* Since after a dated When; the same day, a release or free text is fine */
	{ "What: plain\nWhen: 2027-01-01\nSince: 2027-02" WW, false, NULL,
	  "s:1: error: Since 2027-02 is after When 2027-01-01: the entry was overdue from the "
	  "start\n" },
	{ "What: plain\nWhen: 2027-01\nSince: 2027-01-01" WW, false, NULL, "" },
	{ "What: plain\nWhen: 6.1\nSince: 2027-02-01" WW, false, NULL, "" },
	{ "What: plain\nWhen: 2027-01-01\nSince: the 6.14 cycle" WW, false, NULL, "" },
	/* without -i nothing can be said about exports */
	{ "What: typo_sym\nWhen: 2020-01-01" WW, false, NULL, "" },
	{ "What: plain\nWhen: 2026-06-01" WW, true, NULL,
	  "s:1: error: 'plain' was due for removal on 2026-06-01 (overdue by 185 days) but is "
	  "still exported: finish the job\n" },
	{ "What: plain\nWhen: 2026-12-03\nAction: gpl-only" WW, true, NULL,
	  "s:1: error: 'plain' was due to become GPL-only on 2026-12-03 (today) but is still "
	  "EXPORT_SYMBOL: finish the job\n" },
	{ "What: plain\nWhen: 2026-06-01\nAction: namespace RTC" WW, true, NULL,
	  "s:1: error: 'plain' was due to move to namespace RTC on 2026-06-01 (overdue by 185 "
	  "days) but is still outside its namespace: finish the job\n" },
	/* a release date is not due without a target release */
	{ "What: plain\nWhen: 6.1" WW, true, NULL, "" },
	{ "What: gpl\nWhen: 2027-01-01\nAction: gpl-only" WW, true, NULL,
	  "s:1: warning: 'gpl' is already EXPORT_SYMBOL_GPL: the gpl-only entry has nothing left "
	  "to do\n" },
	/* done and overdue: the warning, not "finish the job" */
	{ "What: in_rtc\nWhen: 2020-01-01\nAction: namespace RTC" WW, true, NULL,
	  "s:1: warning: 'in_rtc' is already in namespace RTC: the entry has nothing left to do\n" },
	{ "What: in_rtc\nWhen: 2028-01-01\nAction: namespace USB" WW, true, NULL, "" },
	{ "What: plain, gpl\nWhen: 2028-01-01" WW, true, "gpl",
	  "s:1: note: 'plain' has no remaining user among 3 modules: ready to unexport now\n" },
	{ "What: plain\nWhen: 2028-01-01\nAction: gpl-only" WW, false, "",
	  "s:1: note: 'plain' has no remaining user among 3 modules: ready to make GPL-only now\n" },
	/* not exported: the error, not "ready" */
	{ "What: typo_sym\nWhen: 2028-01-01" WW, true, "",
	  "s:1: error: 'typo_sym' is not exported by the kernel (not in Module.symvers): a typo, "
	  "or already removed\n" },
};

static void lint_case(int i, struct ks_buf *got)
{
	struct ks_schedule s = KS_SCHEDULE_INIT;
	struct ks_symvers sv = { 0 };
	struct ks_strmap users = { 0 };
	struct ks_diags d = { 0 };
	char *svtext = strdup(symvers_text), *used = cases[i].used ? strdup(cases[i].used) : NULL;
	struct ks_lint l = { .symvers = cases[i].symvers ? &sv : NULL, .modules = 3,
			     .users = used ? &users : NULL };
	void **slot;

	ck_assert_int_eq(ks_date_parse("2026-12-03", &l.today), 0);
	ck_assert_int_eq(ks_symvers_parse(&sv, "sv", svtext, strlen(svtext), &d), 0);
	ck_assert_int_eq(ks_schedule_parse(&s, "s", cases[i].sched, strlen(cases[i].sched), &d), 0);
	for (char *t = used ? strtok(used, " ") : NULL; t; t = strtok(NULL, " ")) {
		ks_strmap_put(&users, t, &slot);
		*slot = (void *)(uintptr_t)1;
	}
	for (size_t k = 0; k < s.n; k++)
		ks_lint_entry(&l, s.entries[k], &d);
	ks_buf_adds(got, "");
	for (size_t k = 0; k < d.n; k++) {
		char *m = ks_diag_format(&d.v[k]);

		ks_buf_addf(got, "%s\n", m);
		free(m);
	}
	ks_diags_free(&d);
	ks_strmap_free(&users);
	ks_schedule_free(&s);
	ks_symvers_free(&sv);
	free(svtext);
	free(used);
}

START_TEST(test_rules)
{
	struct ks_buf got = KS_BUF_INIT;

	lint_case(_i, &got);
	ck_assert_msg(strcmp(got.p, cases[_i].want) == 0, "schedule:\n%s\ngot:\n%s\nwant:\n%s",
		      cases[_i].sched, got.p, cases[_i].want);
	ks_buf_free(&got);
}
END_TEST

static Suite *suite_lintrules(void)
{
	Suite *s = suite_create("lintrules");
	TCase *tc = tcase_create("rules");

	tcase_add_loop_test(tc, test_rules, 0, KS_NCASES(cases));
	suite_add_tcase(s, tc);
	return s;
}
KS_SUITE(suite_lintrules)
