/* The forecast's judgement (forecast/judge.c): one case per rule of a
 * kind, a shape as the plugin recorded it against 6.1, the fact a probe
 * of the target gave, whether the compiler failed on the rebuilt use and
 * whether the target exports the name, and the kind of break expected
 * (or none). Also the probe source written for a unit and its results
 * read back. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "forecast/probe.h"
#include "suites.h"

#define NONE KS_NBREAKS

static const struct {
	enum ks_shape_what what;
	const char *name, *old;
	enum ks_fact_status st;
	const char *now, *extra;
	bool error;		/* the compiler failed on the use */
	bool exported;		/* the target exports the name */
	bool hint;		/* the target's headers declare it elsewhere */
	enum ks_break want;
} cases[] = {
	/* a call: gone, or declared elsewhere; a declaration without export */
	{ KS_SHAPE_CALL, "strlcpy", "size_t(char *, const char *, size_t)", KS_FACT_NONE, "", "",
	  true, false, false, KS_BREAK_GONE },
	{ KS_SHAPE_CALL, "vzalloc", "void *(long unsigned int)", KS_FACT_NONE, "", "", true,
	  false, true, KS_BREAK_NOT_INCLUDED },
	{ KS_SHAPE_CALL, "PageMovable", "bool(struct page *)", KS_FACT_FUNCTION,
	  "bool(struct page *)", "1", false, false, false, KS_BREAK_GONE },
	{ KS_SHAPE_CALL, "kfree", "void(const void *)", KS_FACT_FUNCTION, "void(const void *)",
	  "1", false, true, false, NONE },
	/* the compiler judges a call: an error is a prototype, or a macro's arity */
	{ KS_SHAPE_CALL, "generic_fillattr", "void(struct user_namespace *)", KS_FACT_FUNCTION,
	  "void(struct mnt_idmap *, u32)", "2", true, true, false, KS_BREAK_PROTOTYPE },
	{ KS_SHAPE_CALL, "kmalloc", "void *(size_t, gfp_t)", KS_FACT_FMACRO, "(...)", "1+", false,
	  false, false, NONE },
	{ KS_SHAPE_CALL, "old_inline", "int(int, int)", KS_FACT_FMACRO, "(a)", "1", true, false,
	  false, KS_BREAK_ARITY },
	{ KS_SHAPE_CALL, "changed_inline", "int(int)", KS_FACT_INLINE, "int(long *)", "1", true,
	  false, false, KS_BREAK_PROTOTYPE },
	/* a function-like macro: its parameters, or what replaced it */
	{ KS_SHAPE_MACRO, "DEFINE_SEMAPHORE", "(name)", KS_FACT_FMACRO, "(_name, _n)", "2", false,
	  false, false, KS_BREAK_ARITY },
	{ KS_SHAPE_MACRO, "class_create", "(owner, name)", KS_FACT_FUNCTION,
	  "struct class *(const char *)", "1", false, true, false, KS_BREAK_ARITY },
	{ KS_SHAPE_MACRO, "pr_info", "(fmt, ...)", KS_FACT_FMACRO, "(fmt, ...)", "2+", false,
	  false, false, NONE },
	{ KS_SHAPE_MACRO, "min", "(x, y)", KS_FACT_FMACRO, "(x, y...)", "2+", false, false, false,
	  NONE },
	{ KS_SHAPE_MACRO, "to_va", "(a, b)", KS_FACT_FUNCTION, "int(int, int, ...)", "2+", false,
	  true, false, NONE },
	{ KS_SHAPE_MACRO, "BUFFER_FNS", "(bit, name)", KS_FACT_NONE, "", "", false, false, false,
	  KS_BREAK_GONE },
	/* an object-like macro: anything by that name, but a function-like macro */
	{ KS_SHAPE_OBJECT, "no_llseek", "", KS_FACT_NONE, "", "", false, false, false,
	  KS_BREAK_GONE },
	{ KS_SHAPE_OBJECT, "current", "", KS_FACT_MACRO, "", "", false, false, false, NONE },
	{ KS_SHAPE_OBJECT, "WAS_CONST", "", KS_FACT_ENUM, "", "", false, false, false, NONE },
	{ KS_SHAPE_OBJECT, "NOW_FN", "", KS_FACT_FMACRO, "(x)", "1", false, false, false,
	  KS_BREAK_GONE },
	/* an address, a variable: declared and exported, or gone */
	{ KS_SHAPE_ADDR, "noop_llseek", "loff_t(struct file *, loff_t, int)", KS_FACT_FUNCTION,
	  "loff_t(struct file *, loff_t, int)", "3", false, true, false, NONE },
	{ KS_SHAPE_VAR, "current_task", "struct task_struct *", KS_FACT_VAR, "struct task_struct *",
	  "extern", false, false, false, KS_BREAK_GONE },
	{ KS_SHAPE_VAR, "jiffies", "volatile long unsigned int", KS_FACT_VAR,
	  "volatile long unsigned int", "extern", false, true, false, NONE },
	{ KS_SHAPE_TYPEDEF, "u32", "", KS_FACT_TYPEDEF, "", "", false, false, false, NONE },
	{ KS_SHAPE_TYPEDEF, "pm_message_t", "", KS_FACT_NONE, "", "", false, false, false,
	  KS_BREAK_GONE },
	/* members: gone, incomplete, read-only, or a use that no longer compiles */
	{ KS_SHAPE_READ, "struct inode.i_mtime", "struct timespec64", KS_FACT_NO_MEMBER, "", "",
	  true, false, false, KS_BREAK_MEMBER_GONE },
	{ KS_SHAPE_READ, "struct gone.member", "int", KS_FACT_INCOMPLETE, "", "", true, false,
	  false, KS_BREAK_INCOMPLETE },
	{ KS_SHAPE_WRITE, "struct vm_area_struct.vm_flags", "vm_flags_t", KS_FACT_MEMBER,
	  "const vm_flags_t", "ro", true, false, false, KS_BREAK_READ_ONLY },
	{ KS_SHAPE_READ, "struct vm_area_struct.vm_flags", "vm_flags_t", KS_FACT_MEMBER,
	  "const vm_flags_t", "ro", false, false, false, NONE },
	{ KS_SHAPE_READ, "struct inode_operations.getattr", "int (*)(struct user_namespace *)",
	  KS_FACT_MEMBER, "int (*)(struct mnt_idmap *)", "", true, false, false,
	  KS_BREAK_MEMBER_TYPE },
	{ KS_SHAPE_INIT, "struct device.class", "struct class *", KS_FACT_MEMBER,
	  "const struct class *", "", false, false, false, NONE },
	{ KS_SHAPE_CALLBACK, "struct platform_driver.remove", "int (*)(struct platform_device *)",
	  KS_FACT_MEMBER, "void (*)(struct platform_device *)", "", true, false, false,
	  KS_BREAK_CALLBACK_PROTOTYPE },
	{ KS_SHAPE_READ, "atomic_t.counter", "int", KS_FACT_NONE, "", "", true, false, false,
	  KS_BREAK_GONE },
	/* an aggregate by value */
	{ KS_SHAPE_COMPLETE, "struct work_struct", "", KS_FACT_INCOMPLETE, "", "", false, false,
	  false, KS_BREAK_INCOMPLETE },
	{ KS_SHAPE_COMPLETE, "struct mutex", "", KS_FACT_COMPLETE, "", "", false, false, false,
	  NONE },
	/* a name the module defines static: declared there in a header, or not,
	 * or only as the compiler's built-in (fact_file()) */
	{ KS_SHAPE_STATIC, "abort", "", KS_FACT_FUNCTION, "void(void)", "0", false, false, false,
	  KS_BREAK_CLASH },
	{ KS_SHAPE_STATIC, "my_helper", "", KS_FACT_NONE, "", "", false, false, false, NONE },
	{ KS_SHAPE_STATIC, "memcpy", "", KS_FACT_FUNCTION, "void *(void *, const void *, size_t)",
	  "3", false, false, false, NONE },
};

