/* Report formats: the one-line messages for every action and status, the
 * text layout, JSON escaping, SARIF's required fields and columns, and baselines. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "input/kernel.h"
#include "input/symdiff.h"
#include "rules/baseline.h"
#include "rules/imports.h"
#include "report/column.h"
#include "report/report.h"
#include "report/rewrite.h"
#include "suites.h"

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
		free(x->f.locs[i].accept_reason);
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
					KS_SOURCE_PLUGIN, false, NULL, NULL, NULL, NULL, NULL, false };
	x->f.locs[1] = (struct ks_loc){ strdup("drv/m.c"), 50, 12, strdup(""), KS_USE_ADDR,
					KS_SOURCE_PLUGIN, false, NULL, NULL, NULL, NULL, NULL, false };
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
	ck_assert_ptr_nonnull(strstr(s, "\"summary\": {\"errors\": 0, \"warnings\": 1, \"baselined\": 0, \"accepted\": 0}"));
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
					"\"kind\": \"call\", \"source\": \"plugin\", \"baselined\": false, "
					"\"accepted\": false, \"reason\": null}"));
	free(s);
	drop(&x);
}
END_TEST

/* Each of needles is in s; the failure shows the missing one and s. */
static void has_all(const char *s, const char *const *needles, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(strstr(s, needles[i]), "no '%s' in:\n%s", needles[i], s);
}

static int count(const char *s, const char *needle)
{
	int n = 0;

	for (; (s = strstr(s, needle)); s++)
		n++;
	return n;
}

/* A source tree in a fresh directory: m.c, whose lines 42 and 50 hold
 * the fixture's uses (a tab, and a wide character, before them). */
