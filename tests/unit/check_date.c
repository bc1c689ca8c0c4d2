/* Dates, relative dates, today, and kernel release comparison. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "date.h"
#include "suites.h"

static const struct {
	const char *in;
	int ok;
	const char *norm;
} date_cases[] = {
	{ "2027-09-01", 1, "2027-09-01" },
	{ "2027-09", 1, "2027-09-01" },
	{ "2024-02-29", 1, "2024-02-29" },	/* leap year */
	{ "2000-02-29", 1, "2000-02-29" },	/* divisible by 400 */
	{ "1900-02-29", 0, NULL },
	{ "2023-02-29", 0, NULL },
	{ "2027-13-01", 0, NULL },
	{ "2027-00", 0, NULL },
	{ "2027-04-31", 0, NULL },
	{ "2027-9-1", 0, NULL },
	{ "27-09-01", 0, NULL },
	{ "2027-09-01x", 0, NULL },
	{ "", 0, NULL },
	{ "1969-12-31", 0, NULL },
};

START_TEST(test_date_parse)
{
	int32_t d = -1;
	char out[KS_DATE_LEN];
	int r = ks_date_parse(date_cases[_i].in, &d);

	ck_assert_msg((r == 0) == date_cases[_i].ok, "input '%s': got %d", date_cases[_i].in, r);
	if (!date_cases[_i].ok)
		return;
	ks_date_format(d, out);
	ck_assert_msg(strcmp(out, date_cases[_i].norm) == 0, "input '%s': formatted '%s'",
		      date_cases[_i].in, out);
}
END_TEST

START_TEST(test_date_epoch)
{
	int32_t d;

	ck_assert_int_eq(ks_date_parse("1970-01-01", &d), 0);
	ck_assert_int_eq(d, 0);
	ck_assert_int_eq(ks_date_parse("2026-12-03", &d), 0);
	ck_assert_int_eq(d, 20790);
}
END_TEST

static const struct {
	const char *today, *in, *out;
	int err;	/* when out is NULL */
} rel_cases[] = {
	{ "2026-12-03", "+1y", "2027-12-03", 0 },
	{ "2026-12-03", "+2m", "2027-02-03", 0 },
	{ "2027-01-31", "+1m", "2027-02-28", 0 },	/* clamped to the month's end */
	{ "2024-02-29", "+1y", "2025-02-28", 0 },
	{ "2026-12-03", "+30d", "2027-01-02", 0 },
	{ "2026-12-03", "2030-01-01", "2030-01-01", 0 },
	{ "2026-12-03", "+1w", NULL, -EINVAL },
	{ "2026-12-03", "+y", NULL, -EINVAL },
	{ "2026-12-03", "+1yy", NULL, -EINVAL },
	{ "2026-12-03", "+7973y", "9999-12-03", 0 },	/* the last year a date can hold */
	{ "2026-12-03", "+7974y", NULL, -ERANGE },	/* not year 0000 */
	{ "2026-12-03", "+2920000d", NULL, -ERANGE },
	{ "2026-12-03", "+99999999999999999999d", NULL, -ERANGE },
};

START_TEST(test_date_relative)
{
	int32_t today, d;
	char out[KS_DATE_LEN];
	int r;

	ck_assert_int_eq(ks_date_parse(rel_cases[_i].today, &today), 0);
	r = ks_date_parse_relative(rel_cases[_i].in, today, &d);
	ck_assert_msg((r == 0) == (rel_cases[_i].out != NULL), "'%s': got %d", rel_cases[_i].in, r);
	if (r) {
		ck_assert_int_eq(r, rel_cases[_i].err);
		return;
	}
	ks_date_format(d, out);
	ck_assert_msg(strcmp(out, rel_cases[_i].out) == 0, "'%s' from %s: got %s",
		      rel_cases[_i].in, rel_cases[_i].today, out);
}
END_TEST

START_TEST(test_today_sources)
{
	const char *why = NULL;
	int32_t d;

	setenv("SOURCE_DATE_EPOCH", "1796256000", 1);	/* 2026-12-03 */
	ck_assert_int_eq(ks_today("2027-01-01", &d, &why), 0);
	ck_assert_int_eq(d, 20819);	/* the explicit date wins */
	ck_assert_int_eq(ks_today(NULL, &d, &why), 0);
	ck_assert_int_eq(d, 20790);
	setenv("SOURCE_DATE_EPOCH", "1796256000.5", 1);
	ck_assert_int_eq(ks_today(NULL, &d, &why), -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "SOURCE_DATE_EPOCH"));
	setenv("SOURCE_DATE_EPOCH", "-1", 1);
	ck_assert_int_eq(ks_today(NULL, &d, &why), -EINVAL);
	/* set but empty is unset, as Makefiles that pass it on expect */
	setenv("SOURCE_DATE_EPOCH", "", 1);
	ck_assert_int_eq(ks_today(NULL, &d, &why), 0);
	ck_assert_int_ge(d, (int32_t)(time(NULL) / 86400) - 1);
	ck_assert_int_le(d, (int32_t)(time(NULL) / 86400));
	unsetenv("SOURCE_DATE_EPOCH");
	ck_assert_int_eq(ks_today(NULL, &d, &why), 0);
	ck_assert_int_gt(d, 20000);
	ck_assert_int_eq(ks_today("yesterday", &d, &why), -EINVAL);
	/* today is one day: a month alone (When:'s YYYY-MM) is refused */
	ck_assert_int_eq(ks_today("2027-03", &d, &why), -EINVAL);
	ck_assert_str_eq(why, "expected a date YYYY-MM-DD");
}
END_TEST

