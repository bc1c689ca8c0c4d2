/* The schedule parser: every field, every error message with its line,
 * lookups, merging several files, and the status of a use. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "schedule.h"
#include "suites.h"

/* Parses text as "t.sched"; returns the parser's result. */
static int parse(struct ks_schedule *s, struct ks_diags *d, const char *text)
{
	return ks_schedule_parse(s, "t.sched", text, strlen(text), d);
}

START_TEST(test_full_entry)
{
	struct ks_schedule s = KS_SCHEDULE_INIT;
	struct ks_diags d = { 0 };
	const struct ks_entry *e;
	const char *text = "# a comment\n"
			   "What:    do_settimeofday64, foo bar\n"
			   "When:    2027-09-01\n"
			   "Action:  unexport\n"
			   "Replace: rtc_set_time\n"
			   "Why:     No in-tree modular user.\n"
			   "         Out-of-tree RTC drivers use the rtc class.\n"
			   "Who:     A. Maintainer <maint@example.org>\n"
			   "Since:   2026-09-01\n";

	ck_assert_int_eq(parse(&s, &d, text), 0);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_uint_eq(s.n, 1);
	e = ks_schedule_lookup(&s, "bar");
	ck_assert_ptr_nonnull(e);
	ck_assert_ptr_eq(e, ks_schedule_lookup(&s, "do_settimeofday64"));
	ck_assert_uint_eq(e->nsyms, 3);
	ck_assert_str_eq(e->syms[1], "foo");
	ck_assert_int_eq(e->when.kind, KS_WHEN_DATE);
	ck_assert_str_eq(e->when.text, "2027-09-01");
	ck_assert_int_eq(e->action, KS_ACTION_UNEXPORT);
	ck_assert_str_eq(e->replace, "rtc_set_time");
	ck_assert(e->replace_ident);
	ck_assert_str_eq(e->why, "No in-tree modular user. Out-of-tree RTC drivers use the rtc class.");
	ck_assert_str_eq(e->who, "A. Maintainer <maint@example.org>");
	ck_assert_str_eq(e->since, "2026-09-01");
	ck_assert_uint_eq(e->line, 2);
	ck_assert_ptr_null(ks_schedule_lookup(&s, "do_settimeofday"));
	ks_schedule_free(&s);
	ks_diags_free(&d);
}
END_TEST

static const struct {
	const char *text;
	enum ks_when_kind kind;
	const char *when;
	enum ks_action action;
	const char *ns;
	int ident;
} field_cases[] = {
	{ "What: a\nWhen: 2027-03\n", KS_WHEN_DATE, "2027-03-01", KS_ACTION_UNEXPORT, NULL, 0 },
	{ "What: a\nWhen: v6.14\n", KS_WHEN_RELEASE, "6.14", KS_ACTION_UNEXPORT, NULL, 0 },
	{ "What: a\nWhen: 6.14.2\n", KS_WHEN_RELEASE, "6.14.2", KS_ACTION_UNEXPORT, NULL, 0 },
	{ "what: a\nWHEN: 6.14\naction: gpl-only\n", KS_WHEN_RELEASE, "6.14", KS_ACTION_GPL_ONLY,
	  NULL, 0 },
	{ "What: a\nWhen: 2028-01-01\nAction: namespace  CXL\n", KS_WHEN_DATE, "2028-01-01",
	  KS_ACTION_NAMESPACE, "CXL", 0 },
	{ "What: a\r\nWhen: 2028-01-01\r\nReplace: b_c\r\n", KS_WHEN_DATE, "2028-01-01",
	  KS_ACTION_UNEXPORT, NULL, 1 },
	{ "What: a\nWhen: 2028-01-01\nReplace: use\n the rtc class\n", KS_WHEN_DATE,
	  "2028-01-01", KS_ACTION_UNEXPORT, NULL, 0 },
	{ "\n\n# lead\nWhat:\n\ta\nWhen: 2028-01-01", KS_WHEN_DATE, "2028-01-01",
	  KS_ACTION_UNEXPORT, NULL, 0 },
	/* a UTF-8 byte order mark (editors on Windows write one) is skipped */
	{ "\xEF\xBB\xBFWhat: a\nWhen: 2027-03\n", KS_WHEN_DATE, "2027-03-01",
	  KS_ACTION_UNEXPORT, NULL, 0 },
	{ "\xEF\xBB\xBF\r\nWhat: a\r\nWhen: 6.14\r\n", KS_WHEN_RELEASE, "6.14",
	  KS_ACTION_UNEXPORT, NULL, 0 },
	/* action keywords in any case, as field names; a namespace keeps its own */
	{ "What: a\nWhen: 6.14\nAction: GPL-Only\n", KS_WHEN_RELEASE, "6.14", KS_ACTION_GPL_ONLY,
	  NULL, 0 },
	{ "What: a\nWhen: 6.14\nAction: UNEXPORT\n", KS_WHEN_RELEASE, "6.14", KS_ACTION_UNEXPORT,
	  NULL, 0 },
	{ "What: a\nWhen: 6.14\nAction: Namespace Cxl\n", KS_WHEN_RELEASE, "6.14",
	  KS_ACTION_NAMESPACE, "Cxl", 0 },
};