static char *source_tree(void)
{
	char tmpl[] = "/tmp/ksunset-src-XXXXXX", *dir = strdup(mkdtemp(tmpl)), *path;
	FILE *f;

	path = ks_strdupf("%s/m.c", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	for (int i = 1; i <= 50; i++)
		fputs(i == 42 ? "\tr = a(x);\n" : i == 50 ? "\t\xe6\x99\x82 &a\n" : "\n", f);
	fclose(f);
	free(path);
	return dir;
}

static void remove_tree(char *dir)
{
	char *path = ks_strdupf("%s/m.c", dir);

	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
}

/* One result per use, each where it is: the URI relative to the source
 * root, the column in UTF-16 code units, a fingerprint without the line. */
START_TEST(test_sarif)
{
	struct fx x;
	char *dir = source_tree();
	char *base = ks_strdupf("\"SRCROOT\": {\"uri\": \"file://%s/\"}", dir);
	struct ks_report rep = { .format = KS_FORMAT_SARIF, .source_root = dir };
	const char *const want[] = {
		"\"version\": \"2.1.0\"",
		"\"columnKind\": \"utf16CodeUnits\"",
		base,
		"\"ruleId\": \"ksunset/overdue\", \"level\": \"error\"",
		"\"uri\": \"m.c\", \"uriBaseId\": \"SRCROOT\"}, "
		"\"region\": {\"startLine\": 42, \"startColumn\": 6}}, "
		"\"logicalLocations\": [{\"name\": \"probe\", \"kind\": \"function\"}]}]",
		"\"partialFingerprints\": {\"ksunset/v2\": \"m/a/m.c/probe/1\"}",
		"\"region\": {\"startLine\": 50, \"startColumn\": 4}}}]",
		"\"partialFingerprints\": {\"ksunset/v2\": \"m/a/m.c//1\"}",
		"\"suppressions\": []",
	};
	char *s;

	make(&x, "What: a\nWhen: 2026-01-01\n", KS_STATUS_OVERDUE, -336, true);
	add_locs(&x);
	for (int i = 0; i < 2; i++) {
		free(x.f.locs[i].file);
		x.f.locs[i].file = ks_strdupf("%s/m.c", dir);
	}
	x.f.locs[0].col = 13;	/* display columns: the tab is 8, the wide character 2 */
	s = render(&rep, &x.fs);
	has_all(s, want, KS_NCASES(want));
	ck_assert_int_eq(count(s, "\"ruleId\""), 2);
	free(s);
	free(base);
	drop(&x);
	remove_tree(dir);
}
END_TEST

/* Without --source-root the root is the current directory; a file outside
 * it gets an absolute file: URI, never a bare path; a column that cannot
 * be read from the source is left out. A second use in a function has a
 * fingerprint of its own. */
START_TEST(test_sarif_uris)
{
	struct fx x;
	struct ks_report rep = { .format = KS_FORMAT_SARIF };
	char *cwd = getcwd(NULL, 0);
	char *base = ks_strdupf("\"SRCROOT\": {\"uri\": \"file://%s/\"}", cwd);
	const char *const want[] = {
		base,
		"\"uri\": \"drv/m.c\", \"uriBaseId\": \"SRCROOT\"}, "
		"\"region\": {\"startLine\": 42}}",
		"\"uri\": \"file:///elsewhere/x%20y%25.c\"}, \"region\": {\"startLine\": 50}}",
		"\"ksunset/v2\": \"m/a/drv/m.c/probe/1\"",
		"\"ksunset/v2\": \"m/a//elsewhere/x y%.c/probe/1\"",
	};
	char *abs = ks_strdupf("%s/./drv//sub/../m.c", cwd), *up, *s;

	make(&x, "What: a\nWhen: 2026-01-01\n", KS_STATUS_OVERDUE, -336, true);
	add_locs(&x);
	free(x.f.locs[1].file);
	x.f.locs[1].file = strdup("/elsewhere/./sub/../x y%.c");	/* no dot segments */
	free(x.f.locs[1].function);
	x.f.locs[1].function = strdup("probe");
	s = render(&rep, &x.fs);
	has_all(s, want, KS_NCASES(want));
	free(s);
	/* an absolute path below the current directory is relative too */
	free(x.f.locs[1].file);
	x.f.locs[1].file = abs;
	s = render(&rep, &x.fs);
	ck_assert_ptr_nonnull(strstr(s, "\"ksunset/v2\": \"m/a/drv/m.c/probe/2\""));
	ck_assert_ptr_null(strstr(s, "file:///elsewhere"));
	free(s);
	/* a relative file above the root is outside it */
	free(x.f.locs[1].file);
	x.f.locs[1].file = strdup("../up.c");
	*strrchr(cwd, '/') = '\0';
	up = ks_strdupf("\"uri\": \"file://%s/up.c\"}", cwd);
	s = render(&rep, &x.fs);
	ck_assert_msg(strstr(s, up), "no '%s' in:\n%s", up, s);
	free(up);
	free(s);
	free(base);
	free(cwd);
	drop(&x);
}
END_TEST

/* A finding without a source location: one result at the module's import
 * of the symbol, a logical location, not the .ko as an artifact. A
 * baselined finding is kept, suppressed. */
START_TEST(test_sarif_unplaced)
{
	struct fx x;
	struct ks_report rep = { .format = KS_FORMAT_SARIF, .source_root = "drv/" };
	const char *const want[] = {
		"\"locations\": [{\"logicalLocations\": [{\"name\": \"a\", "
		"\"fullyQualifiedName\": \"m.ko/a\", \"kind\": \"member\"}]}]",
		"\"partialFingerprints\": {\"ksunset/v2\": \"m/a\"}",
		"\"suppressions\": [{\"kind\": \"external\", \"status\": \"accepted\", "
		"\"justification\": \"accepted by the ksunset baseline\"}]",
	};
	char *s;

	make(&x, "What: a\nWhen: 2027-09-01\n", KS_STATUS_SCHEDULED, 272, true);
	x.f.baselined = true;
	s = render(&rep, &x.fs);
	has_all(s, want, KS_NCASES(want));
	ck_assert_ptr_null(strstr(s, "physicalLocation"));
	ck_assert_uint_eq(rep.tally.baselined, 1);
	free(s);
	drop(&x);
}
END_TEST

/* A partly accepted finding: the accepted use suppressed, the new one not. */
START_TEST(test_sarif_baselined)
{
	struct fx x;
	struct ks_report rep = { .format = KS_FORMAT_SARIF, .source_root = "drv/" };
	char *s, *first, *second;

	make(&x, "What: a\nWhen: 2027-09-01\n", KS_STATUS_SCHEDULED, 272, true);
	add_locs(&x);
	x.f.locs[1].baselined = true;
	s = render(&rep, &x.fs);
	first = strstr(s, "\"startLine\": 42");
	second = first ? strstr(first, "\"startLine\": 50") : NULL;
	ck_assert_msg(first && second, "%s", s);
	ck_assert_ptr_nonnull(strstr(first, "\"suppressions\": []"));
	ck_assert(strstr(first, "\"suppressions\": []") < second);
	ck_assert_ptr_nonnull(strstr(second, "\"suppressions\": [{\"kind\": \"external\""));
	free(s);
	drop(&x);
}
END_TEST

/* The text report leaves out what the baseline accepted; JSON keeps it,
 * marked. */
START_TEST(test_baselined)
{
	struct fx x;
	struct ks_report text = { .format = KS_FORMAT_TEXT }, json = { .format = KS_FORMAT_JSON };
	char *s;

	make(&x, "What: a\nWhen: 2027-09-01\n", KS_STATUS_SCHEDULED, 272, true);
	add_locs(&x);
	x.f.locs[0].baselined = true;
	s = render(&text, &x.fs);
	ck_assert_ptr_null(strstr(s, "drv/m.c:42:"));
	ck_assert_ptr_nonnull(strstr(s, "drv/m.c:50:12: warning: address of 'a'"));
	free(s);
	x.f.locs[1].baselined = x.f.baselined = true;
	s = render(&text, &x.fs);
	ck_assert_str_eq(s, "");
	ck_assert_uint_eq(text.tally.baselined, 1);
	free(s);
	s = render(&json, &x.fs);
	ck_assert_ptr_nonnull(strstr(s, "\"accepted\": true, \"baselined\": true, \"replace\""));
	ck_assert_ptr_nonnull(strstr(s, "\"source\": \"plugin\", \"baselined\": true, \"accepted\": true, \"reason\": null}"));
	ck_assert_ptr_nonnull(strstr(s, "\"summary\": {\"errors\": 0, \"warnings\": 0, \"baselined\": 1, \"accepted\": 0}"));
	free(s);
	drop(&x);
}
END_TEST

/* A use accepted in the source: left out of the text report, JSON gives
 * its reason, SARIF suppresses it in source with the reason as the
 * justification; the finding counts as accepted once every use is. */
START_TEST(test_accepted_in_source)
{
	struct fx x;
	struct ks_report text = { .format = KS_FORMAT_TEXT }, json = { .format = KS_FORMAT_JSON };
	struct ks_report sarif = { .format = KS_FORMAT_SARIF, .source_root = "drv/" };
	char *s, *first, *second;

	make(&x, "What: a\nWhen: 2027-09-01\n", KS_STATUS_SCHEDULED, 272, true);
	add_locs(&x);
	x.f.locs[0].accept_reason = strdup("no \"RTC\" driver");
	s = render(&text, &x.fs);
	ck_assert_ptr_null(strstr(s, "drv/m.c:42:"));
	ck_assert_ptr_nonnull(strstr(s, "drv/m.c:50:12: warning: address of 'a'"));
	ck_assert_uint_eq(text.tally.warnings, 1);
	free(s);
	s = render(&json, &x.fs);
	ck_assert_ptr_nonnull(strstr(s, "\"baselined\": false, \"accepted\": true, "
					"\"reason\": \"no \\\"RTC\\\" driver\"}"));
	ck_assert_ptr_nonnull(strstr(s, "\"accepted\": false, \"baselined\": false, \"replace\""));
	free(s);
	s = render(&sarif, &x.fs);
	first = strstr(s, "\"startLine\": 42");
	second = first ? strstr(first, "\"startLine\": 50") : NULL;
	ck_assert_msg(first && second, "%s", s);
	ck_assert_msg(strstr(first, "\"suppressions\": [{\"kind\": \"inSource\", \"status\": "
				    "\"accepted\", \"justification\": \"no \\\"RTC\\\" driver\"}]") < second,
		      "%s", s);
	ck_assert_ptr_nonnull(strstr(second, "\"suppressions\": []"));
	free(s);
	/* both uses accepted, one by the baseline: the finding counts as accepted */
	x.f.locs[1].baselined = true;
	s = render(&text, &x.fs);
	ck_assert_str_eq(s, "");
	ck_assert_uint_eq(text.tally.accepted, 1);
	ck_assert_uint_eq(text.tally.warnings, 0);
	free(s);
	s = render(&sarif, &x.fs);
	ck_assert_ptr_nonnull(strstr(s, "\"justification\": \"accepted by the ksunset baseline\"}]"));
	free(s);
	s = render(&json, &x.fs);
	ck_assert_ptr_nonnull(strstr(s, "\"accepted\": true, \"baselined\": false, \"replace\""));
	ck_assert_ptr_nonnull(strstr(s, "\"summary\": {\"errors\": 0, \"warnings\": 0, \"baselined\": 0, \"accepted\": 1}"));
	free(s);
	drop(&x);
}
END_TEST

/* Overdue: the reason is shown, the use is not accepted. */
START_TEST(test_accepted_overdue)
{
	struct fx x;
	struct ks_report json = { .format = KS_FORMAT_JSON }, text = { .format = KS_FORMAT_TEXT };
	struct ks_report sarif = { .format = KS_FORMAT_SARIF, .source_root = "drv/" };
	char *s;

	make(&x, "What: a\nWhen: 2026-06-01\n", KS_STATUS_OVERDUE, -185, true);
	add_locs(&x);
	x.f.nlocs = 1;
	x.f.locs[0].accept_reason = strdup("known");
	s = render(&text, &x.fs);
	ck_assert_ptr_nonnull(strstr(s, "drv/m.c:42:9: error: call to 'a'"));
	ck_assert_uint_eq(text.tally.errors, 1);
	free(s);
	s = render(&json, &x.fs);
	ck_assert_ptr_nonnull(strstr(s, "\"baselined\": false, \"accepted\": false, \"reason\": \"known\"}"));
	free(s);
	s = render(&sarif, &x.fs);
	ck_assert_ptr_nonnull(strstr(s, "\"suppressions\": []"));
	ck_assert_ptr_null(strstr(s, "inSource"));
	free(s);
	x.f.nlocs = 2;
	drop(&x);
}
END_TEST

/* GCC's display column (tabs to the next multiple of 8, wide characters
 * two) as SARIF's UTF-16 column (a tab one unit, beyond the BMP two). */
static const struct {
	const char *line;
	unsigned dcol;
	int r;
	unsigned col;
} columns[] = {
	{ "abc", 2, 0, 2 },
	{ "\tfoo(x);", 9, 0, 2 },		/* a tab is 8 columns, one unit */
	{ "  \tfoo", 9, 0, 4 },			/* to the next multiple of 8 */
	{ "\t\tx", 17, 0, 3 },
	{ "\tunsigned long v = f(\"42\");", 27, 0, 20 },
	{ "a\tb", 9, 0, 3 },
	{ "\xc3\xa9 = f()", 5, 0, 5 },		/* two bytes, one column, one unit */
	{ "\xe6\x99\x82\xe8\xa8\x88 f", 6, 0, 4 },	/* wide: two columns, one unit */
	{ "\xf0\x9f\x98\x80 f", 4, 0, 4 },	/* beyond the BMP: two columns, two units */
	{ "e\xcc\x81x", 2, 0, 3 },		/* a combining mark: no column */
	{ "\xff x", 3, 0, 3 },			/* an invalid byte: one column */
	{ "\xe6\x99", 1, 0, 1 },		/* a cut sequence: a byte each */
	{ "\tx", 5, -ERANGE, 0 },		/* inside the tab */
	{ "\xe6\x99\x82x", 2, -ERANGE, 0 },	/* inside the wide character */
	{ "abc", 4, -ERANGE, 0 },		/* past the end */
	{ "abc", 0, -ERANGE, 0 },		/* GCC's unknown column */
	{ "", 1, -ERANGE, 0 },
};

START_TEST(test_column)
{
	unsigned col = 0;
	int r = ks_column_utf16(columns[_i].line, strlen(columns[_i].line), columns[_i].dcol, &col);

	ck_assert_msg(r == columns[_i].r && (r || col == columns[_i].col),
		      "case %d: '%s' display column %u: got %d/%u, want %d/%u", _i, columns[_i].line,
		      columns[_i].dcol, r, col, columns[_i].r, columns[_i].col);
}
END_TEST

/* The line comes from the file: without its CR LF, line 1 without a BOM. */
START_TEST(test_column_in_file)
{
	char path[] = "/tmp/ksunset-column-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	unsigned col = 0;

	ck_assert_ptr_nonnull(f);
	fputs("\xef\xbb\xbfint x;\r\n\tint y = f();\r\n", f);
	fclose(f);
	ck_assert_int_eq(ks_column_in_file(path, 1, 5, &col), 0);
	ck_assert_uint_eq(col, 5);
	ck_assert_int_eq(ks_column_in_file(path, 2, 17, &col), 0);
	ck_assert_uint_eq(col, 10);
	ck_assert_int_eq(ks_column_in_file(path, 2, 21, &col), -ERANGE);	/* the CR is gone */
	ck_assert_int_eq(ks_column_in_file(path, 3, 1, &col), -ERANGE);
	ck_assert_int_eq(ks_column_in_file(path, 0, 1, &col), -ERANGE);
	unlink(path);
	ck_assert_int_eq(ks_column_in_file(path, 1, 1, &col), -ENOENT);
	ck_assert_int_eq(ks_column_in_file("/tmp", 1, 1, &col), -EIO);
}
END_TEST

static const struct ks_migration unaligned = {
	.name = "asm/unaligned.h",
	.of = 726,
	.rw = { { KS_RW_HEADER, 0, "linux/unaligned.h", 718, "a.c:1" } },
	.nrw = 1,
};

/* Where a header's name stands in its #include: GCC's display columns (a
 * tab to the next multiple of 8) and SARIF's UTF-16 ones. */
START_TEST(test_include_columns)
{
	char path[] = "/tmp/ks-include-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	const struct ks_rewrite *rw = &unaligned.rw[0];
	struct ks_edit e;

	ck_assert_ptr_nonnull(f);
	fputs("#include\t<asm/unaligned.h>\r\n"
	      "  #  include \"asm/unaligned.h\"\n"
	      "#include <asm/unaligned.hh>\n"
	      "int asm_unaligned; /* <asm/unaligned.h> */\n",
	      f);
	fclose(f);
	ck_assert_int_eq(ks_edit_file(&unaligned, rw, path, 1, NULL, &e), 0);
	ck_assert_uint_eq(e.dcol[0], 18);
	ck_assert_uint_eq(e.dcol[1], 33);
	ck_assert_uint_eq(e.ucol[0], 11);
	ck_assert_uint_eq(e.ucol[1], 26);
	ck_assert_str_eq(e.with, "linux/unaligned.h");
	ck_assert_str_eq(e.before, "asm/unaligned.h");
	ks_edit_free(&e);
	ck_assert_int_eq(ks_edit_file(&unaligned, rw, path, 2, NULL, &e), 0);
	ck_assert_uint_eq(e.dcol[0], 15);
	ck_assert_uint_eq(e.ucol[1], 30);
	ks_edit_free(&e);
	/* another header, not a directive, past the end: not there */
	ck_assert_int_eq(ks_edit_file(&unaligned, rw, path, 3, NULL, &e), -ERANGE);
	ck_assert_int_eq(ks_edit_file(&unaligned, rw, path, 4, NULL, &e), -ERANGE);
	ck_assert_int_eq(ks_edit_file(&unaligned, rw, path, 5, NULL, &e), -ERANGE);
	unlink(path);
	ck_assert_int_eq(ks_edit_file(&unaligned, rw, path, 1, NULL, &e), -ENOENT);
}
END_TEST

/* A call's argument dropped or inserted, on the line as the compiler reads
 * it: the name whole, strings and comments skipped, every argument on the
 * line. */
static const struct {
	enum ks_rewrite_op op;
	unsigned arg;
	const char *text, *line, *after;	/* after NULL: -ERANGE */
	unsigned col;				/* of the edit, GCC's */
} calls[] = {
	{ KS_RW_DROP, 1, NULL, "\tc = class_create(THIS_MODULE, \"x, y\");",
	  "class_create(\"x, y\")", 26 },
	{ KS_RW_DROP, 2, NULL, "c = class_create(a, f(b, c));", "class_create(a)", 19 },
	{ KS_RW_DROP, 1, NULL, "c = class_create( a );", "class_create(  )", 19 },
	{ KS_RW_DROP, 3, NULL, "c = class_create(a, b);", NULL, 0 },
	{ KS_RW_DROP, 1, NULL, "c = my_class_create(a, b);", NULL, 0 },
	{ KS_RW_DROP, 1, NULL, "s = \"class_create(a, b)\"; /* class_create(a) */", NULL, 0 },
	{ KS_RW_DROP, 1, NULL, "c = class_create(THIS_MODULE,", NULL, 0 },
	{ KS_RW_DROP, 1, NULL, "p(\"(\"); c = class_create (a, ')', b);",
	  "class_create (')', b)", 27 },
	{ KS_RW_INSERT, 2, "1", "static DEFINE_SEMAPHORE(lock);", "DEFINE_SEMAPHORE(lock, 1)", 29 },
	{ KS_RW_INSERT, 1, "1", "static DEFINE_SEMAPHORE(lock);", "DEFINE_SEMAPHORE(1, lock)", 25 },
	{ KS_RW_INSERT, 1, "1", "f(class_create());", "class_create(1)", 16 },
	{ KS_RW_INSERT, 3, "1", "DEFINE_SEMAPHORE(lock);", NULL, 0 },
	/* an assignment become a call: the statement whole on the line */
	{ KS_RW_CALL, 0, "vm_flags_set", "\tvma->vm_flags |= VM_IO | VM_DONTEXPAND; /* x */",
	  "vm_flags_set(vma, VM_IO | VM_DONTEXPAND);", 9 },
	{ KS_RW_CALL, 0, "vm_flags_set", "\tp->vma->vm_flags |= VM_IO |", NULL, 0 },
	{ KS_RW_CALL, 0, "vm_flags_set", "\tf = vma->vm_flags |= VM_IO;", NULL, 0 },
	{ KS_RW_CALL, 0, "vm_flags_set", "\tvma->vm_flags &= ~VM_IO;", NULL, 0 },
	{ KS_RW_CALL, 0, "vm_flags_set", "\tv.vm_flags |= f(a, \";\");",
	  "vm_flags_set(&v, f(a, \";\"));", 9 },
	/* an assignment of a whole call of F ("i_ctime = current_time()"):
	 * the call with the object alone; a chain's inner link as a value,
	 * its outer link once the inner one is a call */
	{ KS_RW_CALL, 0, "inode_set_ctime_current", "\tinode->i_ctime = current_time(inode);",
	  "inode_set_ctime_current(inode);", 9 },
	{ KS_RW_CALL, 0, "inode_set_ctime_current",
	  "\tdir->i_mtime = inode->i_ctime = current_time(inode);",
	  "inode_set_ctime_current(inode)", 24 },
	{ KS_RW_CALL, 0, "inode_set_ctime_current", "\tinode->i_ctime = current_time(inode) + 1;",
	  NULL, 0 },
	{ KS_RW_CALL, 0, "inode_set_ctime_current", "\tinode->i_ctime = now(inode);", NULL, 0 },
	{ KS_RW_CALL, 0, "inode_set_ctime_current", "\tif (x == inode->i_ctime = current_time(i))",
	  NULL, 0 },
	{ KS_RW_CALL, 0, "inode_set_mtime_to_ts",
	  "\tdir->i_mtime = inode->i_ctime = current_time(inode);", NULL, 0 },
	{ KS_RW_CALL, 0, "inode_set_mtime_to_ts",
	  "\tdir->i_mtime = inode_set_ctime_current(inode); /* = */",
	  "inode_set_mtime_to_ts(dir, inode_set_ctime_current(inode));", 9 },
	{ KS_RW_CALL, 0, "inode_set_mtime_to_ts", "\tx.i_atime = t, x.i_mtime = ts;",
	  NULL, 0 },
	{ KS_RW_CALL, 0, "inode_set_mtime_to_ts", "\tt = x.i_mtime = ts;",
	  "inode_set_mtime_to_ts(&x, ts)", 13 },
	{ KS_RW_CALL, 0, "inode_set_mtime_to_ts", "\tt += x.i_mtime = ts;",
	  "inode_set_mtime_to_ts(&x, ts)", 14 },
	{ KS_RW_CALL, 0, "inode_set_mtime_to_ts", "\tt = x.i_mtime += ts;", NULL, 0 },
	/* a name gone, dropped from the flags it was OR-ed with: the line
	 * before and after */
	{ KS_RW_OMIT, 0, NULL, "\tc = kmem_cache_create(\"x\", 8, 0, A | NAME, NULL); /* | NAME */",
	  "c = kmem_cache_create(\"x\", 8, 0, A, NULL);", 43 },
	{ KS_RW_OMIT, 0, NULL, "\t.flags = NAME|A,", ".flags = A,", 18 },
	{ KS_RW_OMIT, 0, NULL, "\tf(A |\tNAME);", "f(A);", 12 },
	/* standing alone (an argument, a value): 0 */
	{ KS_RW_OMIT, 0, NULL, "\t.flags = NAME,", ".flags = 0,", 18 },
	{ KS_RW_OMIT, 0, NULL, "\tc = KMEM_CACHE(x, NAME);", "c = KMEM_CACHE(x, 0);", 27 },
	{ KS_RW_OMIT, 0, NULL, "\t\tNAME, NULL);", "0, NULL);", 17 },
	{ KS_RW_OMIT, 0, NULL, "\tx = NAME;", "x = 0;", 13 },
	{ KS_RW_OMIT, 0, NULL, "\tif (x == NAME)", NULL, 0 },
	{ KS_RW_OMIT, 0, NULL, "\tx &= NAME;", NULL, 0 },
	{ KS_RW_OMIT, 0, NULL, "\tif (x & NAME)", NULL, 0 },
	{ KS_RW_OMIT, 0, NULL, "\tif (a || NAME)", NULL, 0 },
	{ KS_RW_OMIT, 0, NULL, "\tx |= NAME;", NULL, 0 },
	{ KS_RW_OMIT, 0, NULL, "\tx = MY_NAME | A;", NULL, 0 },
	/* a name gone, its line deleted: a statement or initializer whole */
	{ KS_RW_DELETE, 0, NULL, "\t.llseek = NAME, /* gone */", "", 9 },
	{ KS_RW_DELETE, 0, NULL, "\tNAME(page);", "", 9 },
	{ KS_RW_DELETE, 0, NULL, "  info->flags = NAME;\r", "", 3 },
	{ KS_RW_DELETE, 0, NULL, "\tif (x) NAME(page);", NULL, 0 },
	{ KS_RW_DELETE, 0, NULL, "\treturn NAME;", NULL, 0 },
	{ KS_RW_DELETE, 0, NULL, "\tNAME(page,", NULL, 0 },
	{ KS_RW_DELETE, 0, NULL, "\t\tNAME, 1);", NULL, 0 },
	{ KS_RW_DELETE, 0, NULL, "\tx = NAME, y = 1,", NULL, 0 },
	{ KS_RW_DELETE, 0, NULL, "\tdo { NAME(p); } while (0);", NULL, 0 },
	{ KS_RW_DELETE, 0, NULL, "\ts = \"NAME\";", NULL, 0 },
	{ KS_RW_DELETE, 0, NULL, "\tx = NAME(page);", NULL, 0 },
	{ KS_RW_DELETE, 0, NULL, "\tinfo->flags = NAME | B;", NULL, 0 },
	{ KS_RW_DELETE, 0, NULL, "\t.open = my_open, .x = NAME,", NULL, 0 },
	{ KS_RW_DELETE, 0, NULL, "\tNAME(a) + 1;", NULL, 0 },
	{ KS_RW_DELETE, 0, NULL, "\t.p = & NAME ,", "", 9 },
	{ KS_RW_DELETE, 0, NULL, "\tif (a == NAME) x();", NULL, 0 },
	/* a member gone's initializer deleted: it whole, of that member */
	{ KS_RW_DELETE, 0, "initializer", "\t.output_poll_changed = NULL,", "", 9 },
	{ KS_RW_DELETE, 0, "initializer", "  . output_poll_changed= f(a, \"}\"),", "", 3 },
	{ KS_RW_DELETE, 0, "initializer", "\t.output_poll_changed_x = NULL,", NULL, 0 },
	{ KS_RW_DELETE, 0, "initializer", "\t.fb_create = output_poll_changed,", NULL, 0 },
	{ KS_RW_DELETE, 0, "initializer", "\t.output_poll_changed = f(a,", NULL, 0 },
	{ KS_RW_DELETE, 0, "initializer", "\t.output_poll_changed = NULL, .x = 1 }, {", NULL, 0 },
	{ KS_RW_DELETE, 0, "initializer", "\tp->output_poll_changed = NULL;", NULL, 0 },
	{ KS_RW_DELETE, 0, "initializer", "\t.output_poll_changed == NULL,", NULL, 0 },
	/* an initializer's last member, without its ',': only before a '}' */
	{ KS_RW_DELETE, 0, NULL, "\t.llseek = NAME", NULL, 0 },
	/* a member gone, read: each read on the line, as the accessor's call
	 * of what comes before the '.' or '->' */
	{ KS_RW_CALL, 0, "fd_file", "\tif (!f.file)", "fd_file(f)", 14 },
	{ KS_RW_CALL, 0, "fd_file", "if (f.file && f.file->f_inode) {", "fd_file(f) && fd_file(f)", 5 },
	{ KS_RW_CALL, 0, "fd_file", "\tstruct file *f = nvfsio->fd.file;", "fd_file(nvfsio->fd)", 26 },
	{ KS_RW_CALL, 0, "fd_file", "x = use(a[i].fd . file, 1);", "fd_file(a[i].fd)", 9 },
	{ KS_RW_CALL, 0, "fd_file", "\tf.file = NULL;", NULL, 0 },
	{ KS_RW_CALL, 0, "fd_file", "\tp = &f.file;", NULL, 0 },
	{ KS_RW_CALL, 0, "fd_file", "\t.file = x,", NULL, 0 },
	{ KS_RW_CALL, 0, "fd_file", "s = \"f.file\"; /* g.file */", NULL, 0 },
	{ KS_RW_CALL, 0, "fd_file", "f.file_ops = g.files;", NULL, 0 },
	/* a field of a member gone read: the read of it whole, as the
	 * getter of the field in-tree code called; the whole member's getter
	 * keeps the field after it; a field written is no read */
	{ KS_RW_CALL, 0, "inode_get_mtime_sec", "\tt = ip->i_mtime.tv_sec ;",
	  "inode_get_mtime_sec(ip)", 13 },
	{ KS_RW_CALL, 0, "inode_get_mtime_sec", "\tt = a[0]->i_mtime . tv_sec + ip->i_mtime.tv_nsec;",
	  "inode_get_mtime_sec(a[0])", 13 },
	{ KS_RW_CALL, 0, "inode_get_mtime_sec", "\tif ((long)now.tv_sec - (long)ip->i_mtime.tv_sec >= 24*60*60)",
	  "inode_get_mtime_sec(ip)", 38 },
	{ KS_RW_CALL, 0, "inode_get_mtime_sec", "\tastat->mtime = OSIFILE_INODE(afile)->i_mtime.tv_sec;",
	  "inode_get_mtime_sec(OSIFILE_INODE(afile))", 24 },
	{ KS_RW_CALL, 0, "inode_get_mtime_sec", "\tt = (x)->i_mtime.tv_sec;", "inode_get_mtime_sec((x))", 13 },
	{ KS_RW_CALL, 0, "inode_get_mtime_sec", "\tt = a[f(1)].ip->i_mtime.tv_sec;", "inode_get_mtime_sec(a[f(1)].ip)", 13 },
	{ KS_RW_CALL, 0, "inode_get_mtime_sec", "\tt = ip->i_mtime;", NULL, 0 },
	{ KS_RW_CALL, 0, "inode_get_mtime_sec", "\tip->i_mtime.tv_sec = t;", NULL, 0 },
	{ KS_RW_CALL, 0, "inode_get_mtime_sec", "\tt = ip->i_mtime.tv_secs;", NULL, 0 },
	{ KS_RW_CALL, 0, "inode_get_mtime", "\tt = ip->i_mtime.tv_sec;", "inode_get_mtime(ip)", 13 },
	{ KS_RW_CALL, 0, "inode_get_mtime", "\tip->i_mtime.tv_sec = t;", NULL, 0 },
	{ KS_RW_CALL, 0, "inode_get_mtime", "\tip->i_mtime.tv_nsec++;", NULL, 0 },
	/* a rename needs the name alone, its arguments may run on */
	{ KS_RW_RENAME, 0, "new_create", "\tc = class_create(THIS_MODULE,", "new_create", 13 },
	{ KS_RW_RENAME, 0, "new_create", "f(\"class_create\", my_class_create, class_create2);",
	  NULL, 0 },
	/* a callback's head, its parameters on the line: const before a
	 * parameter's type or the return type, a struct's name replaced */
	{ KS_RW_CONST, 1, NULL, "static char *x_devnode(struct device *dev, umode_t *mode)",
	  "static char *x_devnode(const struct device *dev, umode_t *mode)", 24 },
	{ KS_RW_CONST, 2, NULL, "static int x_devnode(struct device *d, struct device_driver *drv)",
	  "static int x_devnode(struct device *d, const struct device_driver *drv)", 40 },
	{ KS_RW_CONST, 0, NULL, "static inline __u8 *x_devnode(struct hid_device *h, __u8 *r)",
	  "static inline const __u8 *x_devnode(struct hid_device *h, __u8 *r)", 15 },
	{ KS_RW_CONST, 0, NULL, "x_devnode(struct device *dev)", NULL, 0 },
	{ KS_RW_CONST, 1, NULL, "static char *x_devnode(const struct device *dev, umode_t *m)", NULL,
	  0 },
	{ KS_RW_CONST, 3, NULL, "static char *x_devnode(struct device *dev, umode_t *m)", NULL, 0 },
	{ KS_RW_CONST, 1, NULL, "static char *x_devnode(struct device *dev,", NULL, 0 },
	{ KS_RW_CONST, 1, NULL, "static char *my_x_devnode(struct device *dev)", NULL, 0 },
	{ KS_RW_RETYPE, 1, "struct mnt_idmap", "int x_devnode(struct user_namespace *ns, int m)",
	  "int x_devnode(struct mnt_idmap *ns, int m)", 22 },
	{ KS_RW_RETYPE, 2, "struct mnt_idmap", "int x_devnode(struct user_namespace *ns, int m)", NULL,
	  0 },
	{ KS_RW_RETYPE, 1, "struct mnt_idmap", "int x_devnode(struct mnt_idmap *ns)", NULL, 0 },
	/* an argument passed instead of another, where the call passes that
	 * text (the old one: "&init_user_ns") */
	{ KS_RW_REPLACE, 1, "&nop_mnt_idmap", "\tx = class_create(&init_user_ns, d, a);",
	  "class_create(&nop_mnt_idmap, d, a)", 26 },
	{ KS_RW_REPLACE, 2, "&nop_mnt_idmap", "\tclass_create(a, &init_user_ns );",
	  "class_create(a, &nop_mnt_idmap )", 25 },
	{ KS_RW_REPLACE, 1, "&nop_mnt_idmap", "\tclass_create(mnt_userns, d, a);", NULL, 0 },
	{ KS_RW_REPLACE, 1, "&nop_mnt_idmap", "\tclass_create(&init_user_ns_x, d);", NULL, 0 },
	{ KS_RW_REPLACE, 3, "&nop_mnt_idmap", "\tclass_create(&init_user_ns, d);", NULL, 0 },
	{ KS_RW_REPLACE, 1, "&nop_mnt_idmap", "\tclass_create(&init_user_ns,", NULL, 0 },
	{ KS_RW_RETYPE, 1, "struct mnt_idmap", "int x_devnode(struct user_namespace_x *ns)", NULL,
	  0 },
	/* the older headers' wrapper, where the call passes what it passes
	 * itself: the whole call, that argument left out */
	{ KS_RW_WRAP, 2, "hid_is_usb", "\tif (!class_create(hdev, &usb_hid_driver ))",
	  "hid_is_usb(hdev)", 14 },
	{ KS_RW_WRAP, 1, "hid_is_usb", "\tx = class_create(&usb_hid_driver, a, b);",
	  "hid_is_usb(a, b)", 13 },
	{ KS_RW_WRAP, 2, "hid_is_usb", "\tif (!class_create(hdev, &my_driver))", NULL, 0 },
	{ KS_RW_WRAP, 3, "hid_is_usb", "\tif (!class_create(hdev, &usb_hid_driver))", NULL, 0 },
	{ KS_RW_WRAP, 2, "hid_is_usb", "\tif (!class_create(hdev,", NULL, 0 },
};

START_TEST(test_call_edit)
{
	struct ks_migration m = { .name = (char *)"class_create", .call = true, .of = 3, .nrw = 1 };
	struct ks_edit e;
	int r;

	if (strstr(calls[_i].line, "SEMAPHORE"))
		m.name = (char *)"DEFINE_SEMAPHORE";
	if (calls[_i].op == KS_RW_OMIT || calls[_i].op == KS_RW_DELETE)
		m.name = (char *)"NAME";
	if (calls[_i].op == KS_RW_DELETE && calls[_i].text)
		m.name = (char *)"struct drm_mode_config_funcs.output_poll_changed", m.callback = true;
	if (calls[_i].op == KS_RW_CALL && !strcmp(calls[_i].text, "fd_file"))
		m.name = (char *)"struct fd.file", m.read = true, m.member = (char *)"file";
	else if (calls[_i].op == KS_RW_CALL && !strcmp(calls[_i].text, "inode_get_mtime_sec"))
		m.name = (char *)"struct inode.i_mtime.tv_sec", m.read = true,
		m.member = (char *)"i_mtime", m.field = (char *)"tv_sec";
	else if (calls[_i].op == KS_RW_CALL && !strcmp(calls[_i].text, "inode_get_mtime"))
		m.name = (char *)"struct inode.i_mtime", m.read = true, m.member = (char *)"i_mtime";
	else if (calls[_i].op == KS_RW_CALL && !strcmp(calls[_i].text, "inode_set_ctime_current"))
		m.name = (char *)"i_ctime = current_time()", m.assign = true;
	else if (calls[_i].op == KS_RW_CALL && !strcmp(calls[_i].text, "inode_set_mtime_to_ts"))
		m.name = (char *)"i_mtime =", m.assign = true;
	else if (calls[_i].op == KS_RW_CALL)
		m.name = (char *)"vm_flags |=", m.assign = true;
	if (calls[_i].op == KS_RW_CONST || calls[_i].op == KS_RW_RETYPE)
		m.name = (char *)"struct class.devnode", m.callback = true;
	m.rw[0] = (struct ks_rewrite){ calls[_i].op, calls[_i].arg, (char *)calls[_i].text, 3, NULL,
				       (char *)"struct user_namespace", 0 };
	if (calls[_i].op == KS_RW_REPLACE)
		m.name = (char *)"class_create 1 &init_user_ns", m.argument = true,
		m.rw[0].from = (char *)"&init_user_ns";
	if (calls[_i].op == KS_RW_WRAP)
		m.rw[0].from = (char *)"&usb_hid_driver";
	r = ks_edit_line(&m, &m.rw[0], calls[_i].line, strlen(calls[_i].line),
			 m.callback ? &(struct ks_callee){ "x_devnode", NULL, NULL, NULL } : NULL, &e);
	if (!calls[_i].after) {
		ck_assert_int_eq(r, -ERANGE);
		return;
	}
	ck_assert_int_eq(r, 0);
	ck_assert_str_eq(e.after, calls[_i].after);
	ck_assert_uint_eq(e.dcol[0], calls[_i].col);
	ks_edit_free(&e);
}
END_TEST

/* Several rewrites of one line, each of the line the ones before left: a
 * chain's inner link first, whatever their order; one that never applies
 * left undone; a line that names neither, nothing made. */
START_TEST(test_compose)
{
	struct ks_migration ctime = { .name = (char *)"i_ctime = current_time()", .call = true,
				      .assign = true, .nrw = 1 },
			    mtime = { .name = (char *)"i_mtime =", .call = true, .assign = true,
				      .nrw = 1 },
			    flags = { .name = (char *)"vm_flags |=", .call = true, .assign = true,
				      .nrw = 1 };
	const struct ks_migration *e[3] = { &mtime, &ctime, &flags };
	const struct ks_rewrite *rw[3] = { &mtime.rw[0], &ctime.rw[0], &flags.rw[0] };
	static const char line[] = "\tdir->i_mtime = dir->i_ctime = current_time(dir); /* x */",
			  other[] = "s = \"->i_ctime\"; /* .i_ctime */ my_i_ctime = i_ctime;";
	bool done[3];
	char *out;

	ctime.rw[0] = (struct ks_rewrite){ KS_RW_CALL, 0, (char *)"inode_set_ctime_current", 3,
					   NULL, NULL, 0 };
	mtime.rw[0] = (struct ks_rewrite){ KS_RW_CALL, 0, (char *)"inode_set_mtime_to_ts", 3, NULL,
					   NULL, 0 };
	flags.rw[0] = (struct ks_rewrite){ KS_RW_CALL, 0, (char *)"vm_flags_set", 3, NULL, NULL, 0 };
	ck_assert_uint_eq(ks_edit_compose(e, rw, 3, line, strlen(line), &out, done), 2);
	ck_assert_str_eq(out, "\tinode_set_mtime_to_ts(dir, inode_set_ctime_current(dir)); /* x */");
	ck_assert(done[0] && done[1] && !done[2]);
	ck_assert(!ks_line_accesses(out, strlen(out), "i_mtime"));
	ck_assert(ks_line_accesses(line, strlen(line), "i_ctime"));
	free(out);
	/* the outer link alone: its value assigns, never made */
	ck_assert_uint_eq(ks_edit_compose(e, rw, 1, line, strlen(line), &out, done), 0);
	ck_assert_str_eq(out, line);
	ck_assert(!done[0]);
	free(out);
	ck_assert(!ks_line_accesses(other, strlen(other), "i_ctime"));
	ck_assert(ks_line_accesses("t = x . i_ctime;", 16, "i_ctime"));
}
END_TEST

/* A file's lines, written to a file of its own (path, to unlink). */
static void write_file(char *path, const char *text)
{
	int fd;
	FILE *f;

	strcpy(path, "/tmp/ks-edit-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* Case i's edit (ks_edit_file()'s r and e): of line, its line after as
 * given, freed; line 0: none, -ERANGE. */
static void edit_is(int r, struct ks_edit *e, size_t i, unsigned line, const char *after)
{
	if (!line) {
		ck_assert_msg(r == -ERANGE, "case %zu: %d, not -ERANGE", i, r);
		return;
	}
	ck_assert_msg(r == 0, "case %zu: %d", i, r);
	ck_assert_uint_eq(e->line, line);
	ck_assert_str_eq(e->after, after);
	ks_edit_free(e);
}

/* Where a callback is defined: its head's ')' followed by '{' on the line
 * or a later one, not a declaration, a call or a longer name; its
 * parameters over several lines, the return type on the line before the
 * name. The edit of a Callback: entry is made there, of the line that has
 * what it rewrites, whatever line the use is on. */
START_TEST(test_callback_head)
{
	char path[] = "/tmp/ks-definition-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	struct ks_migration m = { .name = (char *)"struct class.devnode", .call = true,
				  .callback = true, .of = 3, .nrw = 1 };
	static const struct {
		enum ks_rewrite_op op;
		unsigned arg;
		const char *text, *fn, *type;
		unsigned line;		/* 0: -ERANGE */
		const char *after;
	} cases[] = {
		{ KS_RW_CONST, 1, NULL, "x_devnode", NULL, 4,
		  "static char *x_devnode(const struct device *dev, umode_t *mode)" },
		{ KS_RW_CONST, 1, NULL, "y_match", NULL, 10,
		  "static int y_match(const struct device *d," },
		{ KS_RW_CONST, 2, NULL, "y_match", NULL, 11, "const struct device_driver *drv) {" },
		{ KS_RW_CONST, 0, NULL, "z_fixup", NULL, 12, "static const u8 *" },
		{ KS_RW_RETYPE, 1, "struct mnt_idmap", "w_getattr", NULL, 16,
		  "int w_getattr(struct mnt_idmap *ns, /* (x, y) */" },
		{ KS_RW_RETYPE, 2, "struct mnt_idmap", "w_getattr", NULL, 0, NULL },
		{ KS_RW_CONST, 1, NULL, "use", NULL, 0, NULL },	/* (void) */
		{ KS_RW_CONST, 1, NULL, "nothing", NULL, 0, NULL },
		{ KS_RW_CONST, 1, NULL, NULL, NULL, 0, NULL },
		/* one definition per branch of an #if: the one with the
		 * member's parameters, else the first */
		{ KS_RW_CONST, 1, NULL, "v_uevent", "int (*)(struct device *, struct kobj_uevent_env *)",
		  27, "static int v_uevent(const struct device *dev, struct kobj_uevent_env *env)" },
		{ KS_RW_CONST, 1, NULL, "v_uevent", NULL, 24,
		  "static int v_uevent(const struct device *dev, char **envp, int n)" },
		{ KS_RW_CONST, 1, NULL, "v_uevent", "int (*)(struct device *, int (*)(int, int), int)",
		  24, "static int v_uevent(const struct device *dev, char **envp, int n)" },
		{ KS_RW_CONST, 1, NULL, "v_uevent", "int (*)(void)", 24,
		  "static int v_uevent(const struct device *dev, char **envp, int n)" },
		{ KS_RW_CONST, 1, NULL, "v_uevent", "int (*)(struct device *, struct other *)", 27,
		  "static int v_uevent(const struct device *dev, struct kobj_uevent_env *env)" },
		/* one head per branch, one body: the head whose parameters
		 * spell the type's words */
		{ KS_RW_CONST, 1, NULL, "u_devnode", "char * (*)(struct device *, mode_t *)", 33,
		  "static char *u_devnode(const struct device *dev, mode_t *mode)" },
		{ KS_RW_CONST, 1, NULL, "u_devnode", "char * (*)(struct device *, umode_t *)", 31,
		  "static char *u_devnode(const struct device *dev, umode_t *mode)" },
		{ KS_RW_CONST, 1, NULL, "u_devnode", NULL, 31,
		  "static char *u_devnode(const struct device *dev, umode_t *mode)" },
	};
	struct ks_edit e;

	ck_assert_ptr_nonnull(f);
	fputs("static char *x_devnode(struct device *dev, umode_t *mode);\n"	/* 1 */
	      "static char *my_x_devnode(struct device *dev) { return 0; }\n"
	      "static void use(void) { x_devnode(NULL, NULL); y_match(0, 0); }\n"
	      "static char *x_devnode(struct device *dev, umode_t *mode)\n"
	      "\n"								/* 5 */
	      "{\n"
	      "\treturn NULL;\n"
	      "}\n"
	      "static struct class c = { .devnode = x_devnode };\n"
	      "static int y_match(struct device *d,\n"				/* 10 */
	      "\t\t   struct device_driver *drv) {\n"
	      "static u8 *\n"
	      "z_fixup(struct hid_device *h)\n"
	      "{\n"
	      "}\n"								/* 15 */
	      "int w_getattr(struct user_namespace *ns, /* (x, y) */\n"
	      "\t      const struct path *p)\n"
	      "{\n"
	      "static struct class d = { .devnode = y_devnode, };\n"			/* 19 */
	      "\tc->devnode = &x_devnode;\n"					/* 20 */
	      "\tif (c->devnode == f)\n"
	      "\t.devnode\t= & z_devnode, /* .devnode = w */\n"
	      "#if 0\n"
	      "static int v_uevent(struct device *dev, char **envp, int n)\n"	/* 24 */
	      "{\n"
	      "#else\n"
	      "static int v_uevent(struct device *dev, struct kobj_uevent_env *env)\n"
	      "{\n"
	      "#endif\n"
	      "#if V\n"								/* 30 */
	      "static char *u_devnode(struct device *dev, umode_t *mode)\n"
	      "#else\n"
	      "static char *u_devnode(struct device *dev, mode_t *mode)\n"
	      "#endif\n"
	      "{\n",									/* 35 */
	      f);
	fclose(f);
	for (size_t i = 0; i < KS_ARRAY_SIZE(cases); i++) {
		int r;

		m.rw[0] = (struct ks_rewrite){ cases[i].op, cases[i].arg, (char *)cases[i].text, 3,
					       NULL, (char *)"struct user_namespace", 0 };
		/* line 0: no use stores one, the function given is taken */
		r = ks_edit_file(&m, &m.rw[0], path, 0, &(struct ks_callee){ cases[i].fn, cases[i].type, NULL, NULL },
				 &e);
		edit_is(r, &e, i, cases[i].line, cases[i].after);
	}
	/* the function each line stores in the member; else the fallback */
	for (unsigned line = 19; line <= 23; line++) {
		char *fn = ks_callback_at(&m, path, line, "fallback");
		static const char *const want[] = { "y_devnode", "x_devnode", "fallback", "z_devnode",
						     "fallback" };

		ck_assert_str_eq(fn, want[line - 19]);
		free(fn);
	}
	ck_assert_ptr_null(ks_callback_at(&m, path, 21, NULL));
	unlink(path);
	ck_assert_int_eq(ks_edit_file(&m, &m.rw[0], path, 9, &(struct ks_callee){ "x_devnode", NULL, NULL, NULL }, &e),
			 -ENOENT);
}
END_TEST

/* A callback's parameter dropped: taken out of the definition's head
 * (with the ", " beside it on its line; "void" for the only one) when its
 * body names it only where the Call: entries drop it (an argument of
 * generic_update_time(), whose callers drop that one), members of the same
 * name aside; never when the body reads it, hands it to another function,
 * or the entries are not known; a declaration's head has no body. */
START_TEST(test_callback_drop)
{
	char path[64], mpath[] = "/tmp/ks-drop-XXXXXX";
	int fd = mkstemp(mpath);
	static const char migrations[] = "From: 6.1\nTo: 6.12\n\n"
					 "Call:    generic_update_time\nRewrite: drop 2\n"
					 "Count:   5 of 5\nExample: a.c:1 -> a.c:1\n\n"
					 "Call:    other_time\nRewrite: drop 1\n"
					 "Count:   5 of 5\nExample: a.c:1 -> a.c:1\n";
	struct ks_migrations ms;
	struct ks_diags d = { 0 };
	struct ks_migration m = { .name = (char *)"struct inode_operations.update_time",
				  .call = true, .callback = true, .of = 7, .nrw = 1 };
	static const struct {
		const char *fn;
		unsigned arg;
		bool known;		/* the Call: entries given */
		unsigned line;		/* 0: -ERANGE */
		const char *after;
	} cases[] = {
		{ "a_time", 2, true, 1, "static int a_time(struct inode *inode, int flags)" },
		{ "a_time", 2, false, 0, NULL },
		{ "b_time", 2, true, 0, NULL },		/* reads it */
		{ "c_time", 2, true, 10, "int c_time(struct inode *inode, int flags)" },
		{ "d_time", 2, true, 0, NULL },		/* another function's argument */
		{ "e_time", 3, true, 17, "static int e_time(struct inode *inode, int flags)" },
		{ "f_time", 1, true, 20, "static void f_time(void)" },
		{ "g_time", 2, true, 0, NULL },		/* alone on its line */
		{ "h_time", 2, true, 0, NULL },		/* other_time drops another */
		{ "i_time", 2, true, 30, "int i_time(struct inode *inode, int flags);" },
	};
	static const char type[] = "int (*)(struct inode *, struct timespec64 *, int)";

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, migrations, sizeof(migrations) - 1), (int)sizeof(migrations) - 1);
	close(fd);
	ck_assert_int_eq(ks_migrations_load(&ms, mpath, &d), 0);
	unlink(mpath);
	write_file(path,
		   "static int a_time(struct inode *inode, struct timespec64 *time, int flags)\n" /* 1 */
		   "{\n"
		   "\treturn generic_update_time(inode, time, flags); /* time */\n"
		   "}\n"
		   "static int b_time(struct inode *inode, struct timespec64 *time, int flags)\n" /* 5 */
		   "{\n"
		   "\treturn time->tv_sec ? flags : 0;\n"
		   "}\n"
		   "\n"
		   "int c_time(struct inode *inode, struct timespec64 *time, int flags)\n"	/* 10 */
		   "{\n"
		   "\treturn inode->time + x.time + flags;\n"
		   "}\n"
		   "static int d_time(struct inode *inode, struct timespec64 *time, int flags) {\n"
		   "\treturn generic_update_time(inode, flags, time);\n"			/* 15 */
		   "}\n"
		   "static int e_time(struct inode *inode, int flags, void *unused)\n"
		   "{\n"
		   "}\n"
		   "static void f_time(void *unused)\n"					/* 20 */
		   "{\n"
		   "}\n"
		   "static int g_time(struct inode *inode,\n"
		   "\t\t  struct timespec64 *time,\n"
		   "\t\t  int flags)\n"							/* 25 */
		   "{\n"
		   "}\n"
		   "static int h_time(struct inode *inode, struct timespec64 *time, int flags)\n"
		   "{ return other_time(inode, time); }\n"
		   "int i_time(struct inode *inode, struct timespec64 *time, int flags);\n");	/* 30 */
	for (size_t i = 0; i < KS_ARRAY_SIZE(cases); i++) {
		struct ks_edit e;
		int r;

		m.rw[0] = (struct ks_rewrite){ KS_RW_DROP, cases[i].arg, NULL, 7, NULL, NULL, 0 };
		r = ks_edit_file(&m, &m.rw[0], path, cases[i].line,
				 &(struct ks_callee){ cases[i].fn, type, cases[i].known ? &ms : NULL, NULL }, &e);
		edit_is(r, &e, i, cases[i].line, cases[i].after);
	}
	unlink(path);
	ks_migrations_free(&ms);
}
END_TEST

