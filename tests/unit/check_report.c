/* Report formats: the one-line messages for every action and status, the
 * text layout, JSON escaping, SARIF's required fields, and baselines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/baseline.h"
#include "report/report.h"
#include "suites.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

struct fx {
	struct ks_schedule sched;
	struct ks_loc locs[2];
	struct ks_finding f;
	struct ks_findings fs;
};

static const struct ks_rule *rule(const char *id)
{
	for (size_t i = 0; i < ks_nrules; i++)
		if (!strcmp(ks_rules[i].id, id))
			return &ks_rules[i];
	ck_abort_msg("no rule %s", id);
	return NULL;
}

/* One finding for the first entry of text, graded as given. */
static void make(struct fx *x, const char *text, enum ks_status st, int32_t days, bool have)
{
	struct ks_diags d = { 0 };

	memset(x, 0, sizeof(*x));
	ck_assert_int_eq(ks_schedule_parse(&x->sched, "t", text, strlen(text), &d), 0);
	x->f.entry = x->sched.entries[0];
	x->f.module = strdup("drv/m.ko");
	x->f.module_name = strdup("m");
	x->f.symbol = strdup(x->sched.entries[0]->syms[0]);
	x->f.license = strdup("Proprietary");
	x->f.target = strdup("6.1.0-57-amd64");
	x->f.ev = (struct ks_when_eval){ .status = st, .days_left = days, .have_days = have };
	x->f.sev = st == KS_STATUS_SCHEDULED ? KS_WARNING : KS_ERROR;
	x->f.rule = rule(st == KS_STATUS_OVERDUE ? "ksunset/overdue" : "ksunset/scheduled");
	x->fs.v = &x->f;
	x->fs.n = 1;
}

static void drop(struct fx *x)
{
	free(x->f.module);
	free(x->f.module_name);
	free(x->f.symbol);
	free(x->f.license);
	free(x->f.target);
	for (size_t i = 0; i < x->f.nlocs; i++) {
		free(x->f.locs[i].file);
		free(x->f.locs[i].function);
	}
	free(x->f.locs);
	ks_schedule_free(&x->sched);
}

static const struct {
	const char *text;
	enum ks_status st;
	int32_t days;
	bool have;
	const char *msg;
} msgs[] = {
	{ "What: a\nWhen: 2027-09-01\nReplace: b\n", KS_STATUS_SCHEDULED, 272, true,
	  "is scheduled for removal on 2027-09-01 (in 272 days); use 'b' instead" },
	{ "What: a\nWhen: 2027-09-01\nReplace: no replacement\n", KS_STATUS_SCHEDULED, 1, true,
	  "is scheduled for removal on 2027-09-01 (in 1 day); no replacement" },
	{ "What: a\nWhen: 2026-01-01\n", KS_STATUS_OVERDUE, -336, true,
	  "was due for removal on 2026-01-01 (overdue by 336 days)" },
	{ "What: a\nWhen: 2026-12-03\n", KS_STATUS_OVERDUE, 0, true,
	  "was due for removal on 2026-12-03 (today)" },
	{ "What: a\nWhen: 6.20\nAction: gpl-only\n", KS_STATUS_SCHEDULED, 0, false,
	  "will become GPL-only in Linux 6.20 (target kernel 6.1.0-57-amd64); module license 'Proprietary' is not GPL-compatible" },
	{ "What: a\nWhen: 2027-12\nAction: namespace RTC\n", KS_STATUS_SCHEDULED, 363, true,
	  "will move to namespace RTC on 2027-12-01 (in 363 days); add MODULE_IMPORT_NS(RTC)" },
};

START_TEST(test_messages)
{
	struct fx x;
	char *m;

	make(&x, msgs[_i].text, msgs[_i].st, msgs[_i].days, msgs[_i].have);
	m = ks_finding_message(&x.f);
	ck_assert_msg(strcmp(m, msgs[_i].msg) == 0, "case %d:\n got  %s\n want %s", _i, m,
		      msgs[_i].msg);
	free(m);
	drop(&x);
}
END_TEST

