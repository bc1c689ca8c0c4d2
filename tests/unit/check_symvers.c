/* Module.symvers parsing: fields, export types, namespaces, and the
 * message for each malformed line. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "input/symvers.h"

static int parse(struct ks_symvers *sv, struct ks_diags *d, const char *text, char **keep)
{
	*keep = strdup(text);
	return ks_symvers_parse(sv, "Module.symvers", *keep, strlen(text), d);
}

START_TEST(test_good)
{
	struct ks_symvers sv = { 0 };
	struct ks_diags d = { 0 };
	const struct ks_export *e;
	char *text;
	const char *in = "0x7a95e5ae\tdo_settimeofday64\tvmlinux\tEXPORT_SYMBOL\t\n"
			 "0x12345678\tcxl_foo\tdrivers/cxl/core/cxl_core\tEXPORT_SYMBOL_GPL\tCXL\n"
			 "0x00000000\told_format\tvmlinux\tEXPORT_SYMBOL\n"
			 "0x11111111\tdo_settimeofday64\tother\tEXPORT_SYMBOL_GPL\t\n";

	ck_assert_int_eq(parse(&sv, &d, in, &text), 0);
	ck_assert_uint_eq(d.n, 1);	/* do_settimeofday64 twice: a warning */
	ck_assert_uint_eq(d.nerrors, 0);
	ck_assert_uint_eq(sv.n, 3);
	e = ks_symvers_lookup(&sv, "do_settimeofday64");
	ck_assert_str_eq(e->module, "vmlinux");	/* the first export wins */
	ck_assert(!e->gpl);
	ck_assert_str_eq(e->ns, "");
	e = ks_symvers_lookup(&sv, "cxl_foo");
	ck_assert(e->gpl);
	ck_assert_str_eq(e->ns, "CXL");
	ck_assert_str_eq(e->module, "drivers/cxl/core/cxl_core");
	ck_assert_uint_eq(e->line, 2);
	ck_assert_str_eq(ks_symvers_lookup(&sv, "old_format")->ns, "");
	ck_assert_ptr_null(ks_symvers_lookup(&sv, "missing"));
	ks_diags_free(&d);
	ks_symvers_free(&sv);
	free(text);
}
END_TEST

static const struct {
	const char *line;
	const char *msg;
} bad[] = {
	{ "garbage", "Module.symvers:1: error: expected CRC, symbol, module, export type and namespace separated by tabs: 'garbage'" },
	{ "0x1\ta\tvmlinux", "Module.symvers:1: error: expected CRC, symbol, module, export type and namespace separated by tabs: '0x1\ta\tvmlinux'" },
	{ "0x1\ta\tvmlinux\tEXPORT_SYMBOL\tNS\textra", "Module.symvers:1: error: too many fields: '0x1\ta\tvmlinux\tEXPORT_SYMBOL\tNS\textra'" },
	{ "1234\ta\tvmlinux\tEXPORT_SYMBOL\t", "Module.symvers:1: error: bad CRC: '1234'" },
	{ "0x\ta\tvmlinux\tEXPORT_SYMBOL\t", "Module.symvers:1: error: bad CRC: '0x'" },
	{ "0x1\ta-b\tvmlinux\tEXPORT_SYMBOL\t", "Module.symvers:1: error: bad symbol name: 'a-b'" },
	{ "0x1\ta\t\tEXPORT_SYMBOL\t", "Module.symvers:1: error: empty module name: '0x1\ta\t\tEXPORT_SYMBOL\t'" },
	{ "0x1\ta\tvmlinux\tEXPORT_IT\t", "Module.symvers:1: error: bad export type: 'EXPORT_IT'" },
	/* binary garbage is not echoed raw to a terminal */
	{ "\x7f" "ELF\x02\x01\x1b[2J", "Module.symvers:1: error: expected CRC, symbol, module, export type and namespace separated by tabs: '\\x7fELF\\x02\\x01\\x1b[2J'" },
};

/* A file written on Windows: no '\r' in the namespace. A symbol exported
 * twice in one file: a warning naming both lines (the first counts). */