START_TEST(test_fields)
{
	struct ks_schedule s = KS_SCHEDULE_INIT;
	struct ks_diags d = { 0 };
	const struct ks_entry *e;
	int r = parse(&s, &d, field_cases[_i].text);

	ck_assert_msg(r == 0 && d.n == 0, "case %d: r=%d, first: %s", _i, r,
		      d.n ? d.v[0].msg : "");
	e = ks_schedule_lookup(&s, "a");
	ck_assert_msg(e != NULL, "case %d: 'a' not found", _i);
	ck_assert_int_eq(e->when.kind, field_cases[_i].kind);
	ck_assert_str_eq(e->when.text, field_cases[_i].when);
	ck_assert_int_eq(e->action, field_cases[_i].action);
	ck_assert_pstr_eq(e->ns, field_cases[_i].ns);
	ck_assert_int_eq(e->replace_ident, field_cases[_i].ident);
	ks_schedule_free(&s);
	ks_diags_free(&d);
}
END_TEST

/* Each bad input and the exact first message it must give. */
static const struct {
	const char *text;
	const char *msg;
} error_cases[] = {
	{ "What: a\nWhen: 2027-01-01\nColour: red\n", "t.sched:3: error: unknown field 'Colour'" },
	{ "When: 2027-01-01\nWhy: x\n", "t.sched:1: error: entry has no What field" },
	{ "\n\nWhat: a\nWhy: x\n", "t.sched:3: error: entry has no When field" },
	{ "What: a\nWhen: 2027-02-30\n",
	  "t.sched:2: error: bad date '2027-02-30' (expected YYYY-MM-DD or YYYY-MM)" },
	{ "What: a\nWhen: 2027-1-01\n",
	  "t.sched:2: error: bad date '2027-1-01' (expected YYYY-MM-DD or YYYY-MM)" },
	{ "What: a\nWhen: 6.x\n",
	  "t.sched:2: error: bad kernel release '6.x' (expected a date YYYY-MM-DD or a release such as 6.14)" },
	{ "What: a\nWhen: soon\n",
	  "t.sched:2: error: bad kernel release 'soon' (expected a date YYYY-MM-DD or a release such as 6.14)" },
	{ "What: a\nWhen: 2027-01-01\nAction: remove\n",
	  "t.sched:3: error: bad action 'remove' (expected unexport, gpl-only or namespace NS)" },
	{ "What: a\nWhen: 2027-01-01\nAction: namespace\n",
	  "t.sched:3: error: action 'namespace' needs a namespace name" },
	{ "What: a\nWhen: 2027-01-01\nAction: namespace a-b\n",
	  "t.sched:3: error: bad namespace name 'a-b'" },
	{ "What: good 9bad\nWhen: 2027-01-01\n", "t.sched:1: error: bad symbol name '9bad'" },
	{ "What: a;\nWhen: 2027-01-01\n", "t.sched:1: error: bad symbol name 'a;'" },
	{ "What:\nWhen: 2027-01-01\n", "t.sched:1: error: empty What field" },
	{ "What: a\nWhen: 2027-01-01\nWhen: 2028-01-01\n",
	  "t.sched:3: error: duplicate field 'When' (first at line 2)" },
	{ "What: a\nWhen: 2027-01-01\n\nWhat: b a\nWhen: 2027-01-01\n",
	  "t.sched:4: error: symbol 'a' is already scheduled at t.sched:1" },
	{ "What: a a\nWhen: 2027-01-01\n", "t.sched:1: error: symbol 'a' is named twice in this entry" },
	{ "  stray\nWhat: a\nWhen: 2027-01-01\n", "t.sched:1: error: continuation line outside an entry" },
	{ "What a\n", "t.sched:1: error: expected 'Field: value', got 'What a'" },
	{ "What: a\nWhen: 2027-01-01\nReplace:\n", "t.sched:3: error: empty Replace field" },
	/* only a leading byte order mark is skipped, and lines still count from 1 */
	{ "\xEF\xBB\xBF" "Colour: red\n", "t.sched:1: error: unknown field 'Colour'" },
	{ "What: a\nWhen: 2027-01-01\n\n\xEF\xBB\xBFWhat: b\n",
	  "t.sched:4: error: unknown field '\xEF\xBB\xBFWhat'" },
};

