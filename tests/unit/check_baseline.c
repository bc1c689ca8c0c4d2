/* Baselines: what an entry accepts (a use in the status it had when
 * written, never an overdue or removed one), the file format and its
 * errors, version 1 files, keys (the function as written, the file below
 * the module's folder or --source-root), stale entries and pruning. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "rules/baseline.h"
#include "suites.h"

/* A finding of module m (/src/m.ko) for symbol sym, by the given rule,
 * with one use in file and fn, or none if file is NULL. */
struct fx {
	struct ks_finding f;
	struct ks_findings fs;
	char path[32];
};

static const struct ks_rule *rule(const char *status)
{
	for (size_t i = 0; i < ks_nrules; i++)
		if (!strcmp(ks_rules[i].status, status))
			return &ks_rules[i];
	ck_abort_msg("no rule with status %s", status);
	return NULL;
}

static void make(struct fx *x, const char *status, const char *file, const char *fn)
{
	int fd;

	memset(x, 0, sizeof(*x));
	x->f.module = strdup("/src/m.ko");
	x->f.module_name = strdup("m");
	x->f.symbol = strdup("sym");
	x->f.rule = rule(status);
	if (file) {
		x->f.locs = calloc(1, sizeof(*x->f.locs));
		x->f.locs[0] = (struct ks_loc){ strdup(file), 42, 9, strdup(fn), KS_USE_CALL,
						KS_SOURCE_PLUGIN, false, NULL, NULL, NULL, NULL, NULL, false };
		x->f.nlocs = 1;
	}
	x->fs.v = &x->f;
	x->fs.n = 1;
	strcpy(x->path, "/tmp/ksunset-baseline-XXXXXX");
	fd = mkstemp(x->path);
	ck_assert_int_ge(fd, 0);
	close(fd);
}

static void drop(struct fx *x)
{
	free(x->f.module);
	free(x->f.module_name);
	free(x->f.symbol);
	for (size_t i = 0; i < x->f.nlocs; i++) {
		free(x->f.locs[i].file);
		free(x->f.locs[i].function);
		free(x->f.locs[i].accept_reason);
	}
	free(x->f.locs);
	unlink(x->path);
}

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static char *get_file(const char *path)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = fopen(path, "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(getdelim(&s, &n, '\0', f), 0);
	fclose(f);
	return s;
}

/* Loads x's file into b and applies it to x's finding: whether accepted. */
static bool judge(struct fx *x, const char *root)
{
	struct ks_baseline b = { .source_root = root };
	struct ks_diags d = { 0 };

	ck_assert_int_eq(ks_baseline_load(&b, x->path, &d), 0);
	ks_baseline_apply(&b, "m", &x->fs);
	ks_baseline_free(&b);
	ks_diags_free(&d);
	return x->f.baselined;
}

/* A use is accepted in the status it had when the baseline was written. */
static const struct {
	const char *written, *now;
	bool accepted;
} statuses[] = {
	{ "scheduled", "scheduled", true }, { "due-soon", "due-soon", true },
	{ "scheduled", "due-soon", false }, { "due-soon", "scheduled", false },
	{ "scheduled", "overdue", false },  { "due-soon", "overdue", false },
	{ "scheduled", "removed", false },  { "due-soon", "removed", false },
};

START_TEST(test_status)
{
	struct fx x;
	struct ks_diags d = { 0 };

	for (int loc = 0; loc < 2; loc++) {
		make(&x, statuses[_i].written, loc ? "/src/m.c" : NULL, "probe");
		ck_assert_int_eq(ks_baseline_write(x.path, NULL, &x.fs, &d), 0);
		x.f.rule = rule(statuses[_i].now);
		ck_assert_msg(judge(&x, NULL) == statuses[_i].accepted, "written %s, now %s%s: %s",
			      statuses[_i].written, statuses[_i].now, loc ? "" : " (no location)",
			      statuses[_i].accepted ? "not accepted" : "accepted");
		drop(&x);
	}
	ks_diags_free(&d);
}
END_TEST