/* A parameter dropped that the body uses otherwise: with the local
 * in-tree bodies declared in its place (ks_migration_local()), the head
 * loses it and the declaration goes on a line of its own after the
 * body's '{', indented as the body's first line, set by the function
 * called with the parameter the local names (after the drop); without
 * the local, or with code after the '{', nothing. */
START_TEST(test_callback_local)
{
	char path[64];
	struct ks_migration m = { .name = (char *)"struct i2c_driver.probe", .call = true,
				  .callback = true, .of = 610, .nrw = 2 };
	static const struct {
		const char *fn;
		bool local;
		unsigned line;		/* 0: -ERANGE */
		const char *after, *decl;
		unsigned local_line;
	} cases[] = {
		{ "a_probe", true, 1, "static int a_probe(struct i2c_client *client)",
		  "        const struct i2c_device_id *id = i2c_client_get_device_id(client);", 2 },
		{ "a_probe", false, 0, NULL, NULL, 0 },
		{ "b_probe", true, 6, "static int b_probe(struct i2c_client *cl) {",
		  "\tconst struct i2c_device_id *id = i2c_client_get_device_id(cl);", 6 },
		{ "c_probe", true, 0, NULL, NULL, 0 },		/* alone on its line */
		{ "d_probe", true, 0, NULL, NULL, 0 },		/* code after the '{' */
		{ "e_probe", true, 14, "static int e_probe(struct i2c_client *c)", NULL, 0 },
	};
	static const char type[] = "int (*)(struct i2c_client *, const struct i2c_device_id *)";

	m.rw[0] = (struct ks_rewrite){ KS_RW_DROP, 2, NULL, 610, (char *)"a.c:1", NULL, 0 };
	m.rw[1] = (struct ks_rewrite){ KS_RW_LOCAL, 2, (char *)"i2c_client_get_device_id", 160,
				       (char *)"a.c:2", NULL, 1 };
	ck_assert_ptr_eq(ks_migration_local(&m, &m.rw[0]), &m.rw[1]);
	write_file(path,
		   "static int a_probe(struct i2c_client *client, const struct i2c_device_id *id)\n"
		   "{\n"
		   "        struct x *p = client->priv;\n"
		   "        return id->driver_data + p->n;\n"
		   "}\n"
		   "static int b_probe(struct i2c_client *cl, const struct i2c_device_id *id) {\n" /* 6 */
		   "\treturn id->driver_data;\n}\n"
		   "static int c_probe(struct i2c_client *client,\n"
		   "\t\t   const struct i2c_device_id *id)\n"					/* 10 */
		   "{ return id ? 1 : 0; }\n"
		   "static int d_probe(struct i2c_client *client, const struct i2c_device_id *id)\n"
		   "{ return id ? 1 : 0; }\n"
		   "static int e_probe(struct i2c_client *c, const struct i2c_device_id *id)\n"
		   "{\n"										/* 15 */
		   "\treturn c->addr;\n"
		   "}\n");
	for (size_t i = 0; i < KS_ARRAY_SIZE(cases); i++) {
		struct ks_edit e;
		int r = ks_edit_file(&m, &m.rw[0], path, cases[i].line,
				     &(struct ks_callee){ cases[i].fn, type, NULL,
							  cases[i].local ? &m.rw[1] : NULL },
				     &e);

		if (r == 0 && cases[i].decl) {
			ck_assert_str_eq(e.local, cases[i].decl);
			ck_assert_uint_eq(e.local_line, cases[i].local_line);
			ck_assert_uint_eq(e.local_at, cases[i].line == 6 ? 75 : 1);
		} else if (r == 0) {	/* the body does not use it: no local */
			ck_assert_ptr_null(e.local);
		}
		edit_is(r, &e, i, cases[i].line, cases[i].after);
	}
	unlink(path);
}
END_TEST