/* Where the fact says the name is declared: a header for a static name's
 * clash, the compiler itself for memcpy, else unknown (""). */
static char *fact_file(int i)
{
	if (cases[i].what != KS_SHAPE_STATIC || cases[i].st == KS_FACT_NONE)
		return (char *)"";
	return (char *)(strcmp(cases[i].name, "memcpy") ? "include/linux/panic.h" : "<built-in>");
}

static char *dup(const char *s)
{
	char *d = strdup(s);

	ck_assert_ptr_nonnull(d);
	return d;
}

static void verdict_free(struct ks_verdict *v)
{
	free(v->path);
	for (size_t i = 0; i < v->ndiffs; i++) {
		free(v->diffs[i].name);
		free(v->diffs[i].old);
		free(v->diffs[i].now);
		free(v->diffs[i].header);
		free(v->diffs[i].callback);
		ks_uses_free(&v->diffs[i].sites);
	}
	free(v->diffs);
}

/* u, a unit of m.c with the one shape sh, asked as item, answered by
 * fact, and the probe's one error err. */
static void one_shape(struct ks_forecast_unit *u, struct ks_record_shape *sh,
		      struct ks_item *item, struct ks_record_fact *fact,
		      struct ks_record_error *err)
{
	ks_units_begin(&u->one, dup("m.c"));
	ck_assert_int_eq(ks_units_add_shape(&u->one, sh), 0);
	u->items = item;
	u->nitems = 1;
	u->facts = fact;
	u->nquestions = 1;
	u->errors = err;
	u->nerrors = 1;
}