START_TEST(test_errors)
{
	struct ks_schedule s = KS_SCHEDULE_INIT;
	struct ks_diags d = { 0 };
	char *msg;
	int r = parse(&s, &d, error_cases[_i].text);

	ck_assert_msg(r == -EINVAL, "case %d: returned %d", _i, r);
	ck_assert_msg(d.n >= 1 && d.nerrors >= 1, "case %d: no diagnostic", _i);
	ks_diags_sort(&d);
	msg = ks_diag_format(&d.v[0]);
	ck_assert_msg(strcmp(msg, error_cases[_i].msg) == 0, "case %d:\n got  %s\n want %s", _i,
		      msg, error_cases[_i].msg);
	free(msg);
	ks_schedule_free(&s);
	ks_diags_free(&d);
}
END_TEST

START_TEST(test_all_errors_reported)
{
	struct ks_schedule s = KS_SCHEDULE_INIT;
	struct ks_diags d = { 0 };
	const char *text = "What: a\nWhen: x\n\nWhat: b\nWhen: 2027-01-01\n\nWhat: c\nFoo: 1\n";

	ck_assert_int_eq(parse(&s, &d, text), -EINVAL);
	ck_assert_uint_eq(d.nerrors, 3);	/* bad When, unknown field, no When */
	ck_assert_ptr_nonnull(ks_schedule_lookup(&s, "b"));	/* good entries stay */
	ck_assert_ptr_null(ks_schedule_lookup(&s, "a"));
	ks_schedule_free(&s);
	ks_diags_free(&d);
}
END_TEST

START_TEST(test_two_files)
{
	struct ks_schedule s = KS_SCHEDULE_INIT;
	struct ks_diags d = { 0 };
	const char *kernel = "What: a, b\nWhen: 2027-01-01\nReplace: c\n";
	const char *agree = "What: a\nWhen: 2027-01\nReplace: c\nWhy: vendor copy\n";
	const char *differ = "\nWhat: b\nWhen: 2028-01-01\n";
	char *msg;

	ck_assert_int_eq(ks_schedule_parse(&s, "k.sched", kernel, strlen(kernel), &d), 0);
	ck_assert_int_eq(ks_schedule_parse(&s, "v.sched", agree, strlen(agree), &d), 0);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_int_eq(ks_schedule_parse(&s, "w.sched", differ, strlen(differ), &d), -EINVAL);
	ck_assert_uint_eq(d.n, 1);
	msg = ks_diag_format(&d.v[0]);
	ck_assert_str_eq(msg, "w.sched:2: error: symbol 'b' is already scheduled at k.sched:1");
	free(msg);
	ck_assert_str_eq(ks_schedule_lookup(&s, "b")->file, "k.sched");
	ck_assert_uint_eq(s.nfiles, 3);
	ks_schedule_free(&s);
	ks_diags_free(&d);
}
END_TEST

START_TEST(test_load_missing)
{
	struct ks_schedule s = KS_SCHEDULE_INIT;
	struct ks_diags d = { 0 };
	char *msg;

	ck_assert_int_eq(ks_schedule_load(&s, "/nonexistent/x.schedule", &d), -ENOENT);
	msg = ks_diag_format(&d.v[0]);
	ck_assert_str_eq(msg, "/nonexistent/x.schedule: error: cannot read schedule: No such file or directory");
	free(msg);
	ks_schedule_free(&s);
	ks_diags_free(&d);
}
END_TEST

START_TEST(test_load_example)
{
	struct ks_schedule s = KS_SCHEDULE_INIT;
	struct ks_diags d = { 0 };

	ck_assert_int_eq(ks_schedule_load_list(&s, KS_EXAMPLES "/schedules/ksunset.schedule", &d), 0);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_ptr_nonnull(ks_schedule_lookup(&s, "do_settimeofday64"));
	ks_schedule_free(&s);
	ks_diags_free(&d);
}
END_TEST

