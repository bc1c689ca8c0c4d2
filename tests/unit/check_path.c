/* Paths: what lies below a directory, and what makes one a kernel tree. */
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"

#include "path.h"
#include "suites.h"

static const struct {
	const char *file, *root;
	const char *under; /* NULL: not below root */
} under_cases[] = {
	{ "/src/a/b.c", "/src", "a/b.c" },
	{ "/src/a/b.c", "/src/", "a/b.c" },	/* trailing slashes of root ignored */
	{ "/src/a/b.c", "/src//", "a/b.c" },
	{ "/src/b.c", "/src/b.c", NULL },	/* the root itself is not below it */
	{ "/src", "/src", NULL },
	{ "/srcx/b.c", "/src", NULL },		/* a longer name, not a sub-folder */
	{ "/other/b.c", "/src", NULL },
	{ "src/b.c", "src", "b.c" },		/* relative names compare as given */
	{ "/src/b.c", "src", NULL },
	{ "/b.c", "/", NULL },			/* "/" keeps its slash: nothing follows "//" */
	{ "//b.c", "/", "b.c" },
	{ "/src/b.c", "", NULL },		/* no root: nothing is below it */
	{ "/src/b.c", NULL, NULL },
};

START_TEST(test_under)
{
	const char *file = under_cases[_i].file, *root = under_cases[_i].root;
	const char *want = under_cases[_i].under, *got = ks_path_under(file, root);

	ck_assert_msg(want ? got && !strcmp(got, want) : !got,
		      "'%s' under '%s': got '%s', want '%s'", file, root ? root : "(null)",
		      got ? got : "(null)", want ? want : "(null)");
	/* the answer is the tail of file itself, not a copy */
	ck_assert(!got || got == file + strlen(file) - strlen(got));
}
END_TEST

/* Folders and files made for each case: a name ending in '/' is a folder. */
static const struct {
	const char *made[6];
	int tree;
} tree_cases[] = {
	{ { "arch/", "scripts/", "include/", "include/linux/", "include/linux/kernel.h" }, 1 },
	{ { "arch/", "scripts/", "include/", "include/generated/" }, 1 },	/* a build tree */
	{ { "arch/", "scripts/", "include/", "include/generated/", "include/linux/" }, 1 },
	{ { "arch/", "include/", "include/generated/" }, 0 },		/* no scripts/ */
	{ { "scripts/", "include/", "include/generated/" }, 0 },	/* no arch/ */
	{ { "arch/", "scripts/" }, 0 },					/* neither */
	{ { "arch", "scripts/", "include/", "include/generated/" }, 0 },	/* arch a file */
	{ { "arch/", "scripts/", "include/", "include/generated" }, 0 },	/* a file */
	{ { "arch/", "scripts/", "include/", "include/linux/", "include/linux/kernel.h/" }, 0 },
	{ { NULL }, 0 },
};

/* name (below dir) made, or removed again */
static void entry(const char *dir, const char *name, bool make)
{
	size_t n = strlen(name);
	bool folder = name[n - 1] == '/';
	char *path = ks_strdupf("%s/%.*s", dir, (int)(folder ? n - 1 : n), name);
	int fd;

	if (!make) {
		ck_assert_int_eq(folder ? rmdir(path) : unlink(path), 0);
	} else if (folder) {
		ck_assert_int_eq(mkdir(path, 0755), 0);
	} else {
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
		ck_assert_int_ge(fd, 0);
		close(fd);
	}
	free(path);
}

START_TEST(test_kernel_tree)
{
	char dir[] = "/tmp/ks-unit-XXXXXX";
	const char *const *made = tree_cases[_i].made;
	size_t n = 0;
	int got;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (; made[n]; n++)
		entry(dir, made[n], true);
	got = ks_path_kernel_tree(dir);
	while (n--)	/* the last made first: a folder's entries before it */
		entry(dir, made[n], false);
	ck_assert_int_eq(rmdir(dir), 0);
	ck_assert_msg(got == tree_cases[_i].tree, "case %d (first made: %s): got %d, want %d", _i,
		      made[0] ? made[0] : "nothing", got, tree_cases[_i].tree);
}
END_TEST

/* "." and ".." resolved as written, as Kbuild and DWARF name files. */
static const struct {
	const char *dir, *path, *want;
} clean_cases[] = {
	{ NULL, "/src/drivers/x/../staging/echo/echo.c", "/src/drivers/staging/echo/echo.c" },
	{ NULL, "drivers/x/../staging/./echo.c", "drivers/staging/echo.c" },
	{ NULL, "../x/../y.c", "../y.c" },		/* a leading ".." stays */
	{ NULL, "../../a/b.c", "../../a/b.c" },
	{ NULL, "/../a.c", "/a.c" },			/* not above the root */
	{ NULL, "a//b/./c.c", "a/b/c.c" },
	{ NULL, "a/..", "." },
	{ NULL, "/", "/" },
	{ "/build/kernel", "../m/x.c", "/build/m/x.c" },
	{ "/build", "./x.c", "/build/x.c" },
	{ "rel", "x.c", "rel/x.c" },
};

START_TEST(test_clean)
{
	char *got = ks_path_clean(clean_cases[_i].dir, clean_cases[_i].path);

	ck_assert_msg(got && !strcmp(got, clean_cases[_i].want), "%s + %s: got %s, want %s",
		      clean_cases[_i].dir ? clean_cases[_i].dir : "(none)", clean_cases[_i].path, got,
		      clean_cases[_i].want);
	free(got);
}
END_TEST

START_TEST(test_kernel_tree_missing)
{
	ck_assert_int_eq(ks_path_kernel_tree("/nonexistent/ks-unit"), 0);
}
END_TEST

static Suite *suite_path(void)
{
	Suite *s = suite_create("path");
	TCase *tc = tcase_create("path");

	tcase_add_loop_test(tc, test_under, 0, KS_NCASES(under_cases));
	tcase_add_loop_test(tc, test_kernel_tree, 0, KS_NCASES(tree_cases));
	tcase_add_test(tc, test_kernel_tree_missing);
	tcase_add_loop_test(tc, test_clean, 0, KS_NCASES(clean_cases));
	suite_add_tcase(s, tc);
	return s;
}
KS_SUITE(suite_path)
