/* Paths: what lies below a directory. */
#include <stdlib.h>
#include <string.h>

#include "path.h"
#include "suites.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

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

Suite *suite_path(void)
{
	Suite *s = suite_create("path");
	TCase *tc = tcase_create("path");

	tcase_add_loop_test(tc, test_under, 0, N(under_cases));
	suite_add_tcase(s, tc);
	return s;
}
