/* Expanding MODULE arguments: directories in the order of their sorted
 * full paths, modules.order lists, plain files, and the messages for what
 * cannot be read. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "input/inputs.h"
#include "suites.h"

static char root[] = "/tmp/ks-inputs-XXXXXX";

/* Creates root/rel, with its folders; a name ending in '/' is a folder. */
static void make(const char *rel)
{
	char *p = ks_strdupf("%s/%s", root, rel);
	size_t n = strlen(p);
	int fd;

	for (char *s = strchr(p + strlen(root) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		ck_assert(mkdir(p, 0755) == 0 || errno == EEXIST);
		*s = '/';
	}
	if (p[n - 1] != '/') {
		fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		ck_assert_int_ge(fd, 0);
		close(fd);
	}
	free(p);
}

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(root));
}

static void teardown(void)
{
	char *cmd = ks_strdupf("rm -rf '%s'", root);

	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
	strcpy(root + strlen(root) - 6, "XXXXXX");
}

/* Everything the arguments expand to, one path per line, after root. */
static char *expand(char *const *args, size_t nargs, struct ks_diags *d, bool *unusable)
{
	struct ks_inputs in;
	struct ks_buf out = KS_BUF_INIT;
	char *p;
	int r;

	ks_inputs_init(&in, args, nargs);
	while ((r = ks_inputs_next(&in, &p, d)) == 1) {
		const char *rel = strncmp(p, root, strlen(root)) ? p : p + strlen(root);

		ks_buf_addf(&out, "%s\n", rel);
		free(p);
	}
	ck_assert_int_eq(r, 0);
	*unusable = in.unusable;
	ks_inputs_free(&in);
	return ks_buf_steal(&out);
}

static char *expand_root(struct ks_diags *d, bool *unusable)
{
	char *args[] = { root };

	return expand(args, 1, d, unusable);
}

START_TEST(test_directory_order)
{
	static const char *const files[] = {
		"a.ko", "a-x/c.ko", "a/b.ko", "a/z/deep.ko.xz", "ab/d.ko.zst", "a.txt",
		"b/readme", "b/e.ko.gz", "a/empty/", "0.ko", "~.ko", "a/b.ko.sig", "x.ko.d/y.ko",
		"x.ko",
	};
	struct ks_diags d = { 0 };
	bool unusable;
	char *got, *link;

	for (int i = 0; i < KS_NCASES(files); i++)
		make(files[i]);
	link = ks_strdupf("%s/link", root);
	ck_assert_int_eq(symlink("a", link), 0);	/* not followed */
	got = expand_root(&d, &unusable);
	/* what sort(1) in the C locale gives for the full paths */
	ck_assert_str_eq(got, "/0.ko\n/a-x/c.ko\n/a.ko\n/a/b.ko\n/a/z/deep.ko.xz\n/ab/d.ko.zst\n"
			      "/b/e.ko.gz\n/x.ko\n/x.ko.d/y.ko\n/~.ko\n");
	ck_assert_uint_eq(d.n, 0);
	ck_assert(!unusable);
	free(got);
	free(link);
}
END_TEST

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Many names from a small alphabet, with '.', '-' and '_' that sort around
 * '/': the search's order must be the sorted full paths'. */
START_TEST(test_order_is_full_path_order)
{
	static const char alphabet[] = "aZb.-_";
	struct ks_diags d = { 0 };
	struct ks_buf want = KS_BUF_INIT;
	char *paths[300], *got;
	bool unusable;
	unsigned seed = 1;

	for (int i = 0; i < KS_NCASES(paths); i++) {
		struct ks_buf p = KS_BUF_INIT;
		int parts = 1 + rand_r(&seed) % 3;

		for (int k = 0; k < parts; k++) {
			/* never "." or "..": a letter first */
			ks_buf_addc(&p, '/');
			ks_buf_addc(&p, alphabet[rand_r(&seed) % 3]);
			for (int len = rand_r(&seed) % 3; len; len--)
				ks_buf_addc(&p, alphabet[rand_r(&seed) % 6]);
		}
		ks_buf_adds(&p, "m.ko");
		paths[i] = ks_buf_steal(&p);
		make(paths[i] + 1);	/* folder names lack the m of the files */
	}
	qsort(paths, KS_NCASES(paths), sizeof(*paths), cmp_str);
	for (int i = 0; i < KS_NCASES(paths); i++) {
		if (i == 0 || strcmp(paths[i], paths[i - 1]))
			ks_buf_addf(&want, "%s\n", paths[i]);
	}
	for (int i = 0; i < KS_NCASES(paths); i++)
		free(paths[i]);
	got = expand_root(&d, &unusable);
	size_t at = 0;

	while (got[at] && got[at] == want.p[at])
		at++;
	ck_assert_msg(!got[at] && !want.p[at], "order differs at byte %zu:\n got  %.60s\n want %.60s",
		      at, got + at, want.p + at);
	ck_assert(!unusable);
	free(got);
	ks_buf_free(&want);
}
END_TEST