/* Findings no baseline accepts are not written. */
START_TEST(test_write_leaves_out)
{
	static const char *const never[] = { "overdue", "removed" };
	struct fx x;
	struct ks_diags d = { 0 };
	char *s;

	for (int i = 0; i < KS_NCASES(never); i++) {
		make(&x, never[i], "/src/m.c", "probe");
		ck_assert_int_eq(ks_baseline_write(x.path, NULL, &x.fs, &d), 0);
		s = get_file(x.path);
		ck_assert_msg(!strcmp(s, "# ksunset baseline 2\n"), "%s written: %s", never[i], s);
		free(s);
		drop(&x);
	}
	make(&x, "due-soon", "/src/m.c", "probe");
	ck_assert_int_eq(ks_baseline_write(x.path, "/src", &x.fs, &d), 0);
	s = get_file(x.path);
	ck_assert_str_eq(s, "# ksunset baseline 2\nm\tsym\tm.c\tprobe\tdue-soon\n");
	free(s);
	drop(&x);
	ks_diags_free(&d);
}
END_TEST

/* A use accepted in the source gets no entry: it must fail again if its
 * KSUNSET_ACCEPT goes. */
START_TEST(test_write_leaves_out_accepted)
{
	struct fx x;
	struct ks_diags d = { 0 };
	char *s;

	make(&x, "scheduled", "/src/m.c", "probe");
	x.f.locs[0].accept_reason = strdup("known");
	ck_assert_int_eq(ks_baseline_write(x.path, "/src", &x.fs, &d), 0);
	s = get_file(x.path);
	ck_assert_str_eq(s, "# ksunset baseline 2\n");
	free(s);
	free(x.f.locs[0].accept_reason);
	x.f.locs[0].accept_reason = NULL;
	ck_assert_int_eq(ks_baseline_write(x.path, "/src", &x.fs, &d), 0);
	s = get_file(x.path);
	ck_assert_str_eq(s, "# ksunset baseline 2\nm\tsym\tm.c\tprobe\tscheduled\n");
	free(s);
	drop(&x);
	ks_diags_free(&d);
}
END_TEST

/* Version 1 entries have no status: they accept scheduled uses only. */
START_TEST(test_version1)
{
	struct fx x;

	make(&x, "scheduled", "/src/m.c", "probe");
	put_file(x.path, "# ksunset baseline 1\nm\tsym\tm.c\tprobe\n");
	ck_assert(judge(&x, "/src"));
	drop(&x);
	make(&x, "due-soon", "/src/m.c", "probe");
	put_file(x.path, "# ksunset baseline 1\nm\tsym\tm.c\tprobe\n");
	ck_assert(!judge(&x, "/src"));
	drop(&x);
}
END_TEST

static const struct {
	const char *text, *diag;
	int r;
} files[] = {
	{ "m\tsym\t\t\tscheduled\n", "f:1: error: not a ksunset baseline (expected '# ksunset "
				     "baseline 2'): 'm\tsym\t\t\tscheduled'", -22 },
	{ "# ksunset baseline 2\n\n# comment\nm\tsym\tm.c\tprobe\n",
	  "f:4: error: bad baseline entry: expected MODULE, SYMBOL, FILE, FUNCTION and STATUS "
	  "separated by TABs: 'm\tsym\tm.c\tprobe'", -22 },
	{ "# ksunset baseline 2\nm\tsym\tm.c\tprobe\tscheduled\tx\n",
	  "f:2: error: bad baseline entry: expected MODULE, SYMBOL, FILE, FUNCTION and STATUS "
	  "separated by TABs: 'm\tsym\tm.c\tprobe\tscheduled\tx'", -22 },
	{ "# ksunset baseline 1\nm\tsym\tm.c\tprobe\tscheduled\n",
	  "f:2: error: bad baseline entry: expected MODULE, SYMBOL, FILE and FUNCTION separated by "
	  "TABs: 'm\tsym\tm.c\tprobe\tscheduled'", -22 },
	{ "# ksunset baseline 2\nm\tsym\tm.c\tprobe\toverdue\n",
	  "f:2: error: bad status 'overdue': a baseline accepts scheduled and due-soon uses", -22 },
	{ "", "f: error: empty file, not a ksunset baseline (expected '# ksunset baseline 2')",
	  -22 },
	{ "\n", "f:1: error: not a ksunset baseline (expected '# ksunset baseline 2'): ''", -22 },
	{ "# ksunset baseline 2\nm\tsym\tm.c\tprobe\tscheduled\nm\tsym\tm.c\tprobe\tdue-soon\n",
	  "f:3: warning: duplicate baseline entry ignored (first on line 2)", 0 },
};

