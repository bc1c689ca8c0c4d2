/* Record encoding and decoding: round trips, escapes, newer versions and
 * every rejection of a malformed record. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ksunset/record.h>

#include "buf.h"
#include "suites.h"

START_TEST(test_use_roundtrip)
{
	struct ks_buf b = KS_BUF_INIT;
	struct ks_record_use u = { .symbol = "do_settimeofday64", .kind = KS_USE_ADDR,
				   .file = "dir\\with\ttab.c", .line = 42, .col = 9,
				   .function = "f\nx", .when = "2027-09-01" };
	struct ks_record rec;
	const char *why = NULL;

	ks_record_encode_use(&b, &u);
	ck_assert_str_eq(b.p, "ksunset 1\tuse\tdo_settimeofday64\taddr\tdir\\\\with\\ttab.c\t42\t9\tf\\nx\t2027-09-01");
	ck_assert_uint_eq(b.len, strlen(b.p) + 1);	/* NUL-terminated */
	ck_assert_int_eq(ks_record_decode(b.p, b.len - 1, &rec, &why), 0);
	ck_assert_int_eq(rec.type, KS_REC_USE);
	ck_assert_str_eq(rec.use.symbol, u.symbol);
	ck_assert_int_eq(rec.use.kind, KS_USE_ADDR);
	ck_assert_str_eq(rec.use.file, u.file);
	ck_assert_uint_eq(rec.use.line, 42);
	ck_assert_uint_eq(rec.use.col, 9);
	ck_assert_str_eq(rec.use.function, u.function);
	ck_assert_str_eq(rec.use.when, u.when);
	ks_record_free(&rec);
	ks_buf_free(&b);
}
END_TEST

/* An accepted use is a version 2 record with the reason last; every other
 * record stays version 1, which older readers know. */
START_TEST(test_accepted_roundtrip)
{
	struct ks_buf b = KS_BUF_INIT;
	struct ks_record_use u = { .symbol = "simple_strtoul", .kind = KS_USE_CALL,
				   .file = "m.c", .line = 7, .col = 3, .function = "parse",
				   .when = "2027-03-01", .accept_reason = "fixed\tin v2" };
	struct ks_record rec;
	const char *why = NULL;

	ks_record_encode_use(&b, &u);
	ck_assert_str_eq(b.p, "ksunset 2\tuse\tsimple_strtoul\tcall\tm.c\t7\t3\tparse\t2027-03-01\tfixed\\tin v2");
	ck_assert_int_eq(ks_record_decode(b.p, b.len - 1, &rec, &why), 0);
	ck_assert_int_eq(rec.type, KS_REC_USE);
	ck_assert_str_eq(rec.use.symbol, "simple_strtoul");
	ck_assert_str_eq(rec.use.when, "2027-03-01");
	ck_assert_str_eq(rec.use.accept_reason, "fixed\tin v2");
	ks_record_free(&rec);
	ks_buf_free(&b);
	u.accept_reason = NULL;
	ks_record_encode_use(&b, &u);
	ck_assert_str_eq(b.p, "ksunset 1\tuse\tsimple_strtoul\tcall\tm.c\t7\t3\tparse\t2027-03-01");
	ck_assert_int_eq(ks_record_decode(b.p, b.len - 1, &rec, &why), 0);
	ck_assert_ptr_null(rec.use.accept_reason);
	ks_record_free(&rec);
	ks_buf_free(&b);
}
END_TEST

START_TEST(test_unit_roundtrip)
{
	struct ks_buf b = KS_BUF_INIT;
	struct ks_record rec;
	const char *why = NULL;

	ks_record_encode_unit(&b, "rtc.c", "0123456789abcdef", "12.2.0");
	ck_assert_int_eq(ks_record_decode(b.p, b.len - 1, &rec, &why), 0);
	ck_assert_int_eq(rec.type, KS_REC_UNIT);
	ck_assert_str_eq(rec.unit.source, "rtc.c");
	ck_assert_str_eq(rec.unit.digest, "0123456789abcdef");
	ck_assert_str_eq(rec.unit.gcc_version, "12.2.0");
	ks_record_free(&rec);
	ks_buf_free(&b);
}
END_TEST

