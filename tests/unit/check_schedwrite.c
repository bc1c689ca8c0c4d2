/* Writing schedules for mark: entry text, the separator before it, the
 * round trip through the parser, and the atomic file replacement. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schedule.h"
#include "input/schedwrite.h"
#include "suites.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

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
	ck_assert_int_eq(ks_buf_add_eol(&b, lines, strlen(lines), "\r\n"), 0);
	ck_assert_str_eq(b.p, "\r\nWhat: a\r\nWhy: w\r\n  more");
	ks_buf_free(&b);
	ck_assert_int_eq(ks_buf_add_eol(&b, "a\nb\n", 4, "\n"), 0);
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

	ck_assert_int_eq(ks_entry_format(&b, &e), 0);
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

	ck_assert_int_eq(ks_buf_adds(&b, old), 0);
	ck_assert_int_eq(ks_buf_adds(&b, ks_entry_separator(old, strlen(old))), 0);
	ck_assert_int_eq(ks_entry_format(&b, &e), 0);
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

static char *read_all(const char *path)
{
	struct ks_buf b = KS_BUF_INIT;

	ck_assert_int_eq(ks_buf_read_file(&b, path), 0);
	ck_assert_int_eq(ks_buf_adds(&b, ""), 0);
	return ks_buf_steal(&b);
}

START_TEST(test_replace)
{
	char dir[] = "/tmp/ks-unit-XXXXXX";
	struct ks_diags d = { 0 };
	struct stat st;
	char *path, *link, *got;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	path = ks_strdupf("%s/s.schedule", dir);
	link = ks_strdupf("%s/link.schedule", dir);
	ck_assert_int_eq(ks_file_replace(path, "one\n", 4, &d), 0);	/* made */
	ck_assert_int_eq(chmod(path, 0640), 0);
	ck_assert_int_eq(symlink("s.schedule", link), 0);
	ck_assert_int_eq(ks_file_replace(link, "two\n", 4, &d), 0);
	got = read_all(path);
	ck_assert_str_eq(got, "two\n");
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));	/* the link followed, not replaced */
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0640);
	ck_assert_int_eq(d.n, 0);
	ck_assert_int_eq(unlink(link), 0);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0);	/* no temporary file left behind */
	free(got);
	free(path);
	free(link);
}
END_TEST

/* The owner and group stay, so that root marking a builder's schedule
 * does not take it over. Only root can give a file away to test it. */
START_TEST(test_replace_keeps_owner)
{
	char dir[] = "/tmp/ks-unit-XXXXXX";
	struct ks_diags d = { 0 };
	struct stat st;
	char *path;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	path = ks_strdupf("%s/s.schedule", dir);
	ck_assert_int_eq(ks_file_replace(path, "one\n", 4, &d), 0);
	if (chown(path, 4321, 4322) == 0) {
		ck_assert_int_eq(chmod(path, 0664), 0);
		ck_assert_int_eq(ks_file_replace(path, "two\n", 4, &d), 0);
		ck_assert_int_eq(stat(path, &st), 0);
		ck_assert_int_eq(st.st_uid, 4321);
		ck_assert_int_eq(st.st_gid, 4322);
		ck_assert_int_eq(st.st_mode & 07777, 0664);
	}
	ck_assert_uint_eq(d.n, 0);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
	free(path);
}
END_TEST

START_TEST(test_replace_error)
{
	struct ks_diags d = { 0 };

	ck_assert_int_eq(ks_file_replace("/nonexistent/dir/s.schedule", "x", 1, &d), -ENOENT);
	ck_assert_uint_eq(d.nerrors, 1);
	ck_assert_str_eq(d.v[0].file, "/nonexistent/dir/s.schedule");
	ck_assert_str_eq(d.v[0].msg, "cannot write: No such file or directory");
	ks_diags_free(&d);
}
END_TEST

Suite *suite_schedwrite(void)
{
	Suite *s = suite_create("schedwrite");
	TCase *tc = tcase_create("mark");

	tcase_add_loop_test(tc, test_separator, 0, N(sep_cases));
	tcase_add_test(tc, test_format);
	tcase_add_loop_test(tc, test_round_trip, 0, N(sep_cases));
	tcase_add_test(tc, test_replace);
	tcase_add_test(tc, test_replace_error);
	tcase_add_loop_test(tc, test_eol, 0, N(eol_cases));
	tcase_add_test(tc, test_replace_keeps_owner);
	suite_add_tcase(s, tc);
	return s;
}