/* A callback's heads that its rewrite edits: its definition (the compiled
 * branch's of an #if, over two lines) and each declaration that spells
 * the member's parameters, not another kernel's, nor a call; the edit at a
 * declaration's line is of that declaration. */
START_TEST(test_callback_heads)
{
	char path[32];
	struct ks_migration m = { .name = (char *)"struct bus_type.match", .call = true,
				  .callback = true, .of = 3, .nrw = 1 };
	struct ks_callee fn = { "a_match", "int (*)(struct device *, struct device_driver *)", NULL, NULL };
	struct ks_lines ls;
	struct ks_heads h;
	struct ks_edit e;

	m.rw[0] = (struct ks_rewrite){ KS_RW_CONST, 2, NULL, 3, NULL, NULL, 0 };
	write_file(path, "#include \"x.h\"\n"						/* 1 */
			 "extern int a_match(struct device *dev,\n"
			 "\t\t   struct device_driver *drv);\n"
			 "int a_match(struct device *dev, char **envp);\n"
			 "static int a_match(struct device *dev, struct device_driver *drv);\n" /* 5 */
			 "\treturn a_match(dev, drv);\n"
			 "\tr = a_match(struct_device, device_driver);\n"
			 "#if 0\n"
			 "static int a_match(struct device *dev,\n"
			 "\t\tint old)\n"						/* 10 */
			 "#else\n"
			 "static int a_match(struct device *dev,\n"
			 "\t\tstruct device_driver *drv)\n"
			 "#endif\n"
			 "{\n");								/* 15 */
	ck_assert_int_eq(ks_lines_read(&ls, path), 0);
	ks_callback_heads(&m.rw[0], &ls, &fn, &h);
	ck_assert_uint_eq(h.def, 13);
	ck_assert(h.local);
	ck_assert_uint_eq(h.ndecl, 2);
	ck_assert_uint_eq(h.decl[0], 3);
	ck_assert_uint_eq(h.decl[1], 5);
	ks_heads_free(&h);
	ck_assert_int_eq(ks_edit_at(&m, &m.rw[0], &ls, 5, &fn, &e), 0);
	ck_assert_uint_eq(e.line, 5);
	ck_assert_str_eq(e.after, "static int a_match(struct device *dev, const struct device_driver *drv);");
	ks_edit_free(&e);
	ck_assert_int_eq(ks_edit_at(&m, &m.rw[0], &ls, 3, &fn, &e), 0);
	ck_assert_str_eq(e.after, "const struct device_driver *drv);");
	ks_edit_free(&e);
	/* a line of no head of it: the definition */
	ck_assert_int_eq(ks_edit_at(&m, &m.rw[0], &ls, 6, &fn, &e), 0);
	ck_assert_uint_eq(e.line, 13);
	ks_edit_free(&e);
	ks_lines_free(&ls);
	unlink(path);
	/* no definition, nor a head of it */
	write_file(path, "int a_match(struct device *dev, char **envp);\n");
	ck_assert_int_eq(ks_lines_read(&ls, path), 0);
	ks_callback_heads(&m.rw[0], &ls, &fn, &h);
	ck_assert_uint_eq(h.def, 0);
	ck_assert_uint_eq(h.ndecl, 0);
	ks_heads_free(&h);
	ks_lines_free(&ls);
	unlink(path);
}
END_TEST