/* An api record (plugin argument api) is version 3: older readers skip it. */
START_TEST(test_api_roundtrip)
{
	struct ks_buf b = KS_BUF_INIT;
	struct ks_record_use u = { .symbol = "strlcpy", .kind = KS_USE_CALL, .file = "m.c",
				   .line = 29, .col = 9, .function = "m_init",
				   .when = "ignored", .accept_reason = "ignored" };
	struct ks_record rec;
	const char *why = NULL;

	ks_record_encode_api(&b, &u);
	ck_assert_str_eq(b.p, "ksunset 3\tapi\tstrlcpy\tcall\tm.c\t29\t9\tm_init");
	ck_assert_int_eq(ks_record_decode(b.p, b.len - 1, &rec, &why), 0);
	ck_assert_int_eq(rec.type, KS_REC_API);
	ck_assert_str_eq(rec.use.symbol, "strlcpy");
	ck_assert_int_eq(rec.use.kind, KS_USE_CALL);
	ck_assert_str_eq(rec.use.file, "m.c");
	ck_assert_uint_eq(rec.use.line, 29);
	ck_assert_uint_eq(rec.use.col, 9);
	ck_assert_str_eq(rec.use.function, "m_init");
	ck_assert_ptr_null(rec.use.when);
	ck_assert_ptr_null(rec.use.accept_reason);
	ks_record_free(&rec);
	ks_buf_free(&b);
}
END_TEST

START_TEST(test_empty_function)
{
	const char *in = "ksunset 1\tuse\tnoop_llseek\taddr\tm.c\t7\t12\t\t2028-01-01";
	struct ks_record rec;
	const char *why = NULL;

	ck_assert_int_eq(ks_record_decode(in, strlen(in), &rec, &why), 0);
	ck_assert_str_eq(rec.use.function, "");
	ks_record_free(&rec);
}
END_TEST

START_TEST(test_newer_version)
{
	const char *in = "ksunset 8\tshape\twhatever\tfuture\tfields";
	struct ks_record rec;
	const char *why = NULL;

	ck_assert_int_eq(ks_record_decode(in, strlen(in), &rec, &why), 1);
	ks_record_free(&rec);
}
END_TEST

/* A shape kind of version 5 (enum) is written as version 5, and a record
 * of version 4 may not hold it: a reader of version 4 skips it whole. */