START_TEST(test_kind)
{
	struct ks_forecast_unit u = { 0 };
	struct ks_record_shape sh = { cases[_i].what, dup(cases[_i].name), dup("m.c"), 7, 3,
				      dup("f"), dup(cases[_i].old), dup(""), NULL };
	struct ks_record_fact fact = { 1, cases[_i].st, (char *)cases[_i].now, fact_file(_i),
				       (char *)cases[_i].extra };
	struct ks_record_error err = { 42, 1, (char *)"it does not compile" };
	struct ks_item item = { .question = 0, .line = cases[_i].error ? 42 : 41, .alias = -1 };
	char sv_text[128], *inc = dup("linux/vmalloc.h");
	struct ks_symvers sv = { 0 };
	struct ks_headers h = { .scanned = true, .incs = &inc, .nincs = 1, .capincs = 1 };
	struct ks_verdict v = { 0 };
	struct ks_diags d = { 0 };

	one_shape(&u, &sh, &item, &fact, &err);
	snprintf(sv_text, sizeof(sv_text), "0x1\t%s\tvmlinux\tEXPORT_SYMBOL\t\n",
		 cases[_i].exported ? cases[_i].name : "other");
	ck_assert_int_eq(ks_symvers_parse(&sv, "s", sv_text, strlen(sv_text), &d), 0);
	if (cases[_i].hint) {
		h.cur_file = 0;
		ks_headers_scan_text(&h, "void *vzalloc(unsigned long);", 30);
	}
	ks_probe_judge(&u, &sv, NULL, &h, &v);
	if (cases[_i].want == NONE) {
		ck_assert_msg(v.ndiffs == 0, "case %d (%s): %s, want none", _i, cases[_i].name,
			      v.ndiffs ? ks_break_name(v.diffs[0].kind) : "");
	} else {
		ck_assert_msg(v.ndiffs == 1 && v.diffs[0].kind == cases[_i].want,
			      "case %d (%s): %s, want %s", _i, cases[_i].name,
			      v.ndiffs ? ks_break_name(v.diffs[0].kind) : "none",
			      ks_break_name(cases[_i].want));
		ck_assert_uint_eq(v.diffs[0].sites.n, 1);
		ck_assert_uint_eq(v.diffs[0].sites.v[0].line, 7);
		if (cases[_i].hint)
			ck_assert_str_eq(v.diffs[0].header, "linux/vmalloc.h");
	}
	u.items = NULL;
	u.facts = NULL;
	u.errors = NULL;
	u.nitems = u.nquestions = u.nerrors = 0;
	ks_probe_free(&u);
	verdict_free(&v);
	h.incs = NULL;
	h.nincs = 0;
	free(inc);
	ks_headers_free(&h);
	ks_symvers_free(&sv);
	ks_diags_free(&d);
}
END_TEST