static const struct ks_migration algapi = {
	.name = "crypto_register_alg",
	.call = true,
	.include = true,
	.of = 18,
	.rw = { { KS_RW_INCLUDE, 0, "crypto/algapi.h", 18, "a.c:5" } },
	.nrw = 1,
};

/* An Include: entry's #include goes after the last #include before the use
 * that no conditional holds, a header's include guard aside; none when
 * there is no such #include, or the header's is there already. */
START_TEST(test_include_edit)
{
	static const struct {
		const char *text;
		unsigned use, line;	/* line: where it goes; 0, nowhere */
	} cases[] = {
		{ "/* x */\n#include <linux/module.h>\n#include \"own.h\"\n\nint x;\n", 5, 4 },
		{ "#include <linux/module.h>\n#if X\n#include <linux/y.h>\n#endif\nint x;\n", 5, 2 },
		{ "#ifndef OWN_H\n#define OWN_H\n#include <linux/a.h>\n#ifdef B\n#include <b.h>\n"
		  "#endif\nstruct s { int x; };\n#endif\n", 7, 4 },
		/* not a guard: an #ifndef of another name's #define */
		{ "#ifndef A\n#define B\n#include <linux/a.h>\n#endif\nint x;\n", 5, 0 },
		/* nor a macro of the module's own with a value */
		{ "#ifndef pr_fmt\n#define pr_fmt(fmt) KBUILD_MODNAME \": \" fmt\n#endif\n"
		  "#include <linux/a.h>\nint x;\n", 5, 5 },
		{ "#ifndef A\n#define A 1\n#endif\n#include <linux/a.h>\nint x;\n", 5, 5 },
		{ "#ifndef A\n#define A /* guard */\n#include <linux/a.h>\nint x;\n#endif\n", 4, 4 },
		/* an #include after the use does not count */
		{ "int x;\n#include <linux/a.h>\n", 1, 0 },
		{ "#include <linux/a.h>\n#include <crypto/algapi.h>\nint x;\n", 3, 0 },
		{ "#include <linux/a.h>\n#ifdef X\n#include <crypto/algapi.h>\n#endif\nint x;\n", 5,
		  2 },
		{ "  #  include <linux/a.h>\n#  if defined(X)\n# include <b.h>\n# endif\nint x;\n", 5,
		  2 },
		/* a header that includes nothing: after its guard's #define */
		{ "/* c */\n#ifndef OWN_H\n#define OWN_H\n\nstruct s { struct drm_event e; };\n#endif\n",
		  5, 4 },
		{ "#ifndef A\n#define A 1\nint x;\n#endif\n", 3, 0 },
	};
	char path[64];
	struct ks_edit e;

	for (size_t i = 0; i < KS_ARRAY_SIZE(cases); i++) {
		int r;

		write_file(path, cases[i].text);
		r = ks_edit_file(&algapi, &algapi.rw[0], path, cases[i].use, NULL, &e);
		unlink(path);
		if (!cases[i].line) {
			ck_assert_msg(r == -ERANGE, "case %zu: %d, not -ERANGE", i, r);
			continue;
		}
		ck_assert_msg(r == 0, "case %zu: %d", i, r);
		ck_assert_msg(e.line == cases[i].line, "case %zu: line %u", i, e.line);
		ck_assert_str_eq(e.with, "#include <crypto/algapi.h>\n");
		ck_assert_str_eq(e.after, "#include <crypto/algapi.h>");
		ck_assert_ptr_null(e.before);
		ck_assert_uint_eq(e.at[0], 0);
		ck_assert_uint_eq(e.at[1], 0);
		ck_assert_uint_eq(e.dcol[0], 1);
		ks_edit_free(&e);
	}
	/* no line of its own to edit; past the end */
	ck_assert_int_eq(ks_edit_line(&algapi, &algapi.rw[0], "int x;", 6, NULL, &e), -ERANGE);
	write_file(path, "#include <a.h>\nint x;\n");
	ck_assert_int_eq(ks_edit_file(&algapi, &algapi.rw[0], path, 3, NULL, &e), -ERANGE);
	ck_assert_int_eq(ks_edit_file(&algapi, &algapi.rw[0], path, 2, NULL, &e), 0);
	ck_assert_uint_eq(e.line, 2);
	ks_edit_free(&e);
	unlink(path);
}
END_TEST