START_TEST(test_shape_version)
{
	struct ks_record_shape sh = { .what = KS_SHAPE_ENUM, .name = (char *)"PG_error",
				      .file = (char *)"m.c", .line = 3, .col = 9,
				      .function = (char *)"f", .old = (char *)"enum pageflags",
				      .probe = (char *)"" };
	const char *v4 = "ksunset 4\tshape\tenum\tPG_error\tm.c\t3\t9\tf\tenum pageflags\t";
	struct ks_buf b = KS_BUF_INIT;
	struct ks_record rec;
	const char *why = NULL;

	ks_record_encode_shape(&b, &sh);
	ck_assert_str_eq(b.p, "ksunset 5\tshape\tenum\tPG_error\tm.c\t3\t9\tf\tenum pageflags\t");
	ck_assert_int_eq(ks_record_decode(b.p, strlen(b.p), &rec, &why), 0);
	ck_assert_int_eq(rec.shape.what, KS_SHAPE_ENUM);
	ks_record_free(&rec);
	ck_assert_int_eq(ks_record_decode(v4, strlen(v4), &rec, &why), -EINVAL);
	ck_assert_str_eq(why, "shape kind of a later version");
	ks_record_free(&rec);
	ks_buf_free(&b);
	/* a name the module defines static: version 6 */
	sh.what = KS_SHAPE_STATIC;
	ks_record_encode_shape(&b, &sh);
	ck_assert_str_eq(b.p, "ksunset 6\tshape\tstatic\tPG_error\tm.c\t3\t9\tf\tenum pageflags\t");
	ck_assert_int_eq(ks_record_decode(b.p, strlen(b.p), &rec, &why), 0);
	ck_assert_int_eq(rec.shape.what, KS_SHAPE_STATIC);
	ks_record_free(&rec);
	b.p[8] = '5';
	ck_assert_int_eq(ks_record_decode(b.p, strlen(b.p), &rec, &why), -EINVAL);
	ck_assert_str_eq(why, "shape kind of a later version");
	ks_record_free(&rec);
	ks_buf_free(&b);
	/* a kernel tag a prototype of the module's own names: version 7 */
	sh.what = KS_SHAPE_DECLARED;
	sh.probe = (char *)"@3";
	ks_record_encode_shape(&b, &sh);
	ck_assert_str_eq(b.p,
			 "ksunset 7\tshape\tdeclared\tPG_error\tm.c\t3\t9\tf\tenum pageflags\t@3");
	ck_assert_int_eq(ks_record_decode(b.p, strlen(b.p), &rec, &why), 0);
	ck_assert_int_eq(rec.shape.what, KS_SHAPE_DECLARED);
	ks_record_free(&rec);
	b.p[8] = '6';
	ck_assert_int_eq(ks_record_decode(b.p, strlen(b.p), &rec, &why), -EINVAL);
	ck_assert_str_eq(why, "shape kind of a later version");
	ks_record_free(&rec);
	ks_buf_free(&b);
	sh.probe = (char *)"";
	/* a call whose arguments start on other lines: version 5, 11 fields */
	sh.what = KS_SHAPE_CALL;
	sh.arglines = (char *)"0,12";
	ks_record_encode_shape(&b, &sh);
	ck_assert_str_eq(b.p, "ksunset 5\tshape\tcall\tPG_error\tm.c\t3\t9\tf\tenum pageflags\t\t0,12");
	ck_assert_int_eq(ks_record_decode(b.p, strlen(b.p), &rec, &why), 0);
	ck_assert_str_eq(rec.shape.arglines, "0,12");
	ks_record_free(&rec);
	ks_buf_free(&b);
	/* the unit was built with api=, whatever it holds */
	ks_record_encode_shaped(&b);
	ck_assert_str_eq(b.p, "ksunset 5\tshaped");
	ck_assert_int_eq(ks_record_decode(b.p, strlen(b.p), &rec, &why), 0);
	ck_assert_int_eq(rec.type, KS_REC_SHAPED);
	ks_record_free(&rec);
	ck_assert_int_eq(ks_record_decode("ksunset 4\tshaped", 16, &rec, &why), -EINVAL);
	ks_record_free(&rec);
	ks_buf_free(&b);
}
END_TEST

