/* lib/cond.c: the branches of a file's conditionals, their lines and
 * conditions, and the identifiers a condition tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "buf.h"
#include "cond.h"

static char *joined(const struct ks_cond_branch *b)
{
	struct ks_buf out = KS_BUF_INIT;

	for (size_t i = 0; b && i < b->nconds; i++)
		ks_buf_addf(&out, "%s%s", i ? " && " : "", b->conds[i]);
	return out.p ? ks_buf_steal(&out) : strdup("");
}

static void expect_at(const struct ks_cond_file *f, unsigned line, const char *want)
{
	char *got = joined(ks_cond_at(f, line));

	ck_assert_msg(!strcmp(got, want), "line %u:\n got  %s\n want %s", line, got, want);
	free(got);
}

START_TEST(test_branches)
{
	const char *text = "#include <linux/version.h>\n"			/* 1 */
			   "#ifndef _FOO_H\n"					/* 2 */
			   "#define _FOO_H\n"					/* 3 */
			   "#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0) /* new */\n" /* 4 */
			   "a();\n"						/* 5 */
			   "#elif LINUX_VERSION_CODE >= \\\n"			/* 6 */
			   "      KERNEL_VERSION(5, 14, 0)\n"			/* 7 */
			   "b();\n"						/* 8 */
			   "#else\n"						/* 9 */
			   "  # ifdef CONFIG_X\n"				/* 10 */
			   "c(\"#endif\"); // #endif\n"				/* 11 */
			   "/* #else\n"						/* 12 */
			   "   */\n"						/* 13 */
			   "#  endif\n"						/* 14 */
			   "#endif\n"						/* 15 */
			   "d();\n"						/* 16 */
			   "#endif\n"						/* 17 */
			   "e();\n";						/* 18 */
	struct ks_cond_file f;

	ks_cond_scan(text, strlen(text), &f);
	expect_at(&f, 1, "");
	expect_at(&f, 3, "!defined(_FOO_H)");
	expect_at(&f, 5, "!defined(_FOO_H) && (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0))");
	expect_at(&f, 8, "!defined(_FOO_H) && !(LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)) && "
			 "(LINUX_VERSION_CODE >=       KERNEL_VERSION(5, 14, 0))");
	expect_at(&f, 11, "!defined(_FOO_H) && !(LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)) && "
			  "!(LINUX_VERSION_CODE >=       KERNEL_VERSION(5, 14, 0)) && defined(CONFIG_X)");
	expect_at(&f, 13, "!defined(_FOO_H) && !(LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)) && "
			  "!(LINUX_VERSION_CODE >=       KERNEL_VERSION(5, 14, 0)) && defined(CONFIG_X)");
	expect_at(&f, 16, "!defined(_FOO_H)");
	expect_at(&f, 18, "");
	ck_assert_uint_eq(ks_cond_at(&f, 16)->first, 3);
	ck_assert_uint_eq(ks_cond_at(&f, 16)->last, 16);
	ck_assert_uint_eq(ks_cond_at(&f, 8)->first, 8);
	ck_assert_uint_eq(ks_cond_at(&f, 8)->last, 8);
	ks_cond_free(&f);
}
END_TEST

/* A conditional left open ends with the file; stray #else and #endif,
 * an empty file, and a file without a final newline. */
START_TEST(test_ragged)
{
	const char *text = "#endif\n#else\n#ifdef A\nx\n#ifndef B\ny";
	struct ks_cond_file f;

	ks_cond_scan(text, strlen(text), &f);
	expect_at(&f, 4, "defined(A)");
	expect_at(&f, 6, "defined(A) && !defined(B)");
	ks_cond_free(&f);
	ks_cond_scan("", 0, &f);
	ck_assert_uint_eq(f.n, 0);
	ck_assert_ptr_null(ks_cond_at(&f, 1));
	ks_cond_free(&f);
}
END_TEST