/* A probe that had to leave out an include: a name it does not find may
 * be declared by that include, unless the scan of the target's headers
 * finds it nowhere; the scan indexes functions and macros, not typedefs,
 * variables or enumeration constants, so of those, whether the target
 * declares it is unknown, never "gone". */
START_TEST(test_dropped)
{
	static const struct {
		enum ks_shape_what what;
		const char *name;
		enum ks_break want;	/* NONE: not judged, said so */
	} dropped[] = {
		{ KS_SHAPE_CALL, "gone_fn", KS_BREAK_GONE },
		{ KS_SHAPE_OBJECT, "GONE_FLAG", KS_BREAK_GONE },
		{ KS_SHAPE_TYPEDEF, "ptrdiff_t", NONE },
		{ KS_SHAPE_VAR, "some_var", NONE },
		{ KS_SHAPE_ENUM, "PG_some", NONE },
		{ KS_SHAPE_CALL, "vzalloc", NONE },	/* declared elsewhere there */
	};

	for (size_t i = 0; i < KS_ARRAY_SIZE(dropped); i++) {
		struct ks_forecast_unit u = { 0 };
		struct ks_record_shape sh = { dropped[i].what, dup(dropped[i].name), dup("m.c"), 7, 3,
					      dup("f"), dup(""), dup(""), NULL };
		struct ks_record_fact fact = { 1, KS_FACT_NONE, (char *)"", NULL, (char *)"" };
		struct ks_item item = { .question = 0, .line = 41, .alias = -1 };
		char *inc = dup("linux/vmalloc.h");
		struct ks_symvers sv = { 0 };
		struct ks_headers h = { .scanned = true, .incs = &inc, .nincs = 1, .capincs = 1 };
		struct ks_verdict v = { 0 };
		const char *why;

		one_shape(&u, &sh, &item, &fact, NULL);
		u.nerrors = 0;
		u.dropped_why = dup("<x/y.h>: no such file");
		h.cur_file = 0;
		ks_headers_scan_text(&h, "void *vzalloc(unsigned long);", 30);
		ks_probe_judge(&u, &sv, NULL, &h, &v);
		why = ks_verdict_unjudged(&v, "m.c", 7);
		if (dropped[i].want == NONE) {
			ck_assert_msg(v.ndiffs == 0, "case %zu (%s): %s, want none", i, dropped[i].name,
				      v.ndiffs ? ks_break_name(v.diffs[0].kind) : "");
			ck_assert_msg(why && strstr(why, "the probe left out <x/y.h>"), "case %zu: %s", i,
				      why ? why : "(judged)");
		} else {
			ck_assert_msg(v.ndiffs == 1 && v.diffs[0].kind == dropped[i].want,
				      "case %zu (%s): %s", i, dropped[i].name,
				      v.ndiffs ? ks_break_name(v.diffs[0].kind) : "none");
			ck_assert_ptr_null(why);
		}
		u.items = NULL;
		u.facts = NULL;
		u.errors = NULL;
		u.nitems = u.nquestions = 0;
		ks_probe_free(&u);
		verdict_free(&v);
		for (size_t k = 0; k < v.unjudged.cap; k++) {
			free((char *)v.unjudged.slots[k].key);
			free(v.unjudged.slots[k].val);
		}
		ks_strmap_free(&v.unjudged);
		free(v.why);
		h.incs = NULL;
		h.nincs = 0;
		free(inc);
		ks_headers_free(&h);
	}
}
END_TEST

/* A unit's probe: its header asked about and given its namesake, the tags
 * declared, the aggregate by an alias, each use rebuilt on its own line. */