static const struct {
	const char *in;
	const char *why;
} bad_cases[] = {
	{ "", "record has no type" },
	{ "ksunset 1", "record has no type" },
	{ "kmod 1\tuse", "record does not start with 'ksunset VERSION'" },
	{ "ksunset x\tuse", "record does not start with 'ksunset VERSION'" },
	{ "ksunset 0\tuse", "record does not start with 'ksunset VERSION'" },
	{ "ksunset 1\tfoo\ta", "unknown record type" },
	{ "ksunset 1\tuse\ta\tcall\tf.c\t1\t2\tfn", "use record needs 9 fields" },
	{ "ksunset 1\tuse\ta\tcall\tf.c\t1\t2\tfn\tw\textra", "use record needs 9 fields" },
	{ "ksunset 1\tuse\t\tcall\tf.c\t1\t2\tfn\tw", "empty symbol" },
	{ "ksunset 2\tuse\ta\tcall\tf.c\t1\t2\tfn\tw", "use record needs 10 fields" },
	{ "ksunset 2\tuse\ta\tcall\tf.c\t1\t2\tfn\tw\t", "empty accept reason" },
	{ "ksunset 2\tuse\t\tcall\tf.c\t1\t2\tfn\tw\tr", "empty symbol" },
	{ "ksunset 1\tuse\ta\tjump\tf.c\t1\t2\tfn\tw", "bad kind (expected call, addr or data)" },
	{ "ksunset 1\tuse\ta\tcall\t\t1\t2\tfn\tw", "empty file name" },
	{ "ksunset 1\tuse\ta\tcall\tf.c\t-1\t2\tfn\tw", "bad line number" },
	{ "ksunset 1\tuse\ta\tcall\tf.c\t1\t99999999999\tfn\tw", "bad column number" },
	{ "ksunset 1\tuse\ta\\q\tcall\tf.c\t1\t2\tfn\tw", "bad escape sequence" },
	{ "ksunset 1\tuse\ta\\", "bad escape sequence" },
	{ "ksunset 1\tuse\ta\nb", "newline inside a record" },
	{ "ksunset 1\tunit\ta\tb", "unit record needs 5 fields" },
	{ "ksunset 3\tapi\ta\tcall\tf.c\t1\t2", "api record needs 8 fields" },
	{ "ksunset 3\tapi\ta\tcall\tf.c\t1\t2\tfn\tw", "api record needs 8 fields" },
	{ "ksunset 2\tapi\ta\tcall\tf.c\t1\t2\tfn", "api record of version 1 or 2 (api records are version 3)" },
	{ "ksunset 3\tapi\t\tcall\tf.c\t1\t2\tfn", "empty symbol" },
	{ "ksunset 3\tapi\ta\tcall\tf.c\tx\t2\tfn", "bad line number" },
	{ "ksunset 3\tuse\ta\tcall\tf.c\t1\t2\tfn\tw", "use record of version 3 or later (use records are version 1 or 2)" },
	{ "ksunset 1\t\t\t\t\t\t\t\t\t\t\t", "too many fields" },
	{ "ksunset 3\tinclude\t<a.h>\tf.c\t1", "record type of version 4 in a record of version 1 to 3" },
	{ "ksunset 4\tinclude\t<a.h>\tf.c", "include record needs 5 fields" },
	{ "ksunset 4\tinclude\ta\tf.c\t1", "bad header name" },
	{ "ksunset 4\tinclude\t<a.h>\t\t1", "empty file name" },
	{ "ksunset 4\tinclude\t<a.h>\tf.c\tone", "bad line number" },
	{ "ksunset 4\tshape\tcall\tf\tf.c\t1\t2\tfn\told", "shape record needs 10 fields (11 from version 5)" },
	{ "ksunset 4\tshape\tjump\tf\tf.c\t1\t2\tfn\told\tprobe", "bad shape kind" },
	{ "ksunset 4\tshape\tcall\t\tf.c\t1\t2\tfn\told\tprobe", "empty name" },
	{ "ksunset 4\tshape\tcall\tf\t\t1\t2\tfn\told\tprobe", "empty file name" },
	{ "ksunset 4\tshape\tcall\tf\tf.c\t\t2\tfn\told\tprobe", "bad line number" },
	{ "ksunset 4\tshape\tcall\tf\tf.c\t1\t-2\tfn\told\tprobe", "bad column number" },
	{ "ksunset 2\tshape\tcall\tf\tf.c\t1\t2\tfn\told\tprobe", "record type of version 4 in a record of version 1 to 3" },
	{ "ksunset 4\tfact\t1\tnone\t\t", "fact record needs 7 fields" },
	{ "ksunset 4\tfact\tx\tnone\t\t\t", "bad item number" },
	{ "ksunset 4\tfact\t1\tgone\t\t\t", "bad fact status" },
	{ "ksunset 4\terror\t1\t2", "error record needs 5 fields" },
	{ "ksunset 4\terror\tl\t2\tm", "bad line number" },
	{ "ksunset 4\terror\t1\tc\tm", "bad column number" },
	{ "ksunset 4\tguard\tf.c\t1\t2\tkernel", "guard record needs 7 fields" },
	{ "ksunset 4\tguard\t\t1\t2\tkernel\t(A)", "empty file name" },
	{ "ksunset 4\tguard\tf.c\tx\t2\tkernel\t(A)", "bad first line" },
	{ "ksunset 4\tguard\tf.c\t1\t\tkernel\t(A)", "bad last line" },
	{ "ksunset 4\tguard\tf.c\t3\t2\tkernel\t(A)", "last line before the first" },
	{ "ksunset 4\tguard\tf.c\t1\t2\tmine\t(A)", "bad guard tests (kernel or own)" },
	{ "ksunset 4\tguard\tf.c\t1\t2\town\t", "empty condition" },
	{ "ksunset 3\tguard\tf.c\t1\t2\town\t(A)", "record type of version 4 in a record of version 1 to 3" },
};

/* Version 4: includes and shapes (plugin argument api), probe facts and
 * errors; every kind and status round-trips by name. */