START_TEST(test_digest)
{
	struct ks_schedule a = KS_SCHEDULE_INIT, b = KS_SCHEDULE_INIT;
	struct ks_diags d = { 0 };
	char ha[17], hb[17];

	ck_assert_int_eq(parse(&a, &d, "What: a\nWhen: 2027-01-01\n"), 0);
	ck_assert_int_eq(parse(&b, &d, "What: a\nWhen: 2027-01-02\n"), 0);
	ks_schedule_digest_hex(&a, ha);
	ks_schedule_digest_hex(&b, hb);
	ck_assert_uint_eq(strlen(ha), 16);
	ck_assert_str_ne(ha, hb);
	ks_schedule_free(&a);
	ks_schedule_free(&b);
}
END_TEST

START_TEST(test_many_entries)
{
	struct ks_schedule s = KS_SCHEDULE_INIT;
	struct ks_diags d = { 0 };
	struct ks_buf b = KS_BUF_INIT;
	char name[32];

	for (int i = 0; i < 50000; i++)
		ks_buf_addf(&b, "What: sym_%d\nWhen: 2027-01-01\n\n", i);
	ck_assert_int_eq(ks_schedule_parse(&s, "big", b.p, b.len, &d), 0);
	ck_assert_uint_eq(s.n, 50000);
	for (int i = 0; i < 50000; i += 997) {
		snprintf(name, sizeof(name), "sym_%d", i);
		ck_assert_ptr_nonnull(ks_schedule_lookup(&s, name));
	}
	ck_assert_ptr_null(ks_schedule_lookup(&s, "sym_50000"));
	ks_buf_free(&b);
	ks_schedule_free(&s);
}
END_TEST

static const struct {
	const char *when, *target;
	long within;
	enum ks_status st;
	int have_days;
	int32_t days;
} status_cases[] = {
	{ "2027-09-01", NULL, -1, KS_STATUS_SCHEDULED, 1, 272 },
	{ "2027-09-01", NULL, 300, KS_STATUS_DUE_SOON, 1, 272 },
	{ "2027-09-01", NULL, 272, KS_STATUS_DUE_SOON, 1, 272 },
	{ "2027-09-01", NULL, 271, KS_STATUS_SCHEDULED, 1, 272 },
	{ "2026-12-03", NULL, -1, KS_STATUS_OVERDUE, 1, 0 },
	{ "2026-01-01", NULL, -1, KS_STATUS_OVERDUE, 1, -336 },
	{ "6.14", "6.1.0-57-amd64", -1, KS_STATUS_SCHEDULED, 0, 0 },
	{ "6.14", "6.14.0-1-amd64", -1, KS_STATUS_OVERDUE, 0, 0 },
	{ "6.14", NULL, 10, KS_STATUS_SCHEDULED, 0, 0 },
};

START_TEST(test_status)
{
	struct ks_schedule s = KS_SCHEDULE_INIT;
	struct ks_diags d = { 0 };
	struct ks_release target;
	struct ks_when_eval ev;
	char text[64];
	int32_t today;

	snprintf(text, sizeof(text), "What: a\nWhen: %s\n", status_cases[_i].when);
	ck_assert_int_eq(parse(&s, &d, text), 0);
	ck_assert_int_eq(ks_date_parse("2026-12-03", &today), 0);
	if (status_cases[_i].target)
		ck_assert_int_eq(ks_release_parse_target(status_cases[_i].target, &target), 0);
	ev = ks_when_evaluate(&s.entries[0]->when, today,
			      status_cases[_i].target ? &target : NULL, status_cases[_i].within);
	ck_assert_msg(ev.status == status_cases[_i].st, "case %d: status %s", _i,
		      ks_status_name(ev.status));
	ck_assert_int_eq(ev.have_days, status_cases[_i].have_days);
	if (ev.have_days)
		ck_assert_int_eq(ev.days_left, status_cases[_i].days);
	ks_schedule_free(&s);
}
END_TEST

static Suite *suite_schedule(void)
{
	Suite *s = suite_create("schedule");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, test_full_entry);
	tcase_add_loop_test(tc, test_fields, 0, KS_NCASES(field_cases));
	tcase_add_loop_test(tc, test_errors, 0, KS_NCASES(error_cases));
	tcase_add_test(tc, test_all_errors_reported);
	tcase_add_test(tc, test_two_files);
	tcase_add_test(tc, test_load_missing);
	tcase_add_test(tc, test_load_example);
	tcase_add_test(tc, test_digest);
	tcase_add_test(tc, test_many_entries);
	tcase_add_loop_test(tc, test_status, 0, KS_NCASES(status_cases));
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
KS_SUITE(suite_schedule)
