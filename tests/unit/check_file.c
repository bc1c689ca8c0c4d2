/* Replacing a file atomically: made, replaced through a symbolic link,
 * mode, owner and group kept, no temporary file left, errors named. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "file.h"
#include "suites.h"

static char *read_all(const char *path)
{
	struct ks_buf b = KS_BUF_INIT;

	ck_assert_int_eq(ks_buf_read_file(&b, path), 0);
	ks_buf_adds(&b, "");
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

static Suite *suite_file(void)
{
	Suite *s = suite_create("file");
	TCase *tc = tcase_create("replace");

	tcase_add_test(tc, test_replace);
	tcase_add_test(tc, test_replace_error);
	tcase_add_test(tc, test_replace_keeps_owner);
	suite_add_tcase(s, tc);
	return s;
}
KS_SUITE(suite_file)