static const struct {
	const char *target, *sched;
	int reached;
} release_cases[] = {
	{ "6.1.0-57-amd64", "6.14", 0 },
	{ "6.14.0-1-amd64", "6.14", 1 },
	{ "6.14-rc1", "6.14", 1 },	/* removals land in the merge window */
	{ "6.13.12", "6.14", 0 },
	{ "6.10-rc3", "6.9", 1 },
	{ "6.10-rc3", "6.10.1", 0 },
	{ "6.10.1", "6.10.1", 1 },
	{ "6.9", "v6.10", 0 },
	{ "7.0", "6.99", 1 },
	{ "6.100", "6.99", 1 },	/* numeric, not lexical */
	{ "6.8.0+", "6.8", 1 },
};

START_TEST(test_release_reached)
{
	struct ks_release t, s;

	ck_assert_msg(ks_release_parse_target(release_cases[_i].target, &t) == 0, "target %s",
		      release_cases[_i].target);
	ck_assert_msg(ks_release_parse(release_cases[_i].sched, &s) == 0, "sched %s",
		      release_cases[_i].sched);
	ck_assert_msg(ks_release_reached(&t, &s) == release_cases[_i].reached,
		      "%s reached %s: expected %d", release_cases[_i].target,
		      release_cases[_i].sched, release_cases[_i].reached);
}
END_TEST

static const char *const bad_releases[] = { "6", "v", "6.", "6.x", "6.14-rc1", "6.14.",
					    "6.14 ", "x6.1", "6..1", "" };

START_TEST(test_release_bad)
{
	struct ks_release r;

	ck_assert_msg(ks_release_parse(bad_releases[_i], &r) == -EINVAL, "'%s' accepted",
		      bad_releases[_i]);
}
END_TEST

START_TEST(test_release_rc_order)
{
	struct ks_release a, b;

	ck_assert_int_eq(ks_release_parse_target("6.10-rc3", &a), 0);
	ck_assert_int_eq(ks_release_parse_target("6.10", &b), 0);
	ck_assert_int_lt(ks_release_cmp(&a, &b), 0);
	ck_assert_int_eq(ks_release_parse_target("6.10-rc10", &b), 0);
	ck_assert_int_lt(ks_release_cmp(&a, &b), 0);
	ck_assert_int_eq(ks_release_parse_target("6.10-rc0", &b), -EINVAL);
	ck_assert_int_eq(ks_release_parse_target("junk", &b), -EINVAL);
}
END_TEST

/* "X.Y" of a release or a vermagic, for a migrations file's From and To. */
START_TEST(test_release_xy)
{
	static const char *const in[][2] = {
		{ "6.1.0-57-amd64 SMP preempt mod_unload modversions ", "6.1" },
		{ "6.12.95+deb12-amd64", "6.12" },
		{ "7.3-rc2", "7.3" },
		{ "amd64 6.1", NULL },
		{ "", NULL },
	};

	for (size_t i = 0; i < KS_ARRAY_SIZE(in); i++) {
		char *x = ks_release_xy(in[i][0]);

		if (in[i][1])
			ck_assert_str_eq(x, in[i][1]);
		else
			ck_assert_ptr_null(x);
		free(x);
	}
}
END_TEST

static Suite *suite_date(void)
{
	Suite *s = suite_create("date");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_date_parse, 0, KS_NCASES(date_cases));
	tcase_add_test(tc, test_date_epoch);
	tcase_add_loop_test(tc, test_date_relative, 0, KS_NCASES(rel_cases));
	tcase_add_test(tc, test_today_sources);
	tcase_add_loop_test(tc, test_release_reached, 0, KS_NCASES(release_cases));
	tcase_add_loop_test(tc, test_release_bad, 0, KS_NCASES(bad_releases));
	tcase_add_test(tc, test_release_rc_order);
	tcase_add_test(tc, test_release_xy);
	suite_add_tcase(s, tc);
	return s;
}
KS_SUITE(suite_date)