START_TEST(test_bad_files)
{
	struct fx x;
	struct ks_baseline b = { 0 };
	struct ks_diags d = { 0 };
	char *msg;

	make(&x, "scheduled", NULL, NULL);
	put_file(x.path, files[_i].text);
	ck_assert_int_eq(ks_baseline_load(&b, x.path, &d), files[_i].r);
	ck_assert_uint_eq(d.n, 1);
	free(d.v[0].file);
	d.v[0].file = strdup("f");
	msg = ks_diag_format(&d.v[0]);
	ck_assert_msg(!strcmp(msg, files[_i].diag), "%s\n got  %s\n want %s", files[_i].text, msg,
		      files[_i].diag);
	free(msg);
	ks_diags_free(&d);
	ks_baseline_free(&b);
	drop(&x);
}
END_TEST

/* Every bad entry is said; the good ones are read. */
START_TEST(test_every_bad_entry)
{
	struct fx x;
	struct ks_baseline b = { 0 };
	struct ks_diags d = { 0 };

	make(&x, "scheduled", NULL, NULL);
	put_file(x.path, "# ksunset baseline 2\nm\ta\nm\tsym\t\t\tscheduled\nm\tb\t\t\tgone\n");
	ck_assert_int_eq(ks_baseline_load(&b, x.path, &d), -22);
	ck_assert_uint_eq(d.n, 2);
	ck_assert_uint_eq(d.v[0].line, 2);
	ck_assert_uint_eq(d.v[1].line, 4);
	ck_assert_uint_eq(b.n, 1);
	ks_baseline_free(&b);
	ks_diags_free(&d);
	drop(&x);
}
END_TEST

/* A known use on another line is accepted; one in a new function is not. */
START_TEST(test_lines_do_not_count)
{
	struct fx x;
	struct ks_diags d = { 0 };

	make(&x, "scheduled", "/src/m.c", "probe");
	ck_assert_int_eq(ks_baseline_write(x.path, "/src", &x.fs, &d), 0);
	x.f.locs[0].line = 99;
	ck_assert(judge(&x, "/src"));
	ck_assert_uint_eq(x.f.nlocs, 1);	/* kept, to be shown as accepted */
	ck_assert(x.f.locs[0].baselined);
	drop(&x);
	make(&x, "scheduled", "/src/m.c", "probe");
	ck_assert_int_eq(ks_baseline_write(x.path, "/src", &x.fs, &d), 0);
	free(x.f.locs[0].function);
	x.f.locs[0].function = strdup("new_fn");
	ck_assert(!judge(&x, "/src"));
	ck_assert_uint_eq(x.f.nlocs, 1);
	drop(&x);
	ks_diags_free(&d);
}
END_TEST

/* The entry written for a use of /src/m.ko (or module). */
static const struct {
	const char *module, *root, *file, *fn, *entry;
} keys[] = {
	{ "/src/m.ko", NULL, "/src/a/x.c", "parse.constprop", "m\tsym\ta/x.c\tparse\tscheduled\n" },
	{ "/src/m.ko", NULL, "/src/x.c", "parse.isra.0", "m\tsym\tx.c\tparse\tscheduled\n" },
	{ "/src/m.ko", NULL, "/src/x.c", "", "m\tsym\tx.c\t\tscheduled\n" },
	{ "/src/m.ko", NULL, "/other/x.c", "f.part.0.cold", "m\tsym\t/other/x.c\tf\tscheduled\n" },
	{ "/src/m.ko", NULL, "/srcx/x.c", "f", "m\tsym\t/srcx/x.c\tf\tscheduled\n" },
	{ "/src/m.ko", NULL, "drivers/x.c", "f", "m\tsym\tdrivers/x.c\tf\tscheduled\n" },
	{ "drivers/m.ko", NULL, "drivers/a/x.c", "f", "m\tsym\ta/x.c\tf\tscheduled\n" },
	{ "/src/m.ko", "/top/", "/top/drv/x.c", "f", "m\tsym\tdrv/x.c\tf\tscheduled\n" },
	{ "/src/m.ko", "/top", "/src/x.c", "f", "m\tsym\t/src/x.c\tf\tscheduled\n" },
};