/* CRLF line ends (a Windows editor's): the same branches, conditions
 * without a carriage return, continuations over CRLF. */
START_TEST(test_crlf)
{
	const char *text = "#if LINUX_VERSION_CODE >= \\\r\n"	/* 1, 2 */
			   "    KERNEL_VERSION(5, 0, 0)\r\n"
			   "a();\r\n"					/* 3 */
			   "#else\r\n"					/* 4 */
			   "b();\r\n"					/* 5 */
			   "#endif\r\n";
	struct ks_cond_file f;

	ks_cond_scan(text, strlen(text), &f);
	expect_at(&f, 3, "(LINUX_VERSION_CODE >=     KERNEL_VERSION(5, 0, 0))");
	expect_at(&f, 5, "!(LINUX_VERSION_CODE >=     KERNEL_VERSION(5, 0, 0))");
	ck_assert_uint_eq(ks_cond_at(&f, 3)->first, 3);
	ks_cond_free(&f);
}
END_TEST

/* A string literal continued over lines (nvidia-fs's messages) counts
 * each of its lines, LF or CRLF. */
START_TEST(test_literal_lines)
{
	const char *texts[] = { "f(\"one \\\n"	/* 1, 2 */
				"two\", '\\\n');\n"	/* 3 */
				"#if X\n"		/* 4 */
				"a();\n"		/* 5 */
				"#endif\n",
				"f(\"one \\\r\n"
				"two\", '\\\r\n');\r\n"
				"#if X\r\n"
				"a();\r\n"
				"#endif\r\n" };

	for (size_t i = 0; i < KS_ARRAY_SIZE(texts); i++) {
		struct ks_cond_file f;

		ks_cond_scan(texts[i], strlen(texts[i]), &f);
		ck_assert_ptr_null(ks_cond_at(&f, 4));
		expect_at(&f, 5, "(X)");
		ck_assert_uint_eq(ks_cond_at(&f, 5)->first, 5);
		ks_cond_free(&f);
	}
}
END_TEST

/* #define and #undef lines; "defined X" forms made a condition. */
START_TEST(test_defines)
{
	const char *text = "#if LINUX_VERSION_CODE >= KERNEL_VERSION(3, 10, 0)\n"
			   "# define HAVE_PROC_CREATE\n"
			   "#endif\n"
			   "#define F(x) (x)\n"
			   "#undef F\n";
	struct ks_cond_file f;
	char *r;

	ks_cond_scan(text, strlen(text), &f);
	ck_assert_uint_eq(f.ndefs, 3);
	ck_assert_str_eq(f.defs[0].name, "HAVE_PROC_CREATE");
	ck_assert_uint_eq(f.defs[0].line, 2);
	ck_assert(!f.defs[0].undef);
	ck_assert_str_eq(f.defs[1].name, "F");
	ck_assert_str_eq(f.defs[2].name, "F");
	ck_assert(f.defs[2].undef);
	expect_at(&f, 2, "(LINUX_VERSION_CODE >= KERNEL_VERSION(3, 10, 0))");
	ks_cond_free(&f);

	r = ks_cond_replace_defined("!defined(HAVE_X) && defined HAVE_X || defined ( HAVE_X ) || "
				    "defined(HAVE_XY) || undefined(HAVE_X) || HAVE_X",
				    "HAVE_X", 6, "V >= 2");
	ck_assert_str_eq(r, "!(V >= 2) && (V >= 2) || (V >= 2) || defined(HAVE_XY) || "
			    "undefined(HAVE_X) || HAVE_X");
	free(r);
}
END_TEST

static int collect(const char *id, size_t n, void *arg)
{
	struct ks_buf *b = arg;

	ks_buf_addf(b, "%s%.*s", b->len ? " " : "", (int)n, id);
	return 0;
}

