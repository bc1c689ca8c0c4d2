/* The shared phrases for a schedule entry, one case per entry, tense and
 * input: what the plugin's warnings and the checker's reports will say. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "wording.h"

#define UNEXPORT "What: a\nWhen: "
#define GPL "What: a\nAction: gpl-only\nWhen: "
#define NS "What: a\nAction: namespace RTC\nWhen: "

/* ks_say_action and ks_say_tag, each in its tense */
static const struct {
	const char *sched;
	bool past;
	const char *want, *tag;
} actions[] = {
	{ UNEXPORT "2027-09-01", false, "is scheduled for removal on 2027-09-01",
	  "removal on 2027-09-01" },
	{ UNEXPORT "2027-09-01", true, "was due for removal on 2027-09-01",
	  "removed on 2027-09-01" },
	{ UNEXPORT "v6.20", false, "is scheduled for removal in Linux 6.20",
	  "removal in Linux 6.20" },
	{ UNEXPORT "6.20", true, "was due for removal in Linux 6.20", "removed in Linux 6.20" },
	{ GPL "2027-09", false, "will become GPL-only on 2027-09-01", "GPL-only from 2027-09-01" },
	{ GPL "2027-09-01", true, "was due to become GPL-only on 2027-09-01",
	  "GPL-only since 2027-09-01" },
	{ GPL "6.20", false, "will become GPL-only in Linux 6.20", "GPL-only from Linux 6.20" },
	{ GPL "6.20", true, "was due to become GPL-only in Linux 6.20",
	  "GPL-only since Linux 6.20" },
	{ NS "2027-09-01", false, "will move to namespace RTC on 2027-09-01",
	  "namespace RTC from 2027-09-01" },
	{ NS "2027-09-01", true, "was due to move to namespace RTC on 2027-09-01",
	  "namespace RTC since 2027-09-01" },
	{ NS "6.20", false, "will move to namespace RTC in Linux 6.20",
	  "namespace RTC from Linux 6.20" },
	{ NS "6.20", true, "was due to move to namespace RTC in Linux 6.20",
	  "namespace RTC since Linux 6.20" },
};

static const struct {
	int32_t days_left;
	bool have_days;
	const char *want;
} days[] = {
	{ 2, true, " (in 2 days)" },
	{ 1, true, " (in 1 day)" },
	{ 0, true, " (today)" },
	{ -1, true, " (overdue by 1 day)" },
	{ -185, true, " (overdue by 185 days)" },
	{ 0, false, "" },	/* a release: no days to count */
};

/* A module's license; NONE: it declares none; UNKNOWN: no module yet. */
#define NONE false, NULL
#define UNKNOWN true, NULL
#define LICENSE(l) false, l

/* ks_say_advice, and ks_say_replace (the last part of it, alone) */
static const struct {
	const char *sched;
	bool unknown;
	const char *license;
	const char *want, *replace;
} advice[] = {
	{ UNEXPORT "2027-09-01", LICENSE("Proprietary"), "", "" },
	{ GPL "2027-09-01", LICENSE("Proprietary"),
	  "; module license 'Proprietary' is not GPL-compatible", "" },
	{ GPL "2027-09-01", NONE, "; module license '(none)' is not GPL-compatible", "" },
	{ GPL "2027-09-01", UNKNOWN,
	  "; only modules whose license is not GPL-compatible are concerned", "" },
	{ NS "6.20", NONE, "; add MODULE_IMPORT_NS(RTC)", "" },
	{ NS "6.20", UNKNOWN, "; add MODULE_IMPORT_NS(RTC)", "" },
	{ UNEXPORT "2027-09-01\nReplace: kstrtoul", UNKNOWN, "; use 'kstrtoul' instead",
	  "; use 'kstrtoul' instead" },
	{ UNEXPORT "2027-09-01\nReplace: no replacement: use the rtc class", NONE,
	  "; no replacement: use the rtc class", "; no replacement: use the rtc class" },
	{ GPL "6.20\nReplace: kstrtoul", UNKNOWN,
	  "; only modules whose license is not GPL-compatible are concerned; use 'kstrtoul' "
	  "instead",
	  "; use 'kstrtoul' instead" },
	{ NS "6.20\nReplace: see the rtc class", LICENSE("GPL"),
	  "; add MODULE_IMPORT_NS(RTC); see the rtc class", "; see the rtc class" },
};

/* Parses the one entry of sched; the caller frees s. */
static const struct ks_entry *entry(struct ks_schedule *s, const char *sched)
{
	struct ks_diags d = { 0 };

	*s = (struct ks_schedule)KS_SCHEDULE_INIT;
	ck_assert_msg(ks_schedule_parse(s, "t", sched, strlen(sched), &d) == 0 && s->n == 1,
		      "schedule does not parse:\n%s", sched);
	ks_diags_free(&d);
	return s->entries[0];
}

/* Compares what b holds with want, naming the input, and empties b. */
static void expect(struct ks_buf *b, const char *want, const char *what, const char *input)
{
	const char *got = b->p ? b->p : "";

	ck_assert_msg(strcmp(got, want) == 0, "%s of:\n%s\ngot  '%s'\nwant '%s'", what, input, got,
		      want);
	ks_buf_free(b);
}

START_TEST(test_action)
{
	struct ks_schedule s;
	const struct ks_entry *e = entry(&s, actions[_i].sched);
	struct ks_buf b = KS_BUF_INIT;

	ks_say_action(&b, e, actions[_i].past);
	expect(&b, actions[_i].want, actions[_i].past ? "action (past)" : "action",
	       actions[_i].sched);
	ks_say_tag(&b, e, actions[_i].past);
	expect(&b, actions[_i].tag, actions[_i].past ? "tag (past)" : "tag", actions[_i].sched);
	ks_schedule_free(&s);
}
END_TEST

START_TEST(test_days)
{
	struct ks_when_eval ev = { .days_left = days[_i].days_left,
				   .have_days = days[_i].have_days };
	struct ks_buf b = KS_BUF_INIT;
	char input[64];

	snprintf(input, sizeof(input), "days_left %d, have_days %d", (int)ev.days_left,
		 ev.have_days);
	ks_say_days(&b, &ev);
	expect(&b, days[_i].want, "days", input);
}
END_TEST

START_TEST(test_advice)
{
	struct ks_schedule s;
	const struct ks_entry *e = entry(&s, advice[_i].sched);
	const char *lic = advice[_i].unknown ? ks_license_unknown : advice[_i].license;
	struct ks_buf b = KS_BUF_INIT;
	char *input = ks_strdupf("%s\n(license %s)", advice[_i].sched,
				 advice[_i].unknown ? "unknown" : lic ? lic : "none");

	ks_say_advice(&b, e, lic);
	expect(&b, advice[_i].want, "advice", input);
	ks_say_replace(&b, e);
	expect(&b, advice[_i].replace, "replacement", input);
	free(input);
	ks_schedule_free(&s);
}
END_TEST

static Suite *suite_wording(void)
{
	Suite *s = suite_create("wording");
	TCase *tc = tcase_create("phrases");

	tcase_add_loop_test(tc, test_action, 0, KS_NCASES(actions));
	tcase_add_loop_test(tc, test_days, 0, KS_NCASES(days));
	tcase_add_loop_test(tc, test_advice, 0, KS_NCASES(advice));
	suite_add_tcase(s, tc);
	return s;
}
KS_SUITE(suite_wording)
