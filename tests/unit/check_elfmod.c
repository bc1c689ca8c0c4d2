/* Reading modules: license classification, ignored undefined symbols,
 * and a real object assembled from tests/data/elf/records.S during the
 * build (imports, .modinfo, plugin records, a malformed record). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "elfmod.h"
#include "suites.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const struct {
	const char *license;
	int gpl;
} licenses[] = {
	{ "GPL", 1 },		{ "GPL v2", 1 },	   { "GPL and additional rights", 1 },
	{ "Dual BSD/GPL", 1 }, { "Dual MIT/GPL", 1 }, { "Dual MPL/GPL", 1 },
	{ "Proprietary", 0 },	{ "GPL v3", 0 },	   { "gpl", 0 },
	{ "", 0 },		{ NULL, 0 },
};

START_TEST(test_license)
{
	ck_assert_msg(ks_license_gpl_compatible(licenses[_i].license) == licenses[_i].gpl,
		      "license '%s'", licenses[_i].license ? licenses[_i].license : "(none)");
}
END_TEST

START_TEST(test_ignored)
{
	ck_assert(ks_undef_ignored("__this_module"));
	ck_assert(ks_undef_ignored("_GLOBAL_OFFSET_TABLE_"));
	ck_assert(ks_undef_ignored("_restgpr_14_x"));
	ck_assert(!ks_undef_ignored("printk"));
	ck_assert(!ks_undef_ignored("__fentry__"));
}
END_TEST

START_TEST(test_records_object)
{
	struct ks_module m;
	struct ks_diags d = { 0 };

	ck_assert_int_eq(ks_elf_init(), 0);
	ck_assert_int_eq(ks_module_load(&m, KS_FIXTURES "/records.o", &d), 0);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_str_eq(m.name, "records");
	ck_assert_str_eq(m.license, "GPL");
	ck_assert(m.gpl_compatible);
	ck_assert_str_eq(m.vermagic, "6.1.0-57-amd64 SMP preempt mod_unload modversions ");
	ck_assert_uint_eq(m.nundef, 2);
	ck_assert_str_eq(m.undef[0], "do_settimeofday64");
	ck_assert_str_eq(m.undef[1], "simple_strtoul");
	ck_assert(ks_module_imports(&m, "simple_strtoul"));
	ck_assert(!ks_module_imports(&m, "f"));		/* defined here */
	ck_assert_uint_eq(m.nunits, 1);
	ck_assert_uint_eq(m.nuses, 4);			/* the newer record skipped */
	ck_assert_str_eq(m.uses[1].symbol, "do_settimeofday64");
	ck_assert_int_eq(m.uses[1].kind, KS_USE_ADDR);
	ck_assert_uint_eq(m.uses[1].line, 20);
	ck_assert_str_eq(m.uses[1].function, "");
	ck_assert(!m.bad_records);
	ks_module_free(&m);
}
END_TEST

START_TEST(test_bad_record_object)
{
	struct ks_module m;
	struct ks_diags d = { 0 };
	char *msg;

	ck_assert_int_eq(ks_elf_init(), 0);
	ck_assert_int_eq(ks_module_load(&m, KS_FIXTURES "/bad-record.o", &d), 0);
	ck_assert(m.bad_records);
	ck_assert_uint_eq(m.nuses, 3);
	ck_assert_uint_eq(d.n, 1);
	msg = ks_diag_format(&d.v[0]);
	ck_assert_str_eq(msg, KS_FIXTURES "/bad-record.o: error: malformed .note.ksunset record 3: "
					  "bad kind (expected call, addr or data)");
	free(msg);
	ks_diags_free(&d);
	ks_module_free(&m);
}
END_TEST

START_TEST(test_not_elf)
{
	struct ks_module m;
	struct ks_diags d = { 0 };
	char img[] = "\177ELF but not really an object file at all";

	ck_assert_int_eq(ks_elf_init(), 0);
	ck_assert_int_eq(ks_module_parse(&m, "x.ko", img, sizeof(img), &d), -EINVAL);
	ck_assert_uint_eq(d.nerrors, 1);
	ck_assert_str_eq(d.v[0].file, "x.ko");
	ks_diags_free(&d);
	ck_assert_int_eq(ks_module_parse(&m, "y.ko", img, 3, &d), -EINVAL);
	ck_assert_str_eq(d.v[0].msg, "file too short to be an ELF object");
	ks_diags_free(&d);
}
END_TEST

Suite *suite_elfmod(void)
{
	Suite *s = suite_create("elfmod");
	TCase *tc = tcase_create("read");

	tcase_add_loop_test(tc, test_license, 0, N(licenses));
	tcase_add_test(tc, test_ignored);
	tcase_add_test(tc, test_records_object);
	tcase_add_test(tc, test_bad_record_object);
	tcase_add_test(tc, test_not_elf);
	suite_add_tcase(s, tc);
	return s;
}
