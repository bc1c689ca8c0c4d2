/* The DWARF location source's rules that need no object: whose source a
 * path is (dwarf/dwarfpath.c), which imports the compiler makes
 * (module/policy.c), --locations, and display columns. The reading of
 * real objects is tests/shell/t-dwarf.sh's. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/locate.h"
#include "dwarf/dwarf.h"
#include "dwarf/dwarfpath.h"
#include "module/policy.h"
#include "suites.h"

/* The kernel trees of these cases: two on "disk", others by name. */
static bool fake_tree(void *ctx, const char *dir)
{
	(void)ctx;
	return !strcmp(dir, "/build/kernel") || !strcmp(dir, "/home/u/src/kbuild-out") ||
	       !strncmp(strrchr(dir, '/'), "/linux-headers-", 15);
}

static const struct {
	const char *path;
	int foreign;
} paths[] = {
	/* a kernel tree's include/ and arch/ARCH/include/ */
	{ "/build/kernel/include/linux/fs.h", 1 },
	{ "/build/kernel/arch/x86/include/asm/current.h", 1 },
	{ "/usr/src/linux-headers-6.1.0-57-common/include/linux/fs.h", 1 },
	{ "/home/u/src/kbuild-out/include/generated/autoconf.h", 1 },
	/* an in-tree module's own files are not the tree's headers */
	{ "/build/kernel/drivers/rtc/rtc-x.c", 0 },
	{ "/build/kernel/drivers/rtc/rtc-x.h", 0 },
	{ "/build/kernel/arch/x86/kvm/x86.c", 0 },
	/* a module's own include/, even one named linux/ */
	{ "/home/u/drv/include/linux/compat.h", 0 },
	{ "/home/u/drv/main.c", 0 },
	/* the compiler's headers, built-ins */
	{ "/usr/lib/gcc/x86_64-linux-gnu/12/include/stdarg.h", 1 },
	{ "/usr/include/stdio.h", 1 },
	{ "<built-in>", 1 },
};

START_TEST(test_classify)
{
	int got = ks_dwarfpath_classify(paths[_i].path, fake_tree, NULL);

	ck_assert_msg(got == paths[_i].foreign, "%s: got %d, want %d", paths[_i].path, got,
		      paths[_i].foreign);
}
END_TEST

static const struct {
	const char *sym;
	bool generated;
} imports[] = {
	{ "__fentry__", true },		{ "__x86_return_thunk", true },
	{ "__stack_chk_fail", true },	{ "__x86_indirect_thunk_rax", true },
	{ "__x86_indirect_thunk_r11", true }, { "printk", false },
	{ "__SCT__cond_resched", false }, { "__fentry", false },
};

START_TEST(test_generated)
{
	ck_assert_msg(ks_import_generated(imports[_i].sym) == imports[_i].generated, "%s",
		      imports[_i].sym);
}
END_TEST

START_TEST(test_locations)
{
	struct ks_locate_opts o = { .only = true, .source = KS_SOURCE_DWARF };

	ck_assert_int_eq(ks_locations_parse("auto", &o), 0);
	ck_assert(!o.only);
	ck_assert(ks_locate_reads(&o));
	ck_assert_int_eq(ks_locations_parse("plugin", &o), 0);
	ck_assert(o.only && o.source == KS_SOURCE_PLUGIN);
	ck_assert(!ks_locate_reads(&o));
	ck_assert_int_eq(ks_locations_parse("dwarf", &o), 0);
	ck_assert(o.only && o.source == KS_SOURCE_DWARF);
	ck_assert(ks_locate_reads(&o));
	ck_assert_int_eq(ks_locations_parse("DWARF", &o), -EINVAL);
	ck_assert_int_eq(ks_locations_parse("", &o), -EINVAL);
}
END_TEST

/* DWARF's byte columns become GCC's display columns; a source that
 * cannot be read leaves them alone. */
START_TEST(test_display_col)
{
	static const struct {
		unsigned line, col, want;
	} cases[] = {
		{ 1, 2, 9 },	/* after a tab */
		{ 1, 10, 17 },	/* "\tmajor = r" */
		{ 2, 5, 4 },	/* after a two-byte UTF-8 character */
		{ 2, 1, 1 },
		{ 3, 4, 4 },	/* past the end of the line: unchanged */
		{ 9, 3, 3 },	/* past the end of the file: unchanged */
	};
	char path[] = "/tmp/ksunset-dwarf-XXXXXX";
	struct ks_dwarfpath p = { 0 };
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	ck_assert_ptr_nonnull(f);
	fputs("\tmajor = register_chrdev(0);\n\xc3\xa9t\xc3\xa9\n{}\n", f);
	ck_assert_int_eq(fclose(f), 0);
	for (int i = 0; i < KS_NCASES(cases); i++) {
		unsigned col = cases[i].col;

		ks_dwarfpath_display_col(&p, path, cases[i].line, &col);
		ck_assert_msg(col == cases[i].want, "line %u col %u: got %u, want %u",
			      cases[i].line, cases[i].col, col, cases[i].want);
	}
	unlink(path);
	{
		unsigned col = 2;

		ks_dwarfpath_display_col(&p, path, 1, &col);
		ck_assert_uint_eq(col, 9);	/* the cached text; a new file: */
		ks_dwarfpath_display_col(&p, "/nonexistent/x.c", 1, &col);
		ck_assert_uint_eq(col, 9);
	}
	ks_dwarfpath_free(&p);
}
END_TEST

static Suite *suite_dwarf(void)
{
	Suite *s = suite_create("dwarf");
	TCase *tc = tcase_create("dwarf");

	tcase_add_loop_test(tc, test_classify, 0, KS_NCASES(paths));
	tcase_add_loop_test(tc, test_generated, 0, KS_NCASES(imports));
	tcase_add_test(tc, test_locations);
	tcase_add_test(tc, test_display_col);
	suite_add_tcase(s, tc);
	return s;
}
KS_SUITE(suite_dwarf)