START_TEST(test_source)
{
	struct ks_forecast_unit u = { 0 };
	struct ks_record_include inc = { dup("<linux/fs.h>"), dup("m.c"), 2 };
	struct ks_record_shape call = { KS_SHAPE_CALL, dup("kdev_get"), dup("m.c"), 9, 5, dup("f"),
					dup("long int(struct my_dev *)"),
					dup("long int @|struct my_dev *@"), NULL };
	struct ks_record_shape wr = { KS_SHAPE_WRITE, dup("struct kdev.flags"), dup("m.c"), 10, 5,
				      dup("f"), dup("unsigned int"), dup("unsigned int @"), NULL };
	const char *want = "/* ksunset probe of m.c */\n"
			   "#if __has_include(<linux/fs.h>)\n"
			   "#include <linux/fs.h>\n"
			   "#else\n"
			   "#pragma ksunset probe \"1 header-gone\"\n"
			   "#endif\n"
			   "struct my_dev;\n"
			   "struct kdev;\n"
			   "typedef struct kdev __ks_a0;\n"
			   "#pragma ksunset probe \"2 name kdev_get\"\n"
			   "#pragma ksunset probe \"3 member __ks_a0 flags\"\n"
			   "static void __attribute__((unused)) __ks_u0(struct my_dev *a1) "
			   "{ long int r = kdev_get(a1); (void)r; }\n"
			   "static void __attribute__((unused)) __ks_u1(__ks_a0 *p, unsigned int v) "
			   "{ p->flags = v; }\n";
	const char res[] = "ksunset 4\tfact\t2\tfunction\tlong int(struct my_dev *)\tfs.h\t1\0"
			   "ksunset 4\terror\t12\t40\ttoo few arguments\0"
			   "ksunset 4\tfact\t0\timport-ns\tPWM\t\t\0"
			   "ksunset 1\tunit\tp0.c\tprobe\t12.2.0";
	const char *why = NULL;

	ks_units_begin(&u.one, dup("m.c"));
	ck_assert_int_eq(ks_units_add_include(&u.one, &inc), 0);
	ck_assert_int_eq(ks_units_add_shape(&u.one, &call), 0);
	ck_assert_int_eq(ks_units_add_shape(&u.one, &wr), 0);
	ks_probe_write(&u, NULL);
	ck_assert_str_eq(u.source.p, want);
	ck_assert_uint_eq(u.items[0].line, 12);
	ck_assert_uint_eq(u.items[1].line, 13);
	ck_assert_uint_eq(u.items[2].line, 3);	/* the include */
	ck_assert_int_eq(ks_probe_read(&u, res, sizeof(res), &why), 0);
	ck_assert(u.done);
	ck_assert_int_eq(u.facts[1].status, KS_FACT_FUNCTION);
	ck_assert_int_eq(u.facts[0].status, KS_FACT_NONE);	/* unanswered */
	ck_assert_uint_eq(u.nerrors, 1);
	ck_assert_str_eq(u.import_ns[0], "PWM");
	ks_probe_free(&u);
}
END_TEST

/* The compiler's words at a break say it in the module's terms: an
 * aggregate's alias by the aggregate, the probe's variable by what it held. */