START_TEST(test_idents)
{
	static const struct {
		const char *cond, *want;
	} cases[] = {
		{ "(LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0))", "LINUX_VERSION_CODE KERNEL_VERSION" },
		{ "!defined(EL8)", "EL8" },
		{ "(defined FOO && BAR > 0x10UL)", "FOO BAR" },
		{ "(__has_include(<linux/gso.h>) && X)", "X" },
		{ "(__has_builtin(__builtin_foo) || 'a' == Y)", "Y" },
		{ "(\"str\" && 1e5)", "" },
	};

	for (size_t i = 0; i < KS_ARRAY_SIZE(cases); i++) {
		struct ks_buf b = KS_BUF_INIT;

		ck_assert_int_eq(ks_cond_idents(cases[i].cond, collect, &b), 0);
		ck_assert_msg(!strcmp(b.p ? b.p : "", cases[i].want), "%s:\n got  %s\n want %s",
			      cases[i].cond, b.p ? b.p : "", cases[i].want);
		ks_buf_free(&b);
	}
}
END_TEST

/* What the plugin would say of each name, outside the module's files. */
static enum ks_ident_is fake_is(const char *id, size_t n, const char **value, void *arg)
{
	(void)arg;
	if ((n == 18 && !strncmp(id, "LINUX_VERSION_CODE", n)) ||
	    (n == 14 && !strncmp(id, "KERNEL_VERSION", n)))
		return KS_IDENT_KERNEL;
	if (n == 6 && !strncmp(id, "MYFLAG", n)) {
		if (value)
			*value = "4";
		return KS_IDENT_FLAG;
	}
	return n > 2 && !strncmp(id, "__", 2) ? KS_IDENT_SAME : KS_IDENT_NONE;
}

/* Conditions rewritten for the target's preprocessor: the module's own
 * macros replaced by their #defines where read, each under its branch's
 * conditions; the command line's by their values; the rest kept. */