START_TEST(test_modules_order)
{
	struct ks_diags d = { 0 };
	char *order = ks_strdupf("%s/modules.order", root);
	char *args[] = { order, "plain.ko" };
	FILE *f = fopen(order, "w");
	bool unusable;
	char *got;

	ck_assert_ptr_nonnull(f);
	/* blank lines skipped; since 6.3 the list names the .o */
	fputs("kernel/x.ko\n\n/abs/y.ko\nkernel/z.o\r\nlast.ko", f);
	fclose(f);
	got = expand(args, KS_NCASES(args), &d, &unusable);
	ck_assert_str_eq(got, "/kernel/x.ko\n/abs/y.ko\n/kernel/z.ko\n/last.ko\nplain.ko\n");
	ck_assert_uint_eq(d.n, 0);
	ck_assert(!unusable);
	free(got);
	free(order);
}
END_TEST

/* An argument that gives no module is named once, unless allowed. */
START_TEST(test_no_module)
{
	struct ks_diags d = { 0 };
	char *order = ks_strdupf("%s/modules.order", root);
	char *args[] = { root, order };
	struct ks_inputs in;
	FILE *f = fopen(order, "w");
	char *p, *msg, *want;

	ck_assert_ptr_nonnull(f);
	fputs("\n\n", f);
	fclose(f);
	make("sub/readme");
	for (int allow = 0; allow < 2; allow++) {
		ks_inputs_init(&in, args, KS_NCASES(args));
		in.allow_empty = allow;
		ck_assert_int_eq(ks_inputs_next(&in, &p, &d), 0);
		ck_assert(in.unusable == !allow);
		ks_inputs_free(&in);
	}
	ck_assert_uint_eq(d.n, 2);
	for (size_t i = 0; i < d.n; i++) {
		msg = ks_diag_format(&d.v[i]);
		want = ks_strdupf("%s: error: no module found", args[i]);
		ck_assert_str_eq(msg, want);
		free(msg);
		free(want);
	}
	ks_diags_free(&d);
	free(order);
}
END_TEST

/* Paths as given: a folder argument ending in '/' gets no second one. */
START_TEST(test_trailing_slash)
{
	struct ks_diags d = { 0 };
	char *dir = ks_strdupf("%s/", root), *order = ks_strdupf("%s/sub/modules.order", root);
	char *args[] = { dir, order };
	FILE *f;
	bool unusable;
	char *got;

	make("a/b.ko");
	make("sub/");
	f = fopen(order, "w");
	ck_assert_ptr_nonnull(f);
	fputs("c.ko\n", f);
	fclose(f);
	got = expand(args, KS_NCASES(args), &d, &unusable);
	ck_assert_str_eq(got, "/a/b.ko\n/sub/c.ko\n");
	ck_assert(!unusable);
	free(got);
	free(dir);
	free(order);
}
END_TEST

/* What cannot be read is one message; the other arguments still count. */
START_TEST(test_unreadable)
{
	struct ks_diags d = { 0 };
	char *order = ks_strdupf("%s/gone/modules.order", root);
	char *args[] = { order, root };
	bool unusable;
	char *got, *msg, *want;

	make("m.ko");
	got = expand(args, KS_NCASES(args), &d, &unusable);
	ck_assert_str_eq(got, "/m.ko\n");
	ck_assert(unusable);
	ck_assert_uint_eq(d.n, 1);
	msg = ks_diag_format(&d.v[0]);
	want = ks_strdupf("%s: error: cannot read: No such file or directory", order);
	ck_assert_str_eq(msg, want);
	free(msg);
	free(want);
	free(got);
	free(order);
	ks_diags_free(&d);
}
END_TEST

static Suite *suite_inputs(void)
{
	Suite *s = suite_create("inputs");
	TCase *tc = tcase_create("inputs");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_directory_order);
	tcase_add_test(tc, test_order_is_full_path_order);
	tcase_add_test(tc, test_modules_order);
	tcase_add_test(tc, test_unreadable);
	tcase_add_test(tc, test_trailing_slash);
	tcase_add_test(tc, test_no_module);
	suite_add_tcase(s, tc);
	return s;
}
KS_SUITE(suite_inputs)