/* A line deleted whole only where it governs nothing else: after a
 * statement, a block's edge, an initializer or a directive. */
START_TEST(test_delete_edit)
{
	static const struct ks_migration gone = {
		.name = (char *)"NAME",
		.call = true,
		.of = 3,
		.rw = { { KS_RW_DELETE, 0, NULL, 3, (char *)"a.c:1" } },
		.nrw = 1,
	};
	static const int want[] = { [3] = 0, [8] = -ERANGE, [10] = 0, [12] = 0, [15] = -ERANGE,
				    [19] = 0 };
	char path[64];
	struct ks_edit e;

	write_file(path, "static const struct file_operations f = {\n"
			 "\t.owner = THIS_MODULE,\n"
			 "\t.llseek = NAME,\n"				/* 3 */
			 "};\n"
			 "void g(struct page *p)\n"
			 "{\n"
			 "\tif (x)\n"
			 "\t\tNAME(p);\n"					/* 8 */
			 "\ty(); /* y */\n"
			 "\tNAME(p);\n"					/* 10 */
			 "#ifdef Z\n"
			 "\tNAME(p);\n"					/* 12 */
			 "#endif\n"
			 "\tz(a,\n"
			 "\t  NAME);\n"					/* 15 */
			 "}\n"
			 "static struct x y = {\n"
			 "\t.a = 1,\n"
			 "\t.llseek = NAME /* last */\n"			/* 19 */
			 "\n"
			 "};\n");
	for (unsigned line = 3; line < KS_ARRAY_SIZE(want); line++) {
		if (line != 3 && line != 8 && line != 10 && line != 12 && line != 15 && line != 19)
			continue;
		ck_assert_msg(ks_edit_file(&gone, &gone.rw[0], path, line, NULL, &e) == want[line],
			      "line %u", line);
		if (!want[line]) {
			ck_assert_str_eq(e.after, "");
			ck_assert_str_eq(e.with, "");
			ck_assert_uint_eq(e.line, line);
		}
		ks_edit_free(&e);
	}
	unlink(path);
}
END_TEST

