/* Writing schedules for mark: entry text, the separator before it and the
 * round trip through the parser. */
#include <string.h>

#include "schedule.h"
#include "input/schedwrite.h"
#include "suites.h"

static const struct {
	const char *text, *sep;
} sep_cases[] = {
	{ "", "" },
	{ "\n", "" },
	{ "What: a\nWhen: 2027-01", "\n\n" },
	{ "What: a\nWhen: 2027-01\n", "\n" },
	{ "What: a\nWhen: 2027-01\n\n", "" },
	{ "What: a\nWhen: 2027-01\n \t\n", "" },	/* white space only is blank too */
	{ "# only a comment\n", "\n" },
	/* CRLF: the separator is converted with the entry (ks_buf_add_eol) */
	{ "What: a\r\nWhen: 2027-01\r\n", "\n" },
	{ "What: a\r\nWhen: 2027-01\r\n\r\n", "" },
};

/* The line ending of a file, by its first line. */
static const struct {
	const char *text, *eol;
} eol_cases[] = {
	{ "", "\n" },
	{ "What: a", "\n" },
	{ "What: a\nWhen: 2027-01\r\n", "\n" },
	{ "What: a\r\nWhen: 2027-01\n", "\r\n" },
	{ "\r\n", "\r\n" },
	{ "\n", "\n" },
};

START_TEST(test_eol)
{
	const char *t = eol_cases[_i].text, *lines = "\nWhat: a\nWhy: w\n  more";
	struct ks_buf b = KS_BUF_INIT;

	ck_assert_msg(strcmp(ks_text_eol(t, strlen(t)), eol_cases[_i].eol) == 0, "text '%s'", t);
	ks_buf_add_eol(&b, lines, strlen(lines), "\r\n");
	ck_assert_str_eq(b.p, "\r\nWhat: a\r\nWhy: w\r\n  more");
	ks_buf_free(&b);
	ks_buf_add_eol(&b, "a\nb\n", 4, "\n");
	ck_assert_str_eq(b.p, "a\nb\n");
	ks_buf_free(&b);
}
END_TEST

START_TEST(test_separator)
{
	const char *t = sep_cases[_i].text;

	ck_assert_msg(strcmp(ks_entry_separator(t, strlen(t)), sep_cases[_i].sep) == 0,
		      "text '%s'", t);
}
END_TEST

static char *syms[] = { "old_api", "old_api2" };

START_TEST(test_format)
{
	struct ks_new_entry e = { .syms = syms, .nsyms = 2, .when = "2027-12-03",
				  .action = "unexport", .replace = "", .why = "Line one.\n\n  \nLine two.\n",
				  .who = "A. M <a@example.org>", .since = "2026-12-03" };
	struct ks_buf b = KS_BUF_INIT;

	ks_entry_format(&b, &e);
	ck_assert_str_eq(b.p, "What:    old_api, old_api2\n"
			      "When:    2027-12-03\n"
			      "Action:  unexport\n"
			      "Why:     Line one.\n"
			      "         Line two.\n"
			      "Who:     A. M <a@example.org>\n"
			      "Since:   2026-12-03\n");
	ks_buf_free(&b);
}
END_TEST

/* Every separator case plus a new entry parses back, the old text intact. */
START_TEST(test_round_trip)
{
	struct ks_new_entry e = { .syms = syms, .nsyms = 1, .when = "v6.14",
				  .action = "namespace RTC", .replace = "new_api",
				  .why = "w", .who = "w", .since = "2026-12-03" };
	struct ks_schedule s = KS_SCHEDULE_INIT;
	struct ks_diags d = { 0 };
	struct ks_buf b = KS_BUF_INIT;
	const char *old = sep_cases[_i].text;
	const struct ks_entry *got;

	ks_buf_adds(&b, old);
	ks_buf_adds(&b, ks_entry_separator(old, strlen(old)));
	ks_entry_format(&b, &e);
	ck_assert_int_eq(strncmp(b.p, old, strlen(old)), 0);
	ck_assert_int_eq(ks_schedule_parse(&s, "s", b.p, b.len, &d), 0);
	got = ks_schedule_lookup(&s, "old_api");
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got->ns, "RTC");
	ck_assert_str_eq(got->replace, "new_api");
	ck_assert_str_eq(got->when.text, "6.14");
	ks_schedule_free(&s);
	ks_diags_free(&d);
	ks_buf_free(&b);
}
END_TEST

static Suite *suite_schedwrite(void)
{
	Suite *s = suite_create("schedwrite");
	TCase *tc = tcase_create("mark");

	tcase_add_loop_test(tc, test_separator, 0, KS_NCASES(sep_cases));
	tcase_add_test(tc, test_format);
	tcase_add_loop_test(tc, test_round_trip, 0, KS_NCASES(sep_cases));
	tcase_add_loop_test(tc, test_eol, 0, KS_NCASES(eol_cases));
	suite_add_tcase(s, tc);
	return s;
}
KS_SUITE(suite_schedwrite)
