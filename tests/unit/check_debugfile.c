/* Whether a separate debug file may be there (ks_debugfile_possible()):
 * a module of a made-up tree, one file put where a place of
 * dwarf/debugfile.c would look or where none does; shell/t-dwarf.sh
 * reads real debug files from each place. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "dwarf/debugfile.h"
#include "suites.h"

#define REL "lib/modules/6.1.0-9-amd64/kernel/fs/x"

struct possible_case {
	const char *what;
	const char *module; /* under the test's root, made */
	const char *file;   /* the one file made: "D/..." under the debug directory,
			       "R/..." under the root; NULL: none */
	bool build_id;	    /* the module has build-id ab cd ef */
	const char *link;   /* its .gnu_debuglink name */
	bool want;
};

static const struct possible_case possible_cases[] = {
	{ "nothing anywhere", REL "/x.ko", NULL, true, NULL, false },
	{ "no build-id, no link, nothing", REL "/x.ko", NULL, false, NULL, false },
	{ "DIR/.build-id/ab/cdef.debug", REL "/x.ko", "D/.build-id/ab/cdef.debug", true, NULL, true },
	{ "no build-id: no .build-id place", REL "/x.ko", "D/.build-id/ab/cdef.debug", false, NULL,
	  false },
	{ "Debian's -dbg: DIR/lib/modules/...", REL "/x.ko.xz", "D/" REL "/x.ko", true, NULL, true },
	{ "merged /usr: module in usr/lib/modules", "usr/" REL "/x.ko.zst", "D/" REL "/x.ko", true,
	  NULL, true },
	{ "DIR/usr/lib/modules/...", REL "/x.ko.gz", "D/usr/" REL "/x.ko", true, NULL, true },
	{ "compressed name kept: not looked for", REL "/x.ko.xz", "D/" REL "/x.ko.xz", true, NULL,
	  false },
	{ "no release folder after lib/modules/", "lib/modules/x.ko", "D/ROOT/lib/modules/x.ko",
	  true, NULL, true },
	{ "outside lib/modules: DIR + its real path", "src/x.ko", "D/ROOT/src/x.ko", true, NULL,
	  true },
	{ "in lib/modules: DIR + its real path is not looked at", REL "/x.ko",
	  "D/ROOT/" REL "/x.ko", true, NULL, false },
	{ ".gnu_debuglink beside", REL "/x.ko", "R/" REL "/x.debug", true, "x.debug", true },
	{ ".gnu_debuglink in .debug/", REL "/x.ko", "R/" REL "/.debug/x.debug", false, "x.debug",
	  true },
	{ ".gnu_debuglink under DIR", REL "/x.ko", "D/" REL "/x.ko.debug", true, "x.ko.debug", true },
	{ ".gnu_debuglink under DIR/usr", REL "/x.ko", "D/usr/" REL "/x.ko.debug", true,
	  "x.ko.debug", true },
	{ ".gnu_debuglink: another name", REL "/x.ko", "R/" REL "/y.debug", true, "x.debug", false },
};

/* Makes path's folders and an empty file at path. */
static void make_file(const char *path)
{
	char *p = strdup(path);
	FILE *f;

	ck_assert_ptr_nonnull(p);
	for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		ck_assert_msg(mkdir(p, 0755) == 0 || errno == EEXIST, "mkdir %s", p);
		*s = '/';
	}
	ck_assert_msg((f = fopen(p, "w")), "cannot make %s", p);
	fclose(f);
	free(p);
}

/* The test's root and debug directory under top; "ROOT" in a file stands
 * for the root's real path. */
static char *file_path(const char *top, const char *root, const char *file)
{
	const char *rest = file + 2;
	struct ks_buf b = KS_BUF_INIT;

	ks_buf_addf(&b, "%s/%s/", top, file[0] == 'D' ? "dbg" : "root");
	if (!strncmp(rest, "ROOT/", 5)) {
		ks_buf_adds(&b, root + 1);
		rest += 4;
	}
	ks_buf_adds(&b, rest);
	return ks_buf_steal(&b);
}

START_TEST(possible)
{
	const struct possible_case *c = &possible_cases[_i];
	char top[] = "/tmp/ks-debugfile-XXXXXX";
	struct ks_module m = { 0 };
	char *root, *dbg, *cmd, *file = NULL;

	ck_assert_ptr_nonnull(mkdtemp(top));
	root = ks_strdupf("%s/root", top);
	dbg = ks_strdupf("%s/dbg", top);
	m.path = ks_strdupf("%s/%s", root, c->module);
	make_file(m.path);
	if (c->file) {
		char *real = realpath(root, NULL);

		file = file_path(top, real, c->file);
		make_file(file);
		free(real);
	}
	if (c->build_id) {
		memcpy(m.debug.build_id, "\xab\xcd\xef", 3);
		m.debug.build_id_len = 3;
	}
	m.debug.link = c->link ? strdup(c->link) : NULL;
	ck_assert_msg(ks_debugfile_possible(&m, dbg) == c->want, "%s: module %s, file %s: want %s",
		      c->what, c->module, c->file ? c->file : "none", c->want ? "yes" : "no");
	ks_module_free(&m);
	cmd = ks_strdupf("rm -rf '%s'", top);
	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
	free(file);
	free(root);
	free(dbg);
}
END_TEST

START_TEST(search_flag)
{
	struct ks_module m = { .path = strdup("/nonexistent/x.ko") };

	m.debug.search = true;
	ck_assert(ks_debugfile_possible(&m, "/nonexistent"));
	m.debug.search = false;
	ck_assert(!ks_debugfile_possible(&m, "/nonexistent"));
	ks_module_free(&m);
}
END_TEST

static Suite *suite_debugfile(void)
{
	Suite *s = suite_create("debugfile");
	TCase *tc = tcase_create("possible");

	tcase_add_loop_test(tc, possible, 0, KS_NCASES(possible_cases));
	tcase_add_test(tc, search_flag);
	suite_add_tcase(s, tc);
	return s;
}
KS_SUITE(suite_debugfile)