/* A stream writing into *s, for the other commands' documents. */
static FILE *mem(char **s, size_t *n)
{
	FILE *f = open_memstream(s, n);

	ck_assert_ptr_nonnull(f);
	return f;
}

/* diff's document, whole: null for what a side lacks, escaped strings, a
 * problem as its formatted line. */
START_TEST(test_json_diff)
{
	const struct ks_export old = { "f", "vmlinux", "EXPORT_SYMBOL", "", false, 1, "o" };
	const struct ks_export new = { "f", "vmlinux", "EXPORT_SYMBOL", "N\"S", false, 1, "n" };
	struct ks_change ch = { "f", KS_CHANGE_NAMESPACE, &old, &new };
	struct ks_changes changes = { .v = &ch, .n = 1, .count = { [KS_CHANGE_NAMESPACE] = 1 } };
	struct ks_kernel ko = { .arg = "a", .symvers = "a", .release = NULL };
	struct ks_kernel kn = { .arg = "b/", .symvers = "b/Module.symvers", .release = "6.1.0" };
	struct ks_diags d = { 0 };
	struct ks_diff_doc doc = { .old = &ko, .new = &kn, .changes = &changes, .problems = &d };
	char *s = NULL;
	size_t n = 0;
	FILE *f = mem(&s, &n);

	ks_diag_add(&d, KS_WARNING, "x\ty", 3, 0, "odd");
	ck_assert_int_eq(ks_report_diff(f, &doc), 0);
	fclose(f);
	ck_assert_str_eq(s, "{\n  \"tool\": \"ksunset\", \"version\": \"" KS_VERSION "\", "
			    "\"command\": \"diff\",\n"
			    "  \"old\": {\"path\": \"a\", \"symvers\": \"a\", \"release\": null, "
			    "\"exports\": 0},\n"
			    "  \"new\": {\"path\": \"b/\", \"symvers\": \"b/Module.symvers\", "
			    "\"release\": \"6.1.0\", \"exports\": 0},\n"
			    "  \"summary\": {\"removed\": 0, \"added\": 0, \"gpl-only\": 0, "
			    "\"no-longer-gpl-only\": 0, \"namespace\": 1, \"owner\": 0},\n"
			    "  \"changes\": [\n"
			    "    {\"symbol\": \"f\", \"change\": \"namespace\", \"old_owner\": "
			    "\"vmlinux\", \"old_type\": \"EXPORT_SYMBOL\", \"old_namespace\": null, "
			    "\"new_owner\": \"vmlinux\", \"new_type\": \"EXPORT_SYMBOL\", "
			    "\"new_namespace\": \"N\\\"S\", \"breaks_modules\": true, "
			    "\"removal_for_other_modules\": false}\n"
			    "  ],\n"
			    "  \"input_errors\": [\"x\\ty:3: warning: odd\"]\n"
			    "}\n");
	free(s);
	ks_diags_free(&d);
}
END_TEST