START_TEST(test_crlf_twice)
{
	struct ks_symvers sv = { 0 };
	struct ks_diags d = { 0 };
	char *text, *msg;

	ck_assert_int_eq(parse(&sv, &d, "0x1\ta\tvmlinux\tEXPORT_SYMBOL\tNS\r\n"
				      "0x2\ta\tm\tEXPORT_SYMBOL_GPL\t\r\n"
				      "0x3\tb\tvmlinux\tEXPORT_SYMBOL\t\r\n"
				      "0x4\tb\tvmlinux\tEXPORT_SYMBOL\t\r\n", &text), 0);
	ck_assert_str_eq(ks_symvers_lookup(&sv, "a")->ns, "NS");
	ck_assert(!ks_symvers_lookup(&sv, "a")->gpl);
	ck_assert_uint_eq(d.n, 1);
	ck_assert_uint_eq(d.nerrors, 0);
	msg = ks_diag_format(&d.v[0]);
	ck_assert_str_eq(msg, "Module.symvers:2: warning: 'a' exported again (first at line 1); so is 1 more symbol; the first export counts");
	free(msg);
	ks_diags_free(&d);
	ks_symvers_free(&sv);
	free(text);
}
END_TEST

/* One duplicate alone, and one followed by two more. */
START_TEST(test_twice_counts)
{
	static const struct {
		const char *text, *msg;
	} c[] = {
		{ "0x1\ta\tvmlinux\tEXPORT_SYMBOL\t\n0x2\ta\tm\tEXPORT_SYMBOL\t\n",
		  "Module.symvers:2: warning: 'a' exported again (first at line 1); the first export counts" },
		{ "0x1\ta\tvmlinux\tEXPORT_SYMBOL\t\n0x1\tb\tvmlinux\tEXPORT_SYMBOL\t\n"
		  "0x1\tc\tvmlinux\tEXPORT_SYMBOL\t\n0x2\ta\tm\tEXPORT_SYMBOL\t\n"
		  "0x2\tb\tm\tEXPORT_SYMBOL\t\n0x2\tc\tm\tEXPORT_SYMBOL\t\n",
		  "Module.symvers:4: warning: 'a' exported again (first at line 1); so are 2 more symbols; the first export counts" },
	};

	for (size_t i = 0; i < KS_ARRAY_SIZE(c); i++) {
		struct ks_symvers sv = { 0 };
		struct ks_diags d = { 0 };
		char *text, *msg;

		ck_assert_int_eq(parse(&sv, &d, c[i].text, &text), 0);
		ck_assert_uint_eq(d.n, 1);
		msg = ks_diag_format(&d.v[0]);
		ck_assert_str_eq(msg, c[i].msg);
		free(msg);
		ks_diags_free(&d);
		ks_symvers_free(&sv);
		free(text);
	}
}
END_TEST

START_TEST(test_bad)
{
	struct ks_symvers sv = { 0 };
	struct ks_diags d = { 0 };
	char *text, *msg;

	ck_assert_int_eq(parse(&sv, &d, bad[_i].line, &text), -EINVAL);
	ck_assert_uint_eq(d.n, 1);
	msg = ks_diag_format(&d.v[0]);
	ck_assert_msg(strcmp(msg, bad[_i].msg) == 0, "case %d:\n got  %s\n want %s", _i, msg,
		      bad[_i].msg);
	free(msg);
	ks_diags_free(&d);
	ks_symvers_free(&sv);
	free(text);
}
END_TEST

START_TEST(test_line_numbers_and_rest_kept)
{
	struct ks_symvers sv = { 0 };
	struct ks_diags d = { 0 };
	char *text;
	const char *in = "0x1\ta\tvmlinux\tEXPORT_SYMBOL\t\n\nbad\n0x2\tb\tvmlinux\tEXPORT_SYMBOL_GPL\t\n";

	ck_assert_int_eq(parse(&sv, &d, in, &text), -EINVAL);
	ck_assert_uint_eq(d.n, 1);
	ck_assert_uint_eq(d.v[0].line, 3);
	ck_assert_ptr_nonnull(ks_symvers_lookup(&sv, "b"));
	ks_diags_free(&d);
	ks_symvers_free(&sv);
	free(text);
}
END_TEST

START_TEST(test_load_missing)
{
	struct ks_symvers sv = { 0 };
	struct ks_diags d = { 0 };

	ck_assert_int_eq(ks_symvers_load(&sv, "/nonexistent/Module.symvers", &d), -ENOENT);
	ck_assert_str_eq(d.v[0].msg, "cannot read Module.symvers: No such file or directory");
	ks_diags_free(&d);
	ks_symvers_free(&sv);
}
END_TEST

static Suite *suite_symvers(void)
{
	Suite *s = suite_create("symvers");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, test_good);
	tcase_add_test(tc, test_crlf_twice);
	tcase_add_test(tc, test_twice_counts);
	tcase_add_loop_test(tc, test_bad, 0, KS_NCASES(bad));
	tcase_add_test(tc, test_line_numbers_and_rest_kept);
	tcase_add_test(tc, test_load_missing);
	suite_add_tcase(s, tc);
	return s;
}
KS_SUITE(suite_symvers)