START_TEST(test_module_terms)
{
	static const struct {
		const char *said, *want;
	} c[] = {
		{ "'__ks_a0' {aka 'struct inode'} has no member named 'i_x'",
		  "'struct inode' has no member named 'i_x'" },
		{ "variable 's' has initializer but incomplete type", "its type is incomplete there" },
		{ "invalid use of '__ks_a0'", "invalid use of 'struct inode'" },
	};

	for (size_t i = 0; i < KS_ARRAY_SIZE(c); i++) {
		struct ks_forecast_unit u = { 0 };
		struct ks_record_shape sh = { KS_SHAPE_READ, dup("struct inode.i_x"), dup("m.c"), 7, 3,
					      dup("f"), dup("int"), dup("int @"), NULL };
		struct ks_record_fact fact = { 1, KS_FACT_MEMBER, (char *)"long int", (char *)"",
					       (char *)"" };
		struct ks_record_error err = { 42, 1, (char *)c[i].said };
		struct ks_item item = { .question = 0, .line = 42, .alias = 0 };
		char *alias = dup("struct inode");
		unsigned alias_line = 30;
		struct ks_symvers sv = { 0 };
		struct ks_verdict v = { 0 };

		one_shape(&u, &sh, &item, &fact, &err);
		u.aliases = &alias;
		u.naliases = 1;
		u.alias_lines = &alias_line;
		ks_probe_judge(&u, &sv, NULL, NULL, &v);
		ck_assert_uint_eq(v.ndiffs, 1);
		ck_assert_str_eq(v.diffs[0].sites.v[0].note, c[i].want);
		u.items = NULL;
		u.facts = NULL;
		u.errors = NULL;
		u.aliases = NULL;
		u.alias_lines = NULL;
		u.nitems = u.nquestions = u.nerrors = u.naliases = 0;
		ks_probe_free(&u);
		free(alias);
		verdict_free(&v);
	}
}
END_TEST

/* Record fields no probe can write (control bytes, a quote) are never
 * pasted into the probe: the use is no question, the include is left out,
 * and the probe's source holds only printable ASCII. */
START_TEST(test_unwritable)
{
	struct ks_forecast_unit u = { 0 };
	struct ks_record_include inc = { dup("<linux/\x1b[2Jfs.h>"), dup("m.c"), 2 };
	struct ks_record_shape bad = { KS_SHAPE_CALL, dup("kdev\"_get"), dup("m.c"), 9, 5, dup("f"),
				       dup("long int(void)"), dup("long int @"), NULL };
	struct ks_record_shape ok = { KS_SHAPE_CALL, dup("kdev_put"), dup("m.c"), 10, 5, dup("f"),
				      dup("void(void)"), dup("-"), NULL };

	ks_units_begin(&u.one, dup("m.c"));
	ck_assert_int_eq(ks_units_add_include(&u.one, &inc), 0);
	ck_assert_int_eq(ks_units_add_shape(&u.one, &bad), 0);
	ck_assert_int_eq(ks_units_add_shape(&u.one, &ok), 0);
	ks_probe_write(&u, NULL);
	for (const char *c = u.source.p; *c; c++)
		ck_assert_msg((*c >= 0x20 && *c < 0x7f) || *c == '\n', "byte 0x%02x in the probe",
			      (unsigned char)*c);
	ck_assert_ptr_null(strstr(u.source.p, "kdev\""));
	ck_assert_ptr_nonnull(strstr(u.source.p, "name kdev_put"));
	ck_assert_int_eq(u.items[0].question, KS_ITEM_UNWRITABLE);
	ck_assert_int_eq(u.items[2].question, KS_ITEM_UNWRITABLE);
	ck_assert(u.dropped[0]);
	ck_assert_ptr_nonnull(strstr(u.dropped_why, "m.c:2"));
	ks_probe_free(&u);
}
END_TEST

/* A kernel tag that a prototype of the module's own names is asked about
 * where the prototype was read, after its includes there: two prototypes
 * of one function, the second the item's line; an error on it is a break
 * (evdi's struct i2c_msg), in GCC's words of the module's function. */