START_TEST(test_resolve)
{
	const char *text = "#ifndef RHEL_RELEASE_VERSION\n"				/* 1 */
			   "#define RHEL_RELEASE_VERSION(a, b) (((a) << 8) + (b))\n"	/* 2 */
			   "#endif\n"						/* 3 */
			   "#define HAS_NEW() (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0))\n"
			   "#if defined(CONFIG_X86)\n"				/* 5 */
			   "#ifndef A_H\n"						/* 6 */
			   "#define A_H\n"						/* 7 */
			   "#endif\n"						/* 8 */
			   "#endif\n"						/* 9 */
			   "#if X\n"							/* 10 */
			   "#define TWICE 2\n"					/* 11 */
			   "#else\n"							/* 12 */
			   "#define TWICE 3\n"					/* 13 */
			   "#endif\n"						/* 14 */
			   "#undef GONE\n"						/* 15 */
			   "#define GONE 1\n"					/* 16 */
			   "#define PASTE(a) a##1\n"				/* 17 */
			   "#undef NOPOLL\n"					/* 18 */
			   "#if X\n"							/* 19 */
			   "#undef SOMETIMES\n"					/* 20 */
			   "#endif\n"						/* 21 */
			   "#define AT(a, b, c, ra, rb) KERNEL_VERSION(a, b, c) + KERNEL_VERSION(ra, rb, 0)\n"; /* 22 */
	static const struct {
		unsigned line;
		const char *cond, *want;	/* want NULL: cannot be rewritten */
	} cases[] = {
		{ 20, "(RHEL_RELEASE_CODE >= RHEL_RELEASE_VERSION(9, 2))",
		  "(RHEL_RELEASE_CODE >= (((!(defined(RHEL_RELEASE_VERSION)))) ? (((((9)) << 8) + "
		  "(( 2)))) : 0))" },
		{ 6, "!defined(A_H)", "!(defined(A_H))" },
		{ 20, "!defined(A_H)",
		  "!(defined(A_H) || ((((defined(CONFIG_X86)))) && (!(defined(A_H)))))" },
		{ 20, "(HAS_NEW())", "(((1) ? ((LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0))) : 0))" },
		{ 20, "(TWICE > 2)", "(((((X))) ? (2) : ((!(X))) ? (3) : TWICE) > 2)" },
		{ 20, "(MYFLAG > 3 && defined(MYFLAG) && __GNUC__ > 4)",
		  "((4) > 3 && 1 && __GNUC__ > 4)" },
		{ 20, "(__has_include(<A_H.h>) && HAS_NEW)", "(__has_include(<A_H.h>) && 0)" },
		{ 20, "(GONE)", NULL },
		{ 20, "(PASTE(x))", NULL },
		/* only #undef'd, outside any #if: undefined on any kernel */
		{ 30, "!defined(NOPOLL)", "!0" },
		{ 30, "(NOPOLL > 1)", "(0 > 1)" },
		/* #undef'd under a condition, defined nowhere: undefined too */
		{ 30, "(SOMETIMES)", "(0)" },
		/* a call of a name that is no macro here: 0, not a syntax error */
		{ 30, "(EL_VERSION(8, 0) > 1 || X)", "(0 > 1 || X)" },
		/* arguments alike are arguments still (jool's (4, 10, 0, 8, 0)) */
		{ 30, "(AT(4, 10, 0, 8, 0))",
		  "(((1) ? (KERNEL_VERSION((4), ( 10), ( 0)) + KERNEL_VERSION(( 8), ( 0), 0)) : 0))" },
	};
	struct ks_cond_file f;
	struct ks_cond_src src = { "m.c", &f };
	struct ks_cond_ctx c = { &src, 1, fake_is, NULL };

	ks_cond_scan(text, strlen(text), &f);
	for (size_t i = 0; i < KS_ARRAY_SIZE(cases); i++) {
		char *why = NULL;
		char *got = ks_cond_resolve(&c, 0, cases[i].line, cases[i].cond, &why);

		if (!cases[i].want)
			ck_assert_msg(!got && why, "%s: got %s, want none", cases[i].cond, got);
		else
			ck_assert_msg(got && !strcmp(got, cases[i].want), "%s:\n got  %s\n want %s (%s)",
				      cases[i].cond, got, cases[i].want, why);
		free(got);
		free(why);
	}
	ks_cond_free(&f);
}
END_TEST

/* An #undef inside a header's include guard only is read on every kernel
 * (dahdi's voicebus.h); inside another #if it is not, yet a macro nothing
 * else defines is undefined all the same (dahdi's USE_ASYNC_INIT); one the
 * command line defines cannot be followed, and why names it. */
START_TEST(test_resolve_guarded_undef)
{
	const char *h = "#ifndef G_H\n#define G_H\n#undef ECREF\n#if X\n#undef MAYBE\n"
			"#undef MYFLAG\n#endif\n#endif\n";
	const char *m = "#ifndef NOT_A_GUARD\n#define OTHER 1\n#undef LATER\n#endif\nint x;\n";
	struct ks_cond_file f[2];
	struct ks_cond_src src[2] = { { "g.h", &f[0] }, { "m.c", &f[1] } };
	struct ks_cond_ctx c = { src, 2, fake_is, NULL };
	char *why = NULL, *got;

	ks_cond_scan(h, strlen(h), &f[0]);
	ks_cond_scan(m, strlen(m), &f[1]);
	got = ks_cond_resolve(&c, 1, 5, "!defined(ECREF)", &why);
	ck_assert_str_eq(got, "!0");
	free(got);
	got = ks_cond_resolve(&c, 1, 5, "(MAYBE)", &why);
	ck_assert_str_eq(got, "(0)");
	free(got);
	got = ks_cond_resolve(&c, 1, 5, "(LATER)", &why);
	ck_assert_str_eq(got, "(0)");
	free(got);
	got = ks_cond_resolve(&c, 1, 5, "(MYFLAG > 1)", &why);
	ck_assert_ptr_null(got);
	ck_assert_ptr_nonnull(strstr(why, "it tests MYFLAG, which the module #undefs under a condition"));
	free(why);
	ks_cond_free(&f[0]);
	ks_cond_free(&f[1]);
}
END_TEST