/* An export already gone: the action's advice (the license, the namespace)
 * no longer helps, only the replacement does. */
START_TEST(test_removed)
{
	static const char *const text[] = {
		"What: a\nWhen: 6.20\nAction: gpl-only\nReplace: b\n",
		"What: a\nWhen: 2027-12\nAction: namespace RTC\n",
	};
	static const char *const want[] = {
		"is no longer exported by the kernel (gpl-only in Linux 6.20): the module will not "
		"load; use 'b' instead",
		"is no longer exported by the kernel (namespace RTC on 2027-12-01): the module will "
		"not load",
	};
	struct fx x;
	char *m;

	make(&x, text[_i], KS_STATUS_SCHEDULED, 0, false);
	x.f.rule = rule("ksunset/removed");
	m = ks_finding_message(&x.f);
	ck_assert_msg(strcmp(m, want[_i]) == 0, "%s\n got  %s\n want %s", text[_i], m, want[_i]);
	free(m);
	drop(&x);
}
END_TEST

/* Writes the report into a string. */
static char *render(struct ks_report *rep, const struct ks_findings *fs)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(ks_report_write(f, rep, fs), 0);
	fclose(f);
	return s;
}

static void add_locs(struct fx *x)
{
	x->f.locs = calloc(2, sizeof(*x->f.locs));
	x->f.locs[0] = (struct ks_loc){ strdup("drv/m.c"), 42, 9, strdup("probe"), KS_USE_CALL,
					KS_SOURCE_PLUGIN };
	x->f.locs[1] = (struct ks_loc){ strdup("drv/m.c"), 50, 12, strdup(""), KS_USE_ADDR,
					KS_SOURCE_PLUGIN };
	x->f.nlocs = 2;
}

START_TEST(test_text)
{
	struct fx x;
	struct ks_report rep = { .format = KS_FORMAT_TEXT };
	char *s;

	make(&x, "What: a\nWhen: 2027-09-01\n", KS_STATUS_SCHEDULED, 272, true);
	add_locs(&x);
	s = render(&rep, &x.fs);
	ck_assert_str_eq(s, "WARNING: ksunset: \"a\" [drv/m.ko] is scheduled for removal on 2027-09-01 (in 272 days)\n"
			    "drv/m.c:42:9: warning: call to 'a' in 'probe' (removal on 2027-09-01) [ksunset-scheduled]\n"
			    "drv/m.c:50:12: warning: address of 'a' (removal on 2027-09-01) [ksunset-scheduled]\n");
	free(s);
	rep.quiet = true;	/* errors only */
	s = render(&rep, &x.fs);
	ck_assert_str_eq(s, "");
	free(s);
	drop(&x);
}
END_TEST

/* The tag of a location line is in the tense of the finding: a deadline
 * passed is "since", and a gpl-only entry is never "removed". */
START_TEST(test_text_tag_tense)
{
	struct fx x;
	struct ks_report rep = { .format = KS_FORMAT_TEXT };
	char *s;

	make(&x, "What: a\nWhen: 2026-06-01\nAction: gpl-only\n", KS_STATUS_OVERDUE, -185, true);
	add_locs(&x);
	x.f.nlocs = 1;
	s = render(&rep, &x.fs);
	ck_assert_msg(strstr(s, "drv/m.c:42:9: error: call to 'a' in 'probe' (GPL-only since "
				"2026-06-01) [ksunset-overdue]\n") != NULL, "got:\n%s", s);
	free(s);
	x.f.nlocs = 2;
	drop(&x);
}
END_TEST

START_TEST(test_json_escapes)
{
	struct fx x;
	struct ks_report rep = { .format = KS_FORMAT_JSON };
	char *s;

	make(&x, "What: a\nWhen: 2027-09-01\nReplace: say \"no\"\\\n", KS_STATUS_SCHEDULED, 272, true);
	s = render(&rep, &x.fs);
	ck_assert_ptr_nonnull(strstr(s, "\"replace\": \"say \\\"no\\\"\\\\\""));
	ck_assert_ptr_nonnull(strstr(s, "\"days_left\": 272"));
	ck_assert_ptr_nonnull(strstr(s, "\"summary\": {\"errors\": 0, \"warnings\": 1, \"baselined\": 0}"));
	free(s);
	drop(&x);
}
END_TEST