START_TEST(test_v4_roundtrip)
{
	struct ks_buf b = KS_BUF_INIT;
	struct ks_record_include inc = { .header = "<linux/fs.h>", .file = "m.c", .line = 3 };
	struct ks_record_shape sh = { .what = KS_SHAPE_CALLBACK, .name = "struct file_operations.open",
				      .file = "m.c", .line = 40, .col = 17, .function = "",
				      .old = "int (*)(struct inode *, struct file *)",
				      .probe = "m_open|int (*@)(struct inode *, struct file *)" };
	struct ks_record_fact fa = { .item = 7, .status = KS_FACT_FMACRO, .shape = "(_name, _n)",
				     .file = "include/linux/semaphore.h", .extra = "" };
	struct ks_record_error er = { .line = 12, .col = 5, .message = "too many\targuments" };
	struct ks_record_guard g = { .file = "compat.h", .first = 52, .last = 53, .own = true,
				     .cond = "(LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0))" };
	struct ks_record rec;
	const char *why = NULL;
	size_t off;

	ks_record_encode_include(&b, &inc);
	ck_assert_str_eq(b.p, "ksunset 4\tinclude\t<linux/fs.h>\tm.c\t3");
	ck_assert_int_eq(ks_record_decode(b.p, b.len - 1, &rec, &why), 0);
	ck_assert_int_eq(rec.type, KS_REC_INCLUDE);
	ck_assert_str_eq(rec.include.header, "<linux/fs.h>");
	ck_assert_uint_eq(rec.include.line, 3);
	ks_record_free(&rec);
	off = b.len;
	ks_record_encode_shape(&b, &sh);
	ck_assert_int_eq(ks_record_decode(b.p + off, b.len - off - 1, &rec, &why), 0);
	ck_assert_int_eq(rec.type, KS_REC_SHAPE);
	ck_assert_int_eq(rec.shape.what, KS_SHAPE_CALLBACK);
	ck_assert_str_eq(rec.shape.name, sh.name);
	ck_assert_uint_eq(rec.shape.line, 40);
	ck_assert_uint_eq(rec.shape.col, 17);
	ck_assert_str_eq(rec.shape.function, "");
	ck_assert_str_eq(rec.shape.old, sh.old);
	ck_assert_str_eq(rec.shape.probe, sh.probe);
	ks_record_free(&rec);
	off = b.len;
	ks_record_encode_fact(&b, &fa);
	ck_assert_str_eq(b.p + off, "ksunset 4\tfact\t7\tfmacro\t(_name, _n)\tinclude/linux/semaphore.h\t");
	ck_assert_int_eq(ks_record_decode(b.p + off, b.len - off - 1, &rec, &why), 0);
	ck_assert_int_eq(rec.type, KS_REC_FACT);
	ck_assert_uint_eq(rec.fact.item, 7);
	ck_assert_int_eq(rec.fact.status, KS_FACT_FMACRO);
	ck_assert_str_eq(rec.fact.shape, "(_name, _n)");
	ks_record_free(&rec);
	off = b.len;
	ks_record_encode_error(&b, &er);
	ck_assert_int_eq(ks_record_decode(b.p + off, b.len - off - 1, &rec, &why), 0);
	ck_assert_int_eq(rec.type, KS_REC_ERROR);
	ck_assert_uint_eq(rec.error.line, 12);
	ck_assert_str_eq(rec.error.message, "too many\targuments");
	ks_record_free(&rec);
	off = b.len;
	ks_record_encode_guard(&b, &g);
	ck_assert_str_eq(b.p + off, "ksunset 4\tguard\tcompat.h\t52\t53\town\t"
				    "(LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0))");
	ck_assert_int_eq(ks_record_decode(b.p + off, b.len - off - 1, &rec, &why), 0);
	ck_assert_int_eq(rec.type, KS_REC_GUARD);
	ck_assert_str_eq(rec.guard.file, "compat.h");
	ck_assert_uint_eq(rec.guard.first, 52);
	ck_assert_uint_eq(rec.guard.last, 53);
	ck_assert(rec.guard.own);
	ck_assert_str_eq(rec.guard.cond, g.cond);
	ks_record_free(&rec);
	ks_buf_free(&b);
}
END_TEST