/* A configure script's header: what it defines, and what it says it
 * left undefined, configure decides for each kernel; no probe can ask. */
START_TEST(test_resolve_configure)
{
	const char *cfg = "/* config.h.  Generated from config.h.in by configure.  */\n"
			  "#define HAVE_A 1\n"
			  "/* #undef HAVE_B */\n";
	const char *conds[] = { "defined(HAVE_A)", "(HAVE_B)" }, *names[] = { "HAVE_A", "HAVE_B" };
	struct ks_cond_file f[2];
	struct ks_cond_src src[2] = { { "config.h", &f[0] }, { "m.c", &f[1] } };
	struct ks_cond_ctx c = { src, 2, fake_is, NULL };
	char *why = NULL, *got;

	ks_cond_scan(cfg, strlen(cfg), &f[0]);
	ks_cond_scan("", 0, &f[1]);
	ck_assert(f[0].configure);
	ck_assert(!f[1].configure);
	for (size_t i = 0; i < KS_ARRAY_SIZE(conds); i++) {
		char want[128];

		got = ks_cond_resolve(&c, 1, 5, conds[i], &why);
		snprintf(want, sizeof(want), "it tests %s, which the module's configure script sets "
					     "for the kernel it runs for", names[i]);
		ck_assert_ptr_null(got);
		ck_assert_str_eq(why, want);
		free(why);
	}
	/* conftest.sh's: nothing but #define and #undef, some #undef */
	ks_cond_free(&f[0]);
	cfg = "#define NV_A_PRESENT\n#undef NV_B_PRESENT\n";
	ks_cond_scan(cfg, strlen(cfg), &f[0]);
	ck_assert(f[0].configure);
	got = ks_cond_resolve(&c, 1, 5, "!defined(NV_B_PRESENT)", &why);
	ck_assert_ptr_null(got);
	ck_assert_ptr_nonnull(strstr(why, "NV_B_PRESENT"));
	free(why);
	/* nvidia-fs's, its guard and all */
	ks_cond_free(&f[0]);
	cfg = "/*\n * Automatically generated by configure - do not modify\n */\n"
	      "#ifndef CONFIG_HOST_H\n#define CONFIG_HOST_H\n#define HAVE_X 1\n#endif\n";
	ks_cond_scan(cfg, strlen(cfg), &f[0]);
	ck_assert(f[0].configure);
	/* a header of constants, or with code, is no test's answer */
	for (size_t i = 0; i < 2; i++) {
		const char *t = i ? "#define A 1\n#define B 2\n" : "#undef A\nint a;\n";
		struct ks_cond_file g;

		ks_cond_scan(t, strlen(t), &g);
		ck_assert(!g.configure);
		ks_cond_free(&g);
	}
	got = ks_cond_resolve(&c, 1, 5, "defined(HAVE_C)", &why);
	ck_assert_str_eq(got, "(defined(HAVE_C))");
	ck_assert_ptr_null(why);
	free(got);
	ks_cond_free(&f[0]);
	ks_cond_free(&f[1]);
}
END_TEST

static Suite *suite_cond(void)
{
	Suite *s = suite_create("cond");
	TCase *t = tcase_create("scan");

	tcase_add_test(t, test_branches);
	tcase_add_test(t, test_ragged);
	tcase_add_test(t, test_resolve_configure);
	tcase_add_test(t, test_crlf);
	tcase_add_test(t, test_literal_lines);
	tcase_add_test(t, test_idents);
	tcase_add_test(t, test_defines);
	tcase_add_test(t, test_resolve);
	tcase_add_test(t, test_resolve_guarded_undef);
	suite_add_tcase(s, t);
	return s;
}
KS_SUITE(suite_cond)