/* Each location says which source found it. */
START_TEST(test_json_source)
{
	struct fx x;
	struct ks_report rep = { .format = KS_FORMAT_JSON };
	char *s;

	make(&x, "What: a\nWhen: 2027-09-01\n", KS_STATUS_SCHEDULED, 272, true);
	add_locs(&x);
	s = render(&rep, &x.fs);
	ck_assert_ptr_nonnull(strstr(s, "\"line\": 42, \"column\": 9, \"function\": \"probe\", "
					"\"kind\": \"call\", \"source\": \"plugin\"}"));
	free(s);
	drop(&x);
}
END_TEST

START_TEST(test_sarif)
{
	struct fx x;
	struct ks_report rep = { .format = KS_FORMAT_SARIF, .source_root = "drv/" };
	char *s;

	make(&x, "What: a\nWhen: 2026-01-01\n", KS_STATUS_OVERDUE, -336, true);
	add_locs(&x);
	s = render(&rep, &x.fs);
	ck_assert_ptr_nonnull(strstr(s, "\"version\": \"2.1.0\""));
	ck_assert_ptr_nonnull(strstr(s, "\"ruleId\": \"ksunset/overdue\", \"level\": \"error\""));
	ck_assert_ptr_nonnull(strstr(s, "\"uri\": \"m.c\", \"uriBaseId\": \"SRCROOT\""));
	ck_assert_ptr_nonnull(strstr(s, "\"startLine\": 50, \"startColumn\": 12"));
	ck_assert_ptr_nonnull(strstr(s, "\"originalUriBaseIds\""));
	free(s);
	drop(&x);
}
END_TEST

START_TEST(test_baseline_roundtrip)
{
	struct fx x;
	struct ks_baseline b = { .source_root = "/src" };
	struct ks_diags d = { 0 };
	char path[] = "/tmp/ksunset-baseline-XXXXXX";
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	make(&x, "What: a\nWhen: 2027-09-01\n", KS_STATUS_SCHEDULED, 272, true);
	add_locs(&x);
	ck_assert_int_eq(ks_baseline_write(path, "/src", &x.fs, &d), 0);
	ck_assert_int_eq(ks_baseline_load(&b, path, &d), 0);
	ck_assert_uint_eq(b.n, 2);
	/* a known use on another line is accepted; one in a new function is not */
	x.f.locs[0].line = 99;
	free(x.f.locs[1].function);
	x.f.locs[1].function = strdup("new_fn");
	ck_assert_int_eq(ks_baseline_apply(&b, &x.fs), 0);
	ck_assert(!x.f.baselined);
	ck_assert_uint_eq(x.f.nlocs, 1);
	ck_assert_str_eq(x.f.locs[0].function, "new_fn");
	free(x.f.locs[0].function);
	x.f.locs[0].function = strdup("");
	ck_assert_int_eq(ks_baseline_apply(&b, &x.fs), 0);
	ck_assert(x.f.baselined);
	ck_assert_uint_eq(x.f.nlocs, 0);
	ks_baseline_free(&b);
	unlink(path);
	drop(&x);
}
END_TEST

Suite *suite_report(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("formats");

	tcase_add_loop_test(tc, test_messages, 0, N(msgs));
	tcase_add_loop_test(tc, test_removed, 0, 2);
	tcase_add_test(tc, test_text);
	tcase_add_test(tc, test_text_tag_tense);
	tcase_add_test(tc, test_json_escapes);
	tcase_add_test(tc, test_json_source);
	tcase_add_test(tc, test_sarif);
	tcase_add_test(tc, test_baseline_roundtrip);
	suite_add_tcase(s, tc);
	return s;
}