/* unused's document, whole. */
START_TEST(test_json_unused)
{
	const struct ks_export e = { "f", "drivers/x", "EXPORT_SYMBOL_GPL", "NS", true, 1, "s" };
	const struct ks_export *list[] = { &e, &e };
	struct ks_imports imports = { 0 };
	struct ks_unused_doc doc = { .today = ks_date_from_civil(2026, 12, 3), .modules = 2,
				     .owner = "x", .list = list, .nlist = 2,
				     .imports = &imports };
	char *s = NULL;
	size_t n = 0;
	FILE *f = mem(&s, &n);

	ck_assert_int_eq(ks_report_unused(f, &doc), 0);
	fclose(f);
	ck_assert_str_eq(s, "{\n  \"tool\": \"ksunset\", \"version\": \"" KS_VERSION "\", "
			    "\"command\": \"unused\", \"today\": \"2026-12-03\",\n"
			    "  \"modules_scanned\": 2, \"owner\": \"x\", \"counts\": false,\n"
			    "  \"exports\": [\n"
			    "    {\"symbol\": \"f\", \"type\": \"EXPORT_SYMBOL_GPL\", \"namespace\": "
			    "\"NS\", \"module\": \"drivers/x\", \"users\": 0},\n"
			    "    {\"symbol\": \"f\", \"type\": \"EXPORT_SYMBOL_GPL\", \"namespace\": "
			    "\"NS\", \"module\": \"drivers/x\", \"users\": 0}\n"
			    "  ],\n"
			    "  \"input_errors\": []\n"
			    "}\n");
	free(s);
}
END_TEST

/* users' document: a symbol's users with their locations (no accepted or
 * baselined marks there), and a symbol nobody uses. */
START_TEST(test_json_users)
{
	struct fx x;
	char *syms[] = { "a", "b" };
	struct ks_users_doc doc = { .today = ks_date_from_civil(2026, 12, 3), .modules = 1,
				    .syms = syms, .nsyms = 2 };
	char *s = NULL;
	size_t n = 0;
	FILE *f = mem(&s, &n);

	make(&x, "What: a\nWhen: 2027-09-01\n", KS_STATUS_SCHEDULED, 272, true);
	add_locs(&x);
	doc.found = &x.fs;
	ck_assert_int_eq(ks_report_users(f, &doc), 0);
	fclose(f);
	ck_assert_str_eq(s, "{\n  \"tool\": \"ksunset\", \"version\": \"" KS_VERSION "\", "
			    "\"command\": \"users\", \"today\": \"2026-12-03\",\n"
			    "  \"modules_scanned\": 1,\n"
			    "  \"symbols\": [\n"
			    "    {\"symbol\": \"a\", \"users\": [\n"
			    "      {\"module\": \"drv/m.ko\", \"module_name\": \"m\", \"locations\": ["
			    "{\"file\": \"drv/m.c\", \"line\": 42, \"column\": 9, \"function\": "
			    "\"probe\", \"kind\": \"call\", \"source\": \"plugin\"}, "
			    "{\"file\": \"drv/m.c\", \"line\": 50, \"column\": 12, \"function\": "
			    "\"\", \"kind\": \"addr\", \"source\": \"plugin\"}]}\n"
			    "    ]},\n"
			    "    {\"symbol\": \"b\", \"users\": []}\n"
			    "  ],\n"
			    "  \"input_errors\": []\n"
			    "}\n");
	free(s);
	drop(&x);
}
END_TEST

/* A document that cannot be written is an error, with write(2)'s reason. */
START_TEST(test_json_doc_full)
{
	struct ks_changes changes = { 0 };
	struct ks_kernel k = { .arg = "a", .symvers = "a" };
	struct ks_diff_doc doc = { .old = &k, .new = &k, .changes = &changes };
	FILE *f = fopen("/dev/full", "w");

	if (!f)
		return;	/* no /dev/full here */
	ck_assert_int_eq(ks_report_diff(f, &doc), -ENOSPC);
	fclose(f);
}
END_TEST

static Suite *suite_report(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("formats");

	tcase_add_loop_test(tc, test_messages, 0, KS_NCASES(msgs));
	tcase_add_loop_test(tc, test_removed, 0, 2);
	tcase_add_test(tc, test_text);
	tcase_add_test(tc, test_text_tag_tense);
	tcase_add_test(tc, test_json_escapes);
	tcase_add_test(tc, test_json_source);
	tcase_add_test(tc, test_json_diff);
	tcase_add_test(tc, test_json_unused);
	tcase_add_test(tc, test_json_users);
	tcase_add_test(tc, test_json_doc_full);
	tcase_add_test(tc, test_sarif);
	tcase_add_test(tc, test_sarif_uris);
	tcase_add_test(tc, test_sarif_unplaced);
	tcase_add_test(tc, test_sarif_baselined);
	tcase_add_test(tc, test_baselined);
	tcase_add_test(tc, test_accepted_in_source);
	tcase_add_test(tc, test_accepted_overdue);
	tcase_add_loop_test(tc, test_column, 0, KS_NCASES(columns));
	tcase_add_test(tc, test_column_in_file);
	tcase_add_test(tc, test_include_columns);
	tcase_add_loop_test(tc, test_call_edit, 0, KS_NCASES(calls));
	tcase_add_test(tc, test_compose);
	tcase_add_test(tc, test_callback_head);
	tcase_add_test(tc, test_callback_heads);
	tcase_add_test(tc, test_callback_drop);
	tcase_add_test(tc, test_callback_local);
	tcase_add_test(tc, test_include_edit);
	tcase_add_test(tc, test_delete_edit);
	suite_add_tcase(s, tc);
	return s;
}
KS_SUITE(suite_report)