START_TEST(test_keys)
{
	struct fx x;
	struct ks_diags d = { 0 };
	char *s, *want = ks_strdupf("# ksunset baseline 2\n%s", keys[_i].entry);

	make(&x, "scheduled", keys[_i].file, keys[_i].fn);
	free(x.f.module);
	x.f.module = strdup(keys[_i].module);
	ck_assert_int_eq(ks_baseline_write(x.path, keys[_i].root, &x.fs, &d), 0);
	s = get_file(x.path);
	ck_assert_msg(!strcmp(s, want), "%s in %s (root %s)\n got  %s\n want %s", keys[_i].file,
		      keys[_i].module, keys[_i].root ? keys[_i].root : "none", s, want);
	ck_assert(judge(&x, keys[_i].root));
	free(want);
	free(s);
	drop(&x);
	ks_diags_free(&d);
}
END_TEST

/* A module path relative to the current folder: the folder is resolved. */
START_TEST(test_key_relative_module)
{
	struct fx x;
	struct ks_diags d = { 0 };
	char *cwd = getcwd(NULL, 0), *file = ks_strdupf("%s/a/x.c", cwd), *s;

	make(&x, "scheduled", file, "f");
	free(x.f.module);
	x.f.module = strdup("m.ko");
	ck_assert_int_eq(ks_baseline_write(x.path, NULL, &x.fs, &d), 0);
	s = get_file(x.path);
	ck_assert_str_eq(s, "# ksunset baseline 2\nm\tsym\ta/x.c\tf\tscheduled\n");
	free(s);
	free(file);
	free(cwd);
	drop(&x);
}
END_TEST

/* The same file name and function in another folder is another use. */
START_TEST(test_key_other_folder)
{
	struct fx x;
	struct ks_diags d = { 0 };

	make(&x, "scheduled", "/src/a/x.c", "parse");
	ck_assert_int_eq(ks_baseline_write(x.path, NULL, &x.fs, &d), 0);
	free(x.f.locs[0].file);
	x.f.locs[0].file = strdup("/src/b/x.c");
	ck_assert(!judge(&x, NULL));
	drop(&x);
}
END_TEST

/* Entries read from a file lose the clone suffix too (version 1 kept it). */
START_TEST(test_key_read_as_written)
{
	struct fx x;

	make(&x, "scheduled", "/src/x.c", "parse.isra.0");
	put_file(x.path, "# ksunset baseline 1\nm\tsym\tx.c\tparse.constprop\n");
	ck_assert(judge(&x, NULL));
	drop(&x);
}
END_TEST

/* Checks that d holds, in order, the notes "PATH:LINE: note: ...: WHAT". */
static void expect_stale(const struct ks_diags *d, const char *path, const unsigned *line,
			 const char *const *what, size_t n)
{
	ck_assert_uint_eq(d->n, n);
	for (size_t i = 0; i < n; i++) {
		char *got = ks_diag_format(&d->v[i]);
		char *want = ks_strdupf("%s:%u: note: baseline entry no longer matches a use: %s",
					path, line[i], what[i]);

		ck_assert_str_eq(got, want);
		free(got);
		free(want);
	}
}

/* An entry is stale when its module was checked and no use has its key;
 * a use in another status still matches; other modules' entries stay. */