START_TEST(test_v4_names)
{
	for (int w = 0; w < KS_SHAPE_NWHAT; w++) {
		struct ks_buf b = KS_BUF_INIT;
		struct ks_record_shape sh = { .what = (enum ks_shape_what)w, .name = "n",
					      .file = "f.c", .line = 1, .col = 1 };
		struct ks_record rec;
		const char *why = NULL;

		ks_record_encode_shape(&b, &sh);
		ck_assert_msg(ks_record_decode(b.p, b.len - 1, &rec, &why) == 0, "what %d: %s", w, why);
		ck_assert_int_eq(rec.shape.what, w);
		ks_record_free(&rec);
		ks_buf_free(&b);
	}
	for (int st = 0; st < KS_FACT_NSTATUS; st++) {
		struct ks_buf b = KS_BUF_INIT;
		struct ks_record_fact fa = { .item = 1, .status = (enum ks_fact_status)st };
		struct ks_record rec;
		const char *why = NULL;

		ks_record_encode_fact(&b, &fa);
		ck_assert_msg(ks_record_decode(b.p, b.len - 1, &rec, &why) == 0, "status %d: %s", st, why);
		ck_assert_int_eq(rec.fact.status, st);
		ks_record_free(&rec);
		ks_buf_free(&b);
	}
}
END_TEST

START_TEST(test_bad)
{
	struct ks_record rec;
	const char *why = NULL;
	int r = ks_record_decode(bad_cases[_i].in, strlen(bad_cases[_i].in), &rec, &why);

	ck_assert_msg(r == -EINVAL, "case %d: returned %d", _i, r);
	ck_assert_msg(why && strcmp(why, bad_cases[_i].why) == 0, "case %d: why '%s', want '%s'",
		      _i, why ? why : "(null)", bad_cases[_i].why);
	ks_record_free(&rec);
}
END_TEST

static const struct {
	const char *fn;
	size_t len;
} name_cases[] = {
	{ "reg", 3 },
	{ "reg.constprop.0", 3 },	/* IPA constant propagation */
	{ "nf_strncasecmp.isra.0", 14 },	/* IPA-SRA */
	{ "probe.part.0", 5 },		/* function splitting */
	{ "probe.cold", 5 },		/* the cold part */
	{ "parse.constprop.0.isra.0", 5 },	/* clones of clones */
	{ "parse.part.0.cold", 5 },
	{ "", 0 },			/* file scope */
};

/* Functions are recorded as the source writes them, without clone suffixes. */
START_TEST(test_function_name)
{
	size_t n = ks_function_name_len(name_cases[_i].fn);

	ck_assert_msg(n == name_cases[_i].len, "'%s': %zu, want %zu", name_cases[_i].fn, n,
		      name_cases[_i].len);
}
END_TEST

START_TEST(test_embedded_nul)
{
	const char in[] = "ksunset 1\tuse\ta\0b\tcall";
	struct ks_record rec;
	const char *why = NULL;

	ck_assert_int_eq(ks_record_decode(in, sizeof(in) - 1, &rec, &why), -EINVAL);
	ck_assert_str_eq(why, "NUL inside a record");
	ks_record_free(&rec);
}
END_TEST

static Suite *suite_record(void)
{
	Suite *s = suite_create("record");
	TCase *tc = tcase_create("codec");

	tcase_add_test(tc, test_use_roundtrip);
	tcase_add_test(tc, test_accepted_roundtrip);
	tcase_add_test(tc, test_unit_roundtrip);
	tcase_add_test(tc, test_api_roundtrip);
	tcase_add_test(tc, test_v4_roundtrip);
	tcase_add_test(tc, test_v4_names);
	tcase_add_test(tc, test_empty_function);
	tcase_add_test(tc, test_newer_version);
	tcase_add_test(tc, test_shape_version);
	tcase_add_loop_test(tc, test_bad, 0, KS_NCASES(bad_cases));
	tcase_add_test(tc, test_embedded_nul);
	tcase_add_loop_test(tc, test_function_name, 0, KS_NCASES(name_cases));
	suite_add_tcase(s, tc);
	return s;
}
KS_SUITE(suite_record)
