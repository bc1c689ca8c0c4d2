/* unused and users: import counts over hand-made modules, owner matching,
 * the sorted lists, and the users schedule (importers and their records). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "rules/rules.h"
#include "suites.h"
#include "rules/imports.h"

static const char *symvers_text = "0x1\tzeta\tvmlinux\tEXPORT_SYMBOL\t\n"
				  "0x1\talpha\tvmlinux\tEXPORT_SYMBOL_GPL\t\n"
				  "0x1\tdrm_get\tdrivers/gpu/drm/drm\tEXPORT_SYMBOL\tDRM\n"
				  "0x1\tmid\tvmlinux\tEXPORT_SYMBOL\t\n";

struct fixture {
	struct ks_symvers sv;
	char *text;
	struct ks_imports u;
};

static void setup(struct fixture *f)
{
	struct ks_diags d = { 0 };

	memset(f, 0, sizeof(*f));
	f->text = strdup(symvers_text);
	ck_assert_int_eq(ks_symvers_parse(&f->sv, "sv", f->text, strlen(f->text), &d), 0);
	f->u.sv = &f->sv;
}

static void teardown(struct fixture *f)
{
	ks_imports_free(&f->u);
	ks_symvers_free(&f->sv);
	free(f->text);
}

/* imports that are not exports (printk here: not in this symvers) are ignored */
static char *imports_a[] = { "alpha", "mid", "printk" };
static char *imports_b[] = { "mid" };

START_TEST(test_counts)
{
	struct fixture f;
	struct ks_module a = { .path = "a.ko", .undef = imports_a, .nundef = KS_NCASES(imports_a) };
	struct ks_module b = { .path = "b.ko", .undef = imports_b, .nundef = KS_NCASES(imports_b) };

	setup(&f);
	ks_imports_add(&f.u, &a);
	ks_imports_add(&f.u, &b);
	ck_assert_uint_eq(ks_imports_count(&f.u, "alpha"), 1);
	ck_assert_uint_eq(ks_imports_count(&f.u, "mid"), 2);
	ck_assert_uint_eq(ks_imports_count(&f.u, "zeta"), 0);
	ck_assert_uint_eq(ks_imports_count(&f.u, "printk"), 0);
	teardown(&f);
}
END_TEST

static const struct {
	const char *owner;
	bool unused_only;
	const char *want;	/* the listed symbols, space-separated, in order */
} list_cases[] = {
	{ NULL, true, "drm_get zeta" },
	{ NULL, false, "alpha drm_get mid zeta" },
	{ "vmlinux", true, "zeta" },
	{ "drm", true, "drm_get" },
	{ "drivers/gpu/drm/drm", false, "drm_get" },
	{ "gpu/drm/drm", false, "" },	/* the whole column or its last part only */
	{ "nobody", false, "" },
};

START_TEST(test_list)
{
	struct fixture f;
	struct ks_module a = { .path = "a.ko", .undef = imports_a, .nundef = KS_NCASES(imports_a) };
	const struct ks_export **v;
	struct ks_buf got = KS_BUF_INIT;
	size_t n;

	setup(&f);
	ks_imports_add(&f.u, &a);
	ks_imports_list(&f.u, list_cases[_i].owner, list_cases[_i].unused_only, &v, &n);
	ks_buf_adds(&got, "");
	for (size_t i = 0; i < n; i++)
		ks_buf_addf(&got, "%s%s", i ? " " : "", v[i]->symbol);
	ck_assert_msg(strcmp(got.p, list_cases[_i].want) == 0, "owner %s unused_only %d: got '%s'",
		      list_cases[_i].owner, list_cases[_i].unused_only, got.p);
	ks_buf_free(&got);
	free(v);
	teardown(&f);
}
END_TEST

START_TEST(test_users)
{
	struct ks_schedule s = KS_SCHEDULE_INIT;
	struct ks_diags d = { 0 };
	char *syms[] = { "mid", "zeta" };
	char *imports[] = { "alpha", "mid" };
	struct ks_use uses[] = {
		{ "mid", KS_USE_CALL, "a.c", 9, 3, "f", KS_SOURCE_PLUGIN, .var = NULL },
		{ "mid", KS_USE_ADDR, "a.c", 4, 1, "", KS_SOURCE_PLUGIN, .var = NULL },
		/* recorded but no longer imported (inlined away): not a use */
		{ "zeta", KS_USE_CALL, "a.c", 12, 2, "g", KS_SOURCE_PLUGIN, .var = NULL },
	};
	struct ks_module m = { .path = "a.ko", .name = "a", .undef = imports, .nundef = KS_NCASES(imports),
			       .uses = { .v = uses, .n = KS_NCASES(uses) } };
	struct ks_check c = { .sched = &s, .opts = { .within = -1 } };

	ck_assert_int_eq(ks_users_schedule(&s, syms, KS_NCASES(syms), &d), 0);
	ks_check_module(&c, &m);
	ck_assert_uint_eq(c.found.n, 1);
	ck_assert_str_eq(c.found.v[0].symbol, "mid");
	ck_assert_uint_eq(c.found.v[0].nlocs, 2);
	ck_assert_uint_eq(c.found.v[0].locs[0].line, 4);
	ck_assert_int_eq(c.found.v[0].sev, KS_WARNING);
	ks_findings_free(&c.found);
	ks_schedule_free(&s);
	ks_diags_free(&d);
}
END_TEST

START_TEST(test_users_bad_symbol)
{
	struct ks_schedule s = KS_SCHEDULE_INIT;
	struct ks_diags d = { 0 };
	char *syms[] = { "ok", "ok" };

	ck_assert_int_eq(ks_users_schedule(&s, syms, KS_NCASES(syms), &d), -EINVAL);
	ck_assert_uint_eq(d.nerrors, 1);
	ck_assert_ptr_nonnull(strstr(d.v[0].msg, "'ok' is named twice"));
	ks_schedule_free(&s);
	ks_diags_free(&d);
}
END_TEST

static Suite *suite_imports(void)
{
	Suite *s = suite_create("imports");
	TCase *tc = tcase_create("unused and users");

	tcase_add_test(tc, test_counts);
	tcase_add_loop_test(tc, test_list, 0, KS_NCASES(list_cases));
	tcase_add_test(tc, test_users);
	tcase_add_test(tc, test_users_bad_symbol);
	suite_add_tcase(s, tc);
	return s;
}
KS_SUITE(suite_imports)