START_TEST(test_stale)
{
	static const unsigned lines[] = { 3, 4 };
	static const char *const what[] = { "m sym b.c g", "m other" };
	struct fx x;
	struct ks_baseline b = { 0 };
	struct ks_diags d = { 0 };
	char *s;

	make(&x, "overdue", "/src/a.c", "f");
	put_file(x.path, "# ksunset baseline 2\n"
			 "m\tsym\ta.c\tf\tscheduled\n"
			 "m\tsym\tb.c\tg.constprop\tscheduled\n"
			 "m\tother\t\t\tdue-soon\n"
			 "n\tsym\tx.c\th\tscheduled\n");
	ck_assert_int_eq(ks_baseline_load(&b, x.path, &d), 0);
	ks_baseline_apply(&b, "m", &x.fs);
	ck_assert(!x.f.baselined);
	ks_baseline_report_stale(&b, &d);
	expect_stale(&d, x.path, lines, what, 2);
	ck_assert_int_eq(ks_baseline_prune(&b, &d), 0);
	s = get_file(x.path);
	ck_assert_str_eq(s, "# ksunset baseline 2\n"
			    "m\tsym\ta.c\tf\tscheduled\n"
			    "n\tsym\tx.c\th\tscheduled\n");
	free(s);
	ks_baseline_free(&b);
	ks_diags_free(&d);
	drop(&x);
}
END_TEST

/* A module checked without findings: each of its entries is stale. */
START_TEST(test_stale_no_findings)
{
	static const unsigned lines[] = { 2, 3 };
	static const char *const what[] = { "m sym a.c f", "m sym" };
	struct fx x;
	struct ks_baseline b = { 0 };
	struct ks_diags d = { 0 };
	struct ks_findings none = { 0 };

	make(&x, "scheduled", NULL, NULL);
	put_file(x.path,
		 "# ksunset baseline 2\nm\tsym\ta.c\tf\tscheduled\nm\tsym\t\t\tscheduled\n");
	ck_assert_int_eq(ks_baseline_load(&b, x.path, &d), 0);
	ks_baseline_apply(&b, "n", &none);
	ks_baseline_report_stale(&b, &d);
	ck_assert_uint_eq(d.n, 0);
	ks_baseline_apply(&b, "m", &none);
	ks_baseline_report_stale(&b, &d);
	expect_stale(&d, x.path, lines, what, 2);
	ks_baseline_free(&b);
	ks_diags_free(&d);
	drop(&x);
}
END_TEST

/* Pruning a version 1 file writes version 2, its entries scheduled. */
START_TEST(test_prune_version1)
{
	struct fx x;
	struct ks_baseline b = { 0 };
	struct ks_diags d = { 0 };
	char *s;

	make(&x, "scheduled", "/src/a.c", "f");
	put_file(x.path, "# ksunset baseline 1\nm\tsym\ta.c\tf\nm\tsym\tb.c\tf\n");
	ck_assert_int_eq(ks_baseline_load(&b, x.path, &d), 0);
	ks_baseline_apply(&b, "m", &x.fs);
	ck_assert(x.f.baselined);
	ck_assert_int_eq(ks_baseline_prune(&b, &d), 0);
	s = get_file(x.path);
	ck_assert_str_eq(s, "# ksunset baseline 2\nm\tsym\ta.c\tf\tscheduled\n");
	free(s);
	ks_baseline_free(&b);
	ks_diags_free(&d);
	drop(&x);
}
END_TEST

static Suite *suite_baseline(void)
{
	Suite *s = suite_create("baseline");
	TCase *tc = tcase_create("baseline");

	tcase_add_loop_test(tc, test_status, 0, KS_NCASES(statuses));
	tcase_add_test(tc, test_write_leaves_out);
	tcase_add_test(tc, test_write_leaves_out_accepted);
	tcase_add_test(tc, test_version1);
	tcase_add_loop_test(tc, test_bad_files, 0, KS_NCASES(files));
	tcase_add_test(tc, test_every_bad_entry);
	tcase_add_test(tc, test_lines_do_not_count);
	tcase_add_loop_test(tc, test_keys, 0, KS_NCASES(keys));
	tcase_add_test(tc, test_key_relative_module);
	tcase_add_test(tc, test_key_other_folder);
	tcase_add_test(tc, test_key_read_as_written);
	tcase_add_test(tc, test_stale);
	tcase_add_test(tc, test_stale_no_findings);
	tcase_add_test(tc, test_prune_version1);
	suite_add_tcase(s, tc);
	return s;
}
KS_SUITE(suite_baseline)