START_TEST(test_declared)
{
	struct ks_forecast_unit u = { 0 };
	struct ks_record_include inc = { dup("<drm/drm_crtc_helper.h>"), dup("m.h"), 2 };
	struct ks_record_shape sh = { KS_SHAPE_DECLARED, dup("struct i2c_msg"), dup("m.c"), 9, 6,
				      dup("m_notify"), dup(""), dup("@1"), NULL };
	const char *want = "void __ks_d0(struct i2c_msg *);\nvoid __ks_d0(struct i2c_msg *);\n";
	struct ks_record_error err = { 0, 1, (char *)"conflicting types for '__ks_d0'" };
	struct ks_symvers sv = { 0 };
	struct ks_verdict v = { 0 };
	const char *at;
	unsigned line = 1;

	ks_units_begin(&u.one, dup("m.c"));
	ck_assert_int_eq(ks_units_add_include(&u.one, &inc), 0);
	ck_assert_int_eq(ks_units_add_shape(&u.one, &sh), 0);
	ks_probe_write(&u, NULL);
	at = strstr(u.source.p, want);
	ck_assert_ptr_nonnull(at);
	ck_assert_ptr_nonnull(strstr(u.source.p, "#include <drm/drm_crtc_helper.h>"));
	ck_assert(strstr(u.source.p, "#include <drm/drm_crtc_helper.h>") < at);
	for (const char *c = u.source.p; c < at; c++)
		line += *c == '\n';
	ck_assert_uint_eq(u.items[0].line, line + 1);
	/* the tag declared there: no break */
	u.facts = calloc(u.nquestions, sizeof(*u.facts));
	ks_probe_judge(&u, &sv, NULL, NULL, &v);
	ck_assert_uint_eq(v.ndiffs, 0);
	/* not declared: the second prototype does not compile */
	err.line = line + 1;
	u.errors = &err;
	u.nerrors = 1;
	ks_probe_judge(&u, &sv, NULL, NULL, &v);
	ck_assert_uint_eq(v.ndiffs, 1);
	ck_assert_int_eq(v.diffs[0].kind, KS_BREAK_NOT_INCLUDED);
	ck_assert_str_eq(v.diffs[0].sites.v[0].note, "conflicting types for 'm_notify'");
	u.errors = NULL;
	u.nerrors = 0;
	free(u.facts);
	u.facts = NULL;
	ks_probe_free(&u);
	verdict_free(&v);
}
END_TEST

/* A kernel header the source includes in quotes is included so, not left
 * out as unwritable (adv-17v35x's "linux/version.h"); one whose name holds
 * a quote is. */
START_TEST(test_include_quoted)
{
	struct ks_forecast_unit u = { 0 };
	struct ks_record_include ok = { dup("\"linux/version.h\""), dup("m.c"), 2 };
	struct ks_record_include bad = { dup("\"a\"b.h\""), dup("m.c"), 3 };

	ks_units_begin(&u.one, dup("m.c"));
	ck_assert_int_eq(ks_units_add_include(&u.one, &ok), 0);
	ck_assert_int_eq(ks_units_add_include(&u.one, &bad), 0);
	ks_probe_write(&u, NULL);
	ck_assert_ptr_nonnull(strstr(u.source.p, "\n#include \"linux/version.h\"\n"));
	ck_assert(!u.dropped[0]);
	ck_assert_int_ne(u.items[0].question, KS_ITEM_UNWRITABLE);
	ck_assert(u.dropped[1]);
	ck_assert_int_eq(u.items[1].question, KS_ITEM_UNWRITABLE);
	ks_probe_free(&u);
}
END_TEST

/* Results that are no probe's are refused. */
START_TEST(test_bad_results)
{
	struct ks_forecast_unit u = { 0 };
	const char res[] = "ksunset 1\tuse\tx\tcall\tm.c\t1\t1\tf\t2027-01-01";
	const char *why = NULL;

	ks_units_begin(&u.one, dup("m.c"));
	ks_probe_write(&u, NULL);
	ck_assert_int_eq(ks_probe_read(&u, res, sizeof(res), &why), -EINVAL);
	ck_assert_str_eq(why, "a record that is no probe's");
	ks_probe_free(&u);
}
END_TEST

static Suite *suite_forecast(void)
{
	Suite *s = suite_create("forecast");
	TCase *tc = tcase_create("judge");

	tcase_add_loop_test(tc, test_kind, 0, KS_NCASES(cases));
	tcase_add_test(tc, test_dropped);
	tcase_add_test(tc, test_source);
	tcase_add_test(tc, test_bad_results);
	tcase_add_test(tc, test_unwritable);
	tcase_add_test(tc, test_include_quoted);
	tcase_add_test(tc, test_declared);
	tcase_add_test(tc, test_module_terms);
	suite_add_tcase(s, tc);
	return s;
}
KS_SUITE(suite_forecast)
