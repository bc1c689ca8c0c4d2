/* Migrations files (ksunset.migrations(5)): the fields of an entry, and
 * the message and line of each malformed one. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "suites.h"
#include "input/migrations.h"

/* Loads n bytes of text from a file of its own. */
static int load_n(struct ks_migrations *m, struct ks_diags *d, const char *text, size_t n,
		  char *path)
{
	int fd, r;

	strcpy(path, "/tmp/ks-migrations-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, n), (int)n);
	close(fd);
	r = ks_migrations_load(m, path, d);
	unlink(path);
	return r;
}

static int load(struct ks_migrations *m, struct ks_diags *d, const char *text, char *path)
{
	return load_n(m, d, text, strlen(text), path);
}

START_TEST(test_good)
{
	struct ks_migrations m;
	struct ks_diags d = { 0 };
	const struct ks_migration *e;
	char path[64];

	ck_assert_int_eq(load(&m, &d,
			      "# comment\r\n"
			      "From:    6.1\r\n"
			      "To:      6.12\r\n"
			      "\r\n"
			      "Header:  asm/unaligned.h\r\n"
			      "Instead: linux/unaligned.h\r\n"
			      "Count:   718 of 726\r\n"
			      "Example: arch/alpha/kernel/traps.c:24 -> arch/alpha/kernel/traps.c:25\r\n"
			      "\n"
			      "Header:  media/dvb_math.h\n"
			      "Instead: linux/int_log.h\n"
			      "Count:   26 of 26\n"
			      "Example: a.h:15 -> a.h:16\n"
			      "\n"
			      "Call:    class_create\n"
			      "Rewrite: drop 1\n"
			      "Count:   20 of 21\n"
			      "Example: a.c:628 -> a.c:627\n"
			      "\n"
			      "Call:    DEFINE_SEMAPHORE\n"
			      "Rewrite: insert 2 1\n"
			      "Count:   9 of 9\n"
			      "Example: b.c:75 -> b.c:75\n"
			      "\n"
			      "Call:    blk_alloc_disk\n"
			      "Rewrite: insert 1 &lim\n"
			      "Count:   20 of 22\n"
			      "Example: c.c:1 -> c.c:2\n"
			      "\n"
			      "Call:    i2c_mux_add_adapter\n"
			      "Rewrite: drop 2\n"
			      "Count:   5 of 12\n"
			      "Example: d.c:1 -> d.c:2\n"
			      "Rewrite: insert 3 NULL\n"
			      "Count:   4 of 12\n"
			      "Example: e.c:1 -> e.c:2\n"
			      "\n"
			      "Call:    strlcpy\n"
			      "Rewrite: rename strscpy\n"
			      "Count:   182 of 261\n"
			      "Example: f.c:1 -> f.c:1\n"
			      "\n"
			      "Assign:  vm_flags &=\n"
			      "Rewrite: call vm_flags_clear\n"
			      "Count:   40 of 41\n"
			      "Example: g.c:1 -> g.c:1\n"
			      "\n"
			      "Callback: struct class.devnode\n"
			      "Rewrite: const 1\n"
			      "Count:   12 of 12\n"
			      "Example: h.c:1 -> h.c:1\n"
			      "\n"
			      "Callback: struct hid_driver.report_fixup\n"
			      "Rewrite: const 0\n"
			      "Count:   40 of 41\n"
			      "Example: i.c:1 -> i.c:1\n"
			      "\n"
			      "Callback: struct inode_operations.update_time\n"
			      "Rewrite: drop 2\n"
			      "Count:   6 of 6\n"
			      "Example: j.c:2 -> j.c:2\n"
			      "\n"
			      "Call:    hid_is_using_ll_driver\n"
			      "Rewrite: wrap hid_is_usb 2 &usb_hid_driver\n"
			      "Count:   1 of 1\n"
			      "Example: include/linux/hid.h:878 -> include/linux/hid.h:900\n"
			      "\n"
			      "Callback: struct i2c_driver.probe\n"
			      "Rewrite: drop 2\n"
			      "Count:   610 of 610\n"
			      "Example: l.c:1 -> l.c:1\n"
			      "Rewrite: local 2 i2c_client_get_device_id 1\n"
			      "Count:   160 of 610\n"
			      "Example: l.c:5 -> l.c:4\n"
			      "\n"
			      "Callback: struct genl_family.pre_doit\n"
			      "Rewrite: retype 1 struct genl_ops struct genl_split_ops\n"
			      "Count:   5 of 5\n"
			      "Example: j.c:1 -> j.c:1\n"
			      "\n"
			      "Read:    struct fd.file\n"
			      "Rewrite: call fd_file\n"
			      "Count:   50 of 60\n"
			      "Example: k.c:1 -> k.c:1\n"
			      "\n"
			      "Include: crypto_register_alg\n"
			      "Rewrite: include crypto/algapi.h\n"
			      "Count:   18 of 18\n"
			      "Example: l.c:73 -> l.c:5\n"
			      "\n"
			      "Include: struct circ_buf\n"
			      "Rewrite: include linux/circ_buf.h\n"
			      "Count:   3 of 5\n"
			      "Example: m.c:9 -> m.c:4\n"
			      "Rewrite: include linux/serial_core.h\n"
			      "Count:   2 of 5\n"
			      "Example: n.c:9 -> n.c:4\n"
			      "\n"
			      "Include: strlcpy\n"
			      "Rewrite: include linux/string.h\n"
			      "Count:   3 of 3\n"
			      "Example: o.c:9 -> o.c:4\n"
			      "\n"
			      "Argument: setattr_prepare 1 &init_user_ns\n"
			      "Rewrite: replace &nop_mnt_idmap\n"
			      "Count:   34 of 40\n"
			      "Example: p.c:9 -> p.c:9\n"
			      "\n"
			      "Argument: __getblk_gfp 4 __GFP_MOVABLE\n"
			      "Rewrite: wrap __getblk 4 __GFP_MOVABLE\n"
			      "Count:   1 of 1\n"
			      "Example: include/linux/buffer_head.h:340 -> include/linux/buffer_head.h:374\n"
			      "\n"
			      "Argument: setattr_prepare 1 &other_ns\n"
			      "Rewrite: replace my_idmap\n"
			      "Count:   4 of 4\n"
			      "Example: q.c:9 -> q.c:9\n",
			      path),
			 0);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_str_eq(m.from, "6.1");
	ck_assert_str_eq(m.to, "6.12");
	ck_assert_uint_eq(m.n, 21);
	e = ks_migrations_find(&m, "asm/unaligned.h", false);
	ck_assert_ptr_nonnull(e);
	ck_assert_uint_eq(e->nrw, 1);
	ck_assert_int_eq(e->rw[0].op, KS_RW_HEADER);
	ck_assert_str_eq(e->rw[0].text, "linux/unaligned.h");
	ck_assert_uint_eq(e->rw[0].count, 718);
	ck_assert_uint_eq(e->of, 726);
	ck_assert_str_eq(e->rw[0].example, "arch/alpha/kernel/traps.c:25");
	ck_assert_uint_eq(e->line, 5);
	ck_assert_ptr_eq(ks_migration_rewrite(e), &e->rw[0]);
	ck_assert_str_eq(ks_migrations_find(&m, "media/dvb_math.h", false)->rw[0].example, "a.h:16");
	ck_assert_ptr_null(ks_migrations_find(&m, "linux/unaligned.h", false));
	ck_assert_ptr_null(ks_migrations_find(&m, "asm/unaligned.h", true));
	/* a call: one rewrite, mechanical */
	e = ks_migrations_find(&m, "class_create", true);
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(e->rw[0].op, KS_RW_DROP);
	ck_assert_uint_eq(e->rw[0].arg, 1);
	ck_assert_ptr_null(e->rw[0].text);
	ck_assert_ptr_eq(ks_migration_rewrite(e), &e->rw[0]);
	e = ks_migrations_find(&m, "DEFINE_SEMAPHORE", true);
	ck_assert_int_eq(e->rw[0].op, KS_RW_INSERT);
	ck_assert_uint_eq(e->rw[0].arg, 2);
	ck_assert_str_eq(e->rw[0].text, "1");
	ck_assert_ptr_eq(ks_migration_rewrite(e), &e->rw[0]);
	/* an argument of the callers' own: no rewrite to copy */
	e = ks_migrations_find(&m, "blk_alloc_disk", true);
	ck_assert_str_eq(e->rw[0].text, "&lim");
	ck_assert_ptr_null(ks_migration_rewrite(e));
	/* no single rewrite: the two most common, neither taken */
	e = ks_migrations_find(&m, "i2c_mux_add_adapter", true);
	ck_assert_uint_eq(e->nrw, 2);
	ck_assert_uint_eq(e->of, 12);
	ck_assert_str_eq(e->rw[1].text, "NULL");
	ck_assert_str_eq(e->rw[1].example, "e.c:2");
	ck_assert_ptr_null(ks_migration_rewrite(e));
	/* another function called in its place */
	e = ks_migrations_find(&m, "strlcpy", true);
	ck_assert_int_eq(e->rw[0].op, KS_RW_RENAME);
	ck_assert_str_eq(e->rw[0].text, "strscpy");
	ck_assert_ptr_eq(ks_migration_rewrite(e), &e->rw[0]);
	/* an assignment with &= become a call */
	e = ks_migrations_find(&m, "vm_flags &=", true);
	ck_assert(e->assign);
	ck_assert_int_eq(e->rw[0].op, KS_RW_CALL);
	ck_assert_str_eq(e->rw[0].text, "vm_flags_clear");
	ck_assert_ptr_eq(ks_migration_rewrite(e), &e->rw[0]);
	/* callbacks: a parameter, the return type, a parameter's struct */
	e = ks_migrations_find(&m, "struct class.devnode", true);
	ck_assert(e->callback && !e->assign);
	ck_assert_int_eq(e->rw[0].op, KS_RW_CONST);
	ck_assert_uint_eq(e->rw[0].arg, 1);
	ck_assert_ptr_eq(ks_migration_rewrite(e), &e->rw[0]);
	e = ks_migrations_find(&m, "struct hid_driver.report_fixup", true);
	ck_assert_int_eq(e->rw[0].op, KS_RW_CONST);
	ck_assert_uint_eq(e->rw[0].arg, 0);
	e = ks_migrations_find(&m, "struct inode_operations.update_time", true);
	ck_assert_int_eq(e->rw[0].op, KS_RW_DROP);
	ck_assert_uint_eq(e->rw[0].arg, 2);
	ck_assert_ptr_eq(ks_migration_rewrite(e), &e->rw[0]);
	ck_assert_ptr_null(ks_migration_local(e, &e->rw[0]));
	/* a wrapper of the older headers: its one site is its definition */
	e = ks_migrations_find(&m, "hid_is_using_ll_driver", true);
	ck_assert_int_eq(e->rw[0].op, KS_RW_WRAP);
	ck_assert_str_eq(e->rw[0].text, "hid_is_usb");
	ck_assert_uint_eq(e->rw[0].arg, 2);
	ck_assert_str_eq(e->rw[0].from, "&usb_hid_driver");
	ck_assert_ptr_eq(ks_migration_rewrite(e), &e->rw[0]);
	ck_assert_str_eq(ks_rewrite_op_name(e->rw[0].op), "wrap");
	/* a parameter dropped that bodies used: the local they declared */
	e = ks_migrations_find(&m, "struct i2c_driver.probe", true);
	ck_assert_int_eq(e->rw[1].op, KS_RW_LOCAL);
	ck_assert_uint_eq(e->rw[1].arg, 2);
	ck_assert_str_eq(e->rw[1].text, "i2c_client_get_device_id");
	ck_assert_uint_eq(e->rw[1].param, 1);
	ck_assert_ptr_eq(ks_migration_rewrite(e), &e->rw[0]);
	ck_assert_ptr_eq(ks_migration_local(e, &e->rw[0]), &e->rw[1]);
	ck_assert_str_eq(ks_rewrite_op_name(e->rw[1].op), "local");
	e = ks_migrations_find(&m, "struct genl_family.pre_doit", true);
	ck_assert_int_eq(e->rw[0].op, KS_RW_RETYPE);
	ck_assert_str_eq(e->rw[0].text, "struct genl_split_ops");
	ck_assert_str_eq(e->rw[0].from, "struct genl_ops");
	ck_assert_str_eq(ks_rewrite_op_name(e->rw[0].op), "retype");
	/* a member gone, its reads become calls */
	e = ks_migrations_find(&m, "struct fd.file", true);
	ck_assert(e->read && !e->assign && !e->callback);
	ck_assert_int_eq(e->rw[0].op, KS_RW_CALL);
	ck_assert_ptr_eq(ks_migration_rewrite(e), &e->rw[0]);
	/* a header its users added the #include of, for a name or a struct;
	 * a Call: and an Include: entry of one name are two entries */
	e = ks_migrations_include(&m, "crypto_register_alg");
	ck_assert(e && e->include && e->call && !e->callback);
	ck_assert_int_eq(e->rw[0].op, KS_RW_INCLUDE);
	ck_assert_str_eq(e->rw[0].text, "crypto/algapi.h");
	ck_assert_str_eq(e->rw[0].example, "l.c:5");
	ck_assert_ptr_eq(ks_migration_rewrite(e), &e->rw[0]);
	ck_assert_ptr_null(ks_migrations_find(&m, "crypto_register_alg", true));
	e = ks_migrations_include(&m, "struct circ_buf");
	ck_assert_uint_eq(e->nrw, 2);
	ck_assert_ptr_null(ks_migration_rewrite(e));
	ck_assert_str_eq(ks_rewrite_op_name(e->rw[1].op), "include");
	ck_assert(ks_migrations_include(&m, "strlcpy")->include);
	ck_assert(!ks_migrations_find(&m, "strlcpy", true)->include);
	ck_assert_ptr_null(ks_migrations_include(&m, "class_create"));
	/* an argument passed instead of another: its place and old text kept
	 * with the rewrite; taken only when it names nothing of the caller's
	 * own (a name's address, a constant) */
	e = ks_migrations_find(&m, "setattr_prepare 1 &init_user_ns", true);
	ck_assert(e && e->argument && e->call && !e->assign && !e->include);
	ck_assert_int_eq(e->rw[0].op, KS_RW_REPLACE);
	ck_assert_uint_eq(e->rw[0].arg, 1);
	ck_assert_str_eq(e->rw[0].from, "&init_user_ns");
	ck_assert_str_eq(e->rw[0].text, "&nop_mnt_idmap");
	ck_assert_str_eq(ks_rewrite_op_name(e->rw[0].op), "replace");
	ck_assert_ptr_eq(ks_migration_rewrite(e), &e->rw[0]);
	ck_assert_ptr_null(ks_migration_rewrite(ks_migrations_find(&m, "setattr_prepare 1 &other_ns", true)));
	ck_assert_ptr_null(ks_migrations_find(&m, "setattr_prepare", true));
	/* a wrapper of a function gone, of the calls that pass its constant */
	e = ks_migrations_find(&m, "__getblk_gfp 4 __GFP_MOVABLE", true);
	ck_assert(e && e->argument);
	ck_assert_int_eq(e->rw[0].op, KS_RW_WRAP);
	ck_assert_str_eq(e->rw[0].text, "__getblk");
	ck_assert_str_eq(e->rw[0].from, "__GFP_MOVABLE");
	ck_assert_uint_eq(e->rw[0].arg, 4);
	ck_assert_ptr_eq(ks_migration_rewrite(e), &e->rw[0]);
	ks_migrations_free(&m);
	ks_diags_free(&d);
}
END_TEST

static const struct {
	const char *text;
	unsigned line;
	const char *msg;
} bad[] = {
	{ "", 0, "no From: and To: releases" },
	{ "From: 6.1\n", 0, "no From: and To: releases" },
	{ "From: 6\nTo: 6.12\n", 1, "expected a release X.Y, not '6'" },
	{ "From: 6.1\nTo: 6.12\nFrom: 6.2\n", 3, "'From:' belongs once at the top, before the entries" },
	{ "From: 6.1\nTo: 6.12\nInstead: x.h\n", 3,
	  "'Instead:' outside an entry (an entry starts with Header:, Call:, Assign:, Callback:, Read:, Include: or Argument:)" },
	{ "From: 6.1\nTo: 6.12\n\nCall: f(x)\n", 4, "expected a function's or macro's name, not 'f(x)'" },
	{ "From: 6.1\nTo: 6.12\n\nCall: f\nInstead: x.h\n", 5, "'Instead:' belongs to a Header: entry" },
	{ "From: 6.1\nTo: 6.12\n\nHeader: x.h\nRewrite: drop 1\n", 5,
	  "'Rewrite:' belongs to a Call:, Assign:, Callback:, Read:, Include: or Argument: entry" },
	/* an argument's entry: a name, a place from 1, a text without blanks */
	{ "From: 6.1\nTo: 6.12\n\nArgument: f 0 &x\n", 4,
	  "expected a function's or macro's name, an argument's place (from 1) and the argument's "
	  "text without blanks, not 'f 0 &x'" },
	{ "From: 6.1\nTo: 6.12\n\nArgument: f 1\n", 4,
	  "expected a function's or macro's name, an argument's place (from 1) and the argument's "
	  "text without blanks, not 'f 1'" },
	{ "From: 6.1\nTo: 6.12\n\nArgument: f 1 a b\n", 4,
	  "expected a function's or macro's name, an argument's place (from 1) and the argument's "
	  "text without blanks, not 'f 1 a b'" },
	{ "From: 6.1\nTo: 6.12\n\nArgument: f(x) 1 &x\n", 4,
	  "expected a function's or macro's name, an argument's place (from 1) and the argument's "
	  "text without blanks, not 'f(x) 1 &x'" },
	{ "From: 6.1\nTo: 6.12\n\nArgument: f 1 &x\nRewrite: drop 1\n", 5,
	  "expected 'replace TEXT' (TEXT without blanks), or alone 'wrap NAME N TEXT' of the entry's N and TEXT, not 'drop 1'" },
	{ "From: 6.1\nTo: 6.12\n\nArgument: f 1 &x\nRewrite: replace &a b\n", 5,
	  "expected 'replace TEXT' (TEXT without blanks), or alone 'wrap NAME N TEXT' of the entry's N and TEXT, not 'replace &a b'" },
	{ "From: 6.1\nTo: 6.12\n\nCall: f\nRewrite: replace &a\n", 5,
	  "expected 'drop N', 'insert N ARGUMENT', 'rename NAME', 'delete', 'omit' or 'wrap NAME N ARGUMENT', not 'replace &a'" },
	{ "From: 6.1\nTo: 6.12\n\nCallback: class.devnode\n", 4,
	  "expected 'struct NAME.MEMBER', not 'class.devnode'" },
	{ "From: 6.1\nTo: 6.12\n\nCallback: struct class\n", 4,
	  "expected 'struct NAME.MEMBER', not 'struct class'" },
	{ "From: 6.1\nTo: 6.12\n\nCallback: struct class.devnode\nRewrite: drop 0\n", 5,
	  "expected 'const N', 'drop N', 'retype N struct OLD struct NEW', 'delete' alone or, after a 'drop N', 'local N FUNCTION K', not 'drop 0'" },
	{ "From: 6.1\nTo: 6.12\n\nCallback: struct class.devnode\nRewrite: rename x\n", 5,
	  "expected 'const N', 'drop N', 'retype N struct OLD struct NEW', 'delete' alone or, after a 'drop N', 'local N FUNCTION K', not 'rename x'" },
	{ "From: 6.1\nTo: 6.12\n\nCallback: struct class.devnode\nRewrite: retype 1 mnt_idmap\n", 5,
	  "expected 'const N', 'drop N', 'retype N struct OLD struct NEW', 'delete' alone or, after a 'drop N', 'local N FUNCTION K', not 'retype 1 mnt_idmap'" },
	{ "From: 6.1\nTo: 6.12\n\nCallback: struct class.devnode\nRewrite: retype 0 struct x struct y\n", 5,
	  "expected 'const N', 'drop N', 'retype N struct OLD struct NEW', 'delete' alone or, after a 'drop N', 'local N FUNCTION K', not 'retype 0 struct x struct y'" },
	{ "From: 6.1\nTo: 6.12\n\nCallback: struct class.devnode\nRewrite: retype 1 struct y\n", 5,
	  "expected 'const N', 'drop N', 'retype N struct OLD struct NEW', 'delete' alone or, after a 'drop N', 'local N FUNCTION K', not 'retype 1 struct y'" },
	{ "From: 6.1\nTo: 6.12\n\nCallback: struct class.devnode\nRewrite: retype 1 x struct y\n", 5,
	  "expected 'const N', 'drop N', 'retype N struct OLD struct NEW', 'delete' alone or, after a 'drop N', 'local N FUNCTION K', not 'retype 1 x struct y'" },
	{ "From: 6.1\nTo: 6.12\n\nCallback: struct class.devnode\nRewrite: const 1 x\n", 5,
	  "expected 'const N', 'drop N', 'retype N struct OLD struct NEW', 'delete' alone or, after a 'drop N', 'local N FUNCTION K', not 'const 1 x'" },
	{ "From: 6.1\nTo: 6.12\n\nCallback: struct i2c_driver.probe\nRewrite: local 2 f 1\n", 5,
	  "expected 'const N', 'drop N', 'retype N struct OLD struct NEW', 'delete' alone or, after a 'drop N', 'local N FUNCTION K', not 'local 2 f 1'" },
	{ "From: 6.1\nTo: 6.12\n\nCallback: struct i2c_driver.probe\nRewrite: drop 2\nCount: 5 of 5\n"
	  "Example: a.c:1 -> a.c:1\nRewrite: local 1 f 1\n", 8,
	  "expected 'const N', 'drop N', 'retype N struct OLD struct NEW', 'delete' alone or, after a 'drop N', 'local N FUNCTION K', not 'local 1 f 1'" },
	{ "From: 6.1\nTo: 6.12\n\nCallback: struct i2c_driver.probe\nRewrite: drop 2\nCount: 5 of 5\n"
	  "Example: a.c:1 -> a.c:1\nRewrite: local 2 f x\n", 8,
	  "expected 'const N', 'drop N', 'retype N struct OLD struct NEW', 'delete' alone or, after a 'drop N', 'local N FUNCTION K', not 'local 2 f x'" },
	{ "From: 6.1\nTo: 6.12\n\nCallback: struct i2c_driver.probe\nRewrite: drop 2\nCount: 5 of 5\n"
	  "Example: a.c:1 -> a.c:1\nRewrite: local 2 f() 1\n", 8,
	  "expected 'const N', 'drop N', 'retype N struct OLD struct NEW', 'delete' alone or, after a 'drop N', 'local N FUNCTION K', not 'local 2 f() 1'" },
	{ "From: 6.1\nTo: 6.12\n\nCall: f\nRewrite: wrap g 2\n", 5,
	  "expected 'drop N', 'insert N ARGUMENT', 'rename NAME', 'delete', 'omit' or 'wrap NAME N ARGUMENT', not 'wrap g 2'" },
	{ "From: 6.1\nTo: 6.12\n\nCall: f\nRewrite: wrap g 0 NULL\n", 5,
	  "expected 'drop N', 'insert N ARGUMENT', 'rename NAME', 'delete', 'omit' or 'wrap NAME N ARGUMENT', not 'wrap g 0 NULL'" },
	{ "From: 6.1\nTo: 6.12\n\nCall: f\nRewrite: wrap g() 1 NULL\n", 5,
	  "expected 'drop N', 'insert N ARGUMENT', 'rename NAME', 'delete', 'omit' or 'wrap NAME N ARGUMENT', not 'wrap g() 1 NULL'" },
	{ "From: 6.1\nTo: 6.12\n\nCall: f\nRewrite: wrap g 1 a b\n", 5,
	  "expected 'drop N', 'insert N ARGUMENT', 'rename NAME', 'delete', 'omit' or 'wrap NAME N ARGUMENT', not 'wrap g 1 a b'" },
	{ "From: 6.1\nTo: 6.12\n\nCall: f\nRewrite: wrap g 1 NULL\nCount: 1 of 1\n"
	  "Example: a.h:1 -> a.h:1\nRewrite: drop 1\n", 8,
	  "expected 'drop N', 'insert N ARGUMENT', 'rename NAME', 'delete', 'omit' or 'wrap NAME N ARGUMENT', not 'drop 1'" },
	{ "From: 6.1\nTo: 6.12\n\nCall: f\nRewrite: drop 1\nCount: 5 of 5\n"
	  "Example: a.h:1 -> a.h:1\nRewrite: wrap g 1 NULL\n", 8,
	  "expected 'drop N', 'insert N ARGUMENT', 'rename NAME', 'delete', 'omit' or 'wrap NAME N ARGUMENT', not 'wrap g 1 NULL'" },
	{ "From: 6.1\nTo: 6.12\n\nCallback: struct a.b\nRewrite: delete\nCount: 5 of 5\n"
	  "Example: a.c:1 -> a.c:1\nRewrite: const 1\n", 8,
	  "expected 'const N', 'drop N', 'retype N struct OLD struct NEW', 'delete' alone or, after a "
	  "'drop N', 'local N FUNCTION K', not 'const 1'" },
	{ "From: 6.1\nTo: 6.12\n\nCallback: struct a.b\nRewrite: const 1\nCount: 5 of 5\n"
	  "Example: a.c:1 -> a.c:1\nRewrite: delete\n", 8,
	  "expected 'const N', 'drop N', 'retype N struct OLD struct NEW', 'delete' alone or, after a "
	  "'drop N', 'local N FUNCTION K', not 'delete'" },
	{ "From: 6.1\nTo: 6.12\n\nArgument: f 4 X\nRewrite: wrap g 3 X\n", 5,
	  "expected 'replace TEXT' (TEXT without blanks), or alone 'wrap NAME N TEXT' of the entry's N "
	  "and TEXT, not 'wrap g 3 X'" },
	{ "From: 6.1\nTo: 6.12\n\nArgument: f 4 X\nRewrite: wrap g 4 Y\n", 5,
	  "expected 'replace TEXT' (TEXT without blanks), or alone 'wrap NAME N TEXT' of the entry's N "
	  "and TEXT, not 'wrap g 4 Y'" },
	{ "From: 6.1\nTo: 6.12\n\nArgument: f 4 X\nRewrite: wrap g 4 X\nCount: 1 of 1\n"
	  "Example: a.h:1 -> a.h:1\nRewrite: replace Y\n", 8,
	  "expected 'replace TEXT' (TEXT without blanks), or alone 'wrap NAME N TEXT' of the entry's N "
	  "and TEXT, not 'replace Y'" },
	{ "From: 6.1\nTo: 6.12\n\nRead: struct fd.file\nRewrite: drop 1\n", 5,
	  "expected 'call NAME', not 'drop 1'" },
	{ "From: 6.1\nTo: 6.12\n\nRead: struct inode.i_mtime.tv_sec.x\n", 4,
	  "expected 'struct NAME.MEMBER' or 'struct NAME.MEMBER.FIELD', not "
	  "'struct inode.i_mtime.tv_sec.x'" },
	{ "From: 6.1\nTo: 6.12\n\nCallback: struct class.devnode.x\n", 4,
	  "expected 'struct NAME.MEMBER', not 'struct class.devnode.x'" },
	{ "From: 6.1\nTo: 6.12\n\nRead: file\n", 4, "expected 'struct NAME.MEMBER' or 'struct NAME.MEMBER.FIELD', not 'file'" },
	{ "From: 6.1\nTo: 6.12\n\nInclude: f(x)\n", 4, "expected a name or 'struct NAME', not 'f(x)'" },
	{ "From: 6.1\nTo: 6.12\n\nInclude: struct a b\n", 4, "expected a name or 'struct NAME', not 'struct a b'" },
	{ "From: 6.1\nTo: 6.12\n\nInclude: f\nRewrite: rename g\n", 5,
	  "expected 'include HEADER', not 'rename g'" },
	{ "From: 6.1\nTo: 6.12\n\nInclude: f\nRewrite: include <x.h>\n", 5,
	  "expected 'include HEADER', not 'include <x.h>'" },
	{ "From: 6.1\nTo: 6.12\n\nCall: f\nRewrite: include x.h\n", 5,
	  "expected 'drop N', 'insert N ARGUMENT', 'rename NAME', 'delete', 'omit' or 'wrap NAME N ARGUMENT', not 'include x.h'" },
	{ "From: 6.1\nTo: 6.12\n\nInclude: f\nRewrite: include x.h\nCount: 3 of 3\n"
	  "Example: a:1 -> a:2\n\nInclude: f\n",
	  9, "entry 'f' listed twice" },
	{ "From: 6.1\nTo: 6.12\n\nCall: f\nRewrite: const 1\n", 5,
	  "expected 'drop N', 'insert N ARGUMENT', 'rename NAME', 'delete', 'omit' or 'wrap NAME N ARGUMENT', not 'const 1'" },
	{ "From: 6.1\nTo: 6.12\n\nCall: f\nRewrite: drop 0\n", 5,
	  "expected 'drop N', 'insert N ARGUMENT', 'rename NAME', 'delete', 'omit' or 'wrap NAME N ARGUMENT', not 'drop 0'" },
	{ "From: 6.1\nTo: 6.12\n\nCall: f\nRewrite: insert 2\n", 5,
	  "expected 'drop N', 'insert N ARGUMENT', 'rename NAME', 'delete', 'omit' or 'wrap NAME N ARGUMENT', not 'insert 2'" },
	{ "From: 6.1\nTo: 6.12\n\nCall: f\nRewrite: rename g(x)\n", 5,
	  "expected 'drop N', 'insert N ARGUMENT', 'rename NAME', 'delete', 'omit' or 'wrap NAME N ARGUMENT', not 'rename g(x)'" },
	{ "From: 6.1\nTo: 6.12\n\nAssign: vm_flags ^=\n", 4,
	  "expected a member's name and '=', '|=', '&=' or '= NAME()', not 'vm_flags ^='" },
	{ "From: 6.1\nTo: 6.12\n\nAssign: i_ctime = current_time\n", 4,
	  "expected a member's name and '=', '|=', '&=' or '= NAME()', not "
	  "'i_ctime = current_time'" },
	{ "From: 6.1\nTo: 6.12\n\nAssign: i_ctime |= f()\n", 4,
	  "expected a member's name and '=', '|=', '&=' or '= NAME()', not 'i_ctime |= f()'" },
	{ "From: 6.1\nTo: 6.12\n\nAssign: i_ctime = 1f()\n", 4,
	  "expected a member's name and '=', '|=', '&=' or '= NAME()', not 'i_ctime = 1f()'" },
	{ "From: 6.1\nTo: 6.12\n\nAssign: vm_flags |=\nRewrite: drop 1\n", 5,
	  "expected 'call NAME', not 'drop 1'" },
	{ "From: 6.1\nTo: 6.12\n\nCall: f\nRewrite: call g\n", 5,
	  "expected 'drop N', 'insert N ARGUMENT', 'rename NAME', 'delete', 'omit' or 'wrap NAME N ARGUMENT', not 'call g'" },
	{ "From: 6.1\nTo: 6.12\n\nCall: f\nRewrite: swap 1 2\n", 5,
	  "expected 'drop N', 'insert N ARGUMENT', 'rename NAME', 'delete', 'omit' or 'wrap NAME N ARGUMENT', not 'swap 1 2'" },
	{ "From: 6.1\nTo: 6.12\n\nCall: f\nCount: 1 of 1\n", 5, "'Count:' before the entry's Rewrite:" },
	{ "From: 6.1\nTo: 6.12\n\nCall: f\nRewrite: drop 1\nRewrite: drop 2\n", 6,
	  "'drop 2': the rewrite before lacks Count: or Example:" },
	{ "From: 6.1\nTo: 6.12\n\nCall: f\nRewrite: drop 1\nCount: 2 of 5\nExample: a:1 -> a:1\n"
	  "Rewrite: drop 2\nCount: 2 of 6\n",
	  9, "expected 'N of M' (M as in the entry's first Count:), not '2 of 6'" },
	{ "From: 6.1\nTo: 6.12\n\nCall: f\nRewrite: drop 1\nCount: 2 of 5\nExample: a:1 -> a:1\n"
	  "Rewrite: drop 2\nCount: 2 of 5\nExample: a:1 -> a:1\nRewrite: drop 3\n",
	  11, "'drop 3': an entry has at most two rewrites" },
	{ "From: 6.1\nTo: 6.12\n\nCall: f\n\n", 4, "entry 'f' lacks Rewrite:, Count: or Example:" },
	{ "From: 6.1\nTo: 6.12\n\nHeader: <x.h>\n", 4,
	  "expected a header's name as #include <...> names it, not '<x.h>'" },
	{ "From: 6.1\nTo: 6.12\n\nHeader: x.h\nInstead: y.h\nCount: 3 of 2\n", 6,
	  "expected 'N of M' (M as in the entry's first Count:), not '3 of 2'" },
	{ "From: 6.1\nTo: 6.12\n\nHeader: x.h\nInstead: y.h\nCount: 1 of 2\nExample: a.c:1\n", 7,
	  "expected 'FILE:LINE -> FILE:LINE', not 'a.c:1'" },
	{ "From: 6.1\nTo: 6.12\n\nHeader: x.h\nInstead: y.h\n", 4,
	  "entry 'x.h' lacks Instead:, Count: or Example:" },
	{ "From: 6.1\nTo: 6.12\n\nHeader: x.h\nHeader: y.h\n", 5,
	  "'y.h': an entry starts after a blank line" },
	{ "From: 6.1\nTo: 6.12\n\nHeader: x.h\nInstead: y.h\nCount: 1 of 1\nExample: a:1 -> a:2\n\n"
	  "Header: x.h\n",
	  9, "header 'x.h' listed twice" },
	{ "From: 6.1\nTo: 6.12\nWhat: kfree\n", 3, "unknown field 'What'" },
	{ "From: 6.1\nTo: 6.12\nnot a field\n", 3, "expected 'Field: value', not 'not a field'" },
};

START_TEST(test_bad)
{
	struct ks_migrations m;
	struct ks_diags d = { 0 };
	char path[64];

	ck_assert_int_eq(load(&m, &d, bad[_i].text, path), -EINVAL);
	ck_assert_uint_ge(d.nerrors, 1);
	ck_assert_str_eq(d.v[0].msg, bad[_i].msg);
	ck_assert_uint_eq(d.v[0].line, bad[_i].line);
	ck_assert_str_eq(d.v[0].file, path);
	ck_assert_uint_eq(m.n, 0);	/* nothing of a bad file is kept */
	ck_assert_ptr_null(m.from);
	ks_diags_free(&d);
}
END_TEST

START_TEST(test_unreadable)
{
	struct ks_migrations m;
	struct ks_diags d = { 0 };
	char path[64];

	ck_assert_int_eq(ks_migrations_load(&m, "/nonexistent/x.migrations", &d), -ENOENT);
	ck_assert_str_eq(d.v[0].msg, "cannot read: No such file or directory");
	ks_diags_free(&d);
	/* a NUL byte: not text, said, nothing kept */
	ck_assert_int_eq(load_n(&m, &d, "From: 6.1\nTo: 6.12\0\n", 21, path), -EINVAL);
	ck_assert_str_eq(d.v[0].msg, "holds a NUL byte: not a migrations file");
	ck_assert_ptr_null(m.from);
	ks_diags_free(&d);
}
END_TEST

/* The target's header for a name no Include: entry has: one entry per
 * name and header, its rewrite taken with no count, kept with the file's
 * entries until they are freed. */
/* The entry of the line an assignment is at: of the call its value is,
 * else of its operator; a read's at a line that assigns the member. */
START_TEST(test_assign_at)
{
	struct ks_migrations m;
	struct ks_diags d = { 0 };
	const struct ks_migration *rd, *op, *call, *flags;
	char path[64], src[] = "/tmp/ks-assign-XXXXXX";
	int fd;
	static const char lines[] = "\tinode->i_ctime = current_time(inode);\n"
				    "\tinode->i_ctime = current_time(inode) + 1;\n"
				    "\tt = inode->i_ctime;\n"
				    "\tmy_i_ctime = current_time(inode);\n"
				    "\tif (inode->i_ctime == current_time(inode))\n"
				    "\tinode->i_ctime = current_time(\"(\");\n"
				    "\tvma->vm_flags |= VM_IO;\n";

	ck_assert_int_eq(load(&m, &d,
			      "From: 6.1\nTo: 6.12\n\n"
			      "Assign:  i_ctime =\nRewrite: call inode_set_ctime_to_ts\n"
			      "Count:   9 of 10\nExample: a.c:1 -> a.c:1\n\n"
			      "Assign:  i_ctime = current_time()\nRewrite: call inode_set_ctime_current\n"
			      "Count:   90 of 100\nExample: b.c:1 -> b.c:1\n\n"
			      "Assign:  vm_flags |=\nRewrite: call vm_flags_set\n"
			      "Count:   9 of 10\nExample: c.c:1 -> c.c:1\n\n"
			      "Read:    struct inode.i_ctime\nRewrite: call inode_get_ctime\n"
			      "Count:   9 of 10\nExample: d.c:1 -> d.c:1\n",
			      path),
			 0);
	rd = ks_migrations_find(&m, "struct inode.i_ctime", true);
	op = ks_migrations_find(&m, "i_ctime =", true);
	call = ks_migrations_find(&m, "i_ctime = current_time()", true);
	flags = ks_migrations_find(&m, "vm_flags |=", true);
	ck_assert(rd && op && call && flags && call->assign);
	fd = mkstemp(src);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, lines, sizeof(lines) - 1), (int)sizeof(lines) - 1);
	close(fd);
	ck_assert_ptr_eq(ks_migrations_assign(&m, "i_ctime", src, 1), call);
	ck_assert_ptr_eq(ks_migrations_assign(&m, "i_ctime", src, 2), op);
	ck_assert_ptr_null(ks_migrations_assign(&m, "i_ctime", src, 3));
	ck_assert_ptr_null(ks_migrations_assign(&m, "i_ctime", src, 4));
	ck_assert_ptr_null(ks_migrations_assign(&m, "i_ctime", src, 5));
	ck_assert_ptr_eq(ks_migrations_assign(&m, "i_ctime", src, 6), call);
	ck_assert_ptr_null(ks_migrations_assign(&m, "i_ctime", src, 99));
	/* a read's entry: the assignment's at a line that assigns */
	ck_assert_ptr_eq(ks_migration_at(&m, rd, src, 1), call);
	ck_assert_ptr_eq(ks_migration_at(&m, rd, src, 2), op);
	ck_assert_ptr_eq(ks_migration_at(&m, rd, src, 3), rd);
	ck_assert_ptr_eq(ks_migration_at(&m, op, src, 1), call);
	ck_assert_ptr_null(ks_migration_at(&m, op, src, 3));
	ck_assert_ptr_eq(ks_migration_at(&m, flags, src, 7), flags);
	unlink(src);
	ks_migrations_free(&m);
}
END_TEST

/* The Argument: entry of what a line's call passes: the first argument
 * that has one, blanks around it aside; none for another text, a call
 * whose arguments run on, or another function's call. */
START_TEST(test_argument_at)
{
	struct ks_migrations m;
	struct ks_diags d = { 0 };
	const struct ks_migration *ns, *flag, *wrap;
	char path[64], src[] = "/tmp/ks-argument-XXXXXX";
	int fd;
	static const char lines[] = "\terr = setattr_prepare(&init_user_ns, dentry, attr);\n"
				    "\terr = setattr_prepare( &init_user_ns , d, a);\n"
				    "\terr = setattr_prepare(mnt_userns, dentry, attr);\n"
				    "\terr = setattr_prepare(&init_user_ns,\n"
				    "\terr = my_setattr_prepare(&init_user_ns, d, a);\n"
				    "\terr = setattr_prepare(x, d, FLAG);\n"
				    "\tbh = __getblk_gfp(bdev, b, size, __GFP_MOVABLE);\n"
				    "\tbh = __getblk_gfp(bdev, b, size, 0);\n";

	ck_assert_int_eq(load(&m, &d,
			      "From: 6.1\nTo: 6.12\n\n"
			      "Argument: setattr_prepare 1 &init_user_ns\nRewrite: replace &nop_mnt_idmap\n"
			      "Count:   9 of 10\nExample: a.c:1 -> a.c:1\n\n"
			      "Argument: setattr_prepare 3 FLAG\nRewrite: replace 0\n"
			      "Count:   9 of 10\nExample: b.c:1 -> b.c:1\n\n"
			      "Argument: __getblk_gfp 4 __GFP_MOVABLE\nRewrite: wrap __getblk 4 __GFP_MOVABLE\n"
			      "Count:   1 of 1\nExample: c.h:1 -> c.h:1\n",
			      path),
			 0);
	ns = ks_migrations_find(&m, "setattr_prepare 1 &init_user_ns", true);
	flag = ks_migrations_find(&m, "setattr_prepare 3 FLAG", true);
	wrap = ks_migrations_find(&m, "__getblk_gfp 4 __GFP_MOVABLE", true);
	ck_assert(ns && flag && wrap);
	fd = mkstemp(src);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, lines, sizeof(lines) - 1), (int)sizeof(lines) - 1);
	close(fd);
	ck_assert_ptr_eq(ks_migrations_argument(&m, "setattr_prepare", src, 1), ns);
	ck_assert_ptr_eq(ks_migrations_argument(&m, "setattr_prepare", src, 2), ns);
	ck_assert_ptr_null(ks_migrations_argument(&m, "setattr_prepare", src, 3));
	ck_assert_ptr_null(ks_migrations_argument(&m, "setattr_prepare", src, 4));
	ck_assert_ptr_null(ks_migrations_argument(&m, "setattr_prepare", src, 5));
	ck_assert_ptr_eq(ks_migrations_argument(&m, "setattr_prepare", src, 6), flag);
	ck_assert_ptr_null(ks_migrations_argument(&m, "setattr_prepare", src, 99));
	/* a wrapper's entry, of the calls that pass its constant */
	ck_assert_ptr_eq(ks_migrations_argument(&m, "__getblk_gfp", src, 7), wrap);
	ck_assert_ptr_null(ks_migrations_argument(&m, "__getblk_gfp", src, 8));
	/* an Argument: entry at another line: what that line passes */
	ck_assert_ptr_eq(ks_migration_at(&m, ns, src, 6), flag);
	ck_assert_ptr_null(ks_migration_at(&m, ns, src, 3));
	unlink(src);
	ks_migrations_free(&m);
}
END_TEST

/* A member's read, at a line: the entry of the field its first read there
 * reads, when the file has one, else the whole member's; an assignment's
 * entry at a line that assigns it; a field's entry alone found too. */
START_TEST(test_read_at)
{
	struct ks_migrations m;
	struct ks_diags d = { 0 };
	const struct ks_migration *whole, *sec, *set, *nsec;
	char path[64], src[] = "/tmp/ks-read-XXXXXX";
	int fd;
	static const char lines[] = "\tt = ip->i_mtime.tv_sec;\n"
				    "\tt = ip->i_mtime;\n"
				    "\tt = ip -> i_mtime . tv_nsec;\n"
				    "\tip->i_mtime = t;\n"
				    "\tt = ip->i_mtime.tv_usec;\n"
				    "\tt = ip->i_atime.tv_nsec;\n";

	ck_assert_int_eq(load(&m, &d,
			      "From: 6.1\nTo: 6.12\n\n"
			      "Read:    struct inode.i_mtime\nRewrite: call inode_get_mtime\n"
			      "Count:   9 of 10\nExample: a.c:1 -> a.c:1\n\n"
			      "Read:    struct inode.i_mtime.tv_sec\nRewrite: call inode_get_mtime_sec\n"
			      "Count:   9 of 10\nExample: b.c:1 -> b.c:1\n\n"
			      "Assign:  i_mtime =\nRewrite: call inode_set_mtime_to_ts\n"
			      "Count:   9 of 10\nExample: c.c:1 -> c.c:1\n\n"
			      "Read:    struct inode.i_atime.tv_nsec\nRewrite: call inode_get_atime_nsec\n"
			      "Count:   9 of 10\nExample: d.c:1 -> d.c:1\n",
			      path),
			 0);
	whole = ks_migrations_find(&m, "struct inode.i_mtime", true);
	sec = ks_migrations_find(&m, "struct inode.i_mtime.tv_sec", true);
	set = ks_migrations_find(&m, "i_mtime =", true);
	nsec = ks_migrations_find(&m, "struct inode.i_atime.tv_nsec", true);
	ck_assert(whole && sec && set && nsec && sec->read);
	ck_assert_str_eq(sec->member, "i_mtime");
	ck_assert_str_eq(sec->field, "tv_sec");
	ck_assert_str_eq(whole->member, "i_mtime");
	ck_assert_ptr_null(whole->field);
	fd = mkstemp(src);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, lines, sizeof(lines) - 1), (int)sizeof(lines) - 1);
	close(fd);
	ck_assert_ptr_eq(ks_migrations_read(&m, "struct inode.i_mtime", src, 1), sec);
	ck_assert_ptr_eq(ks_migrations_read(&m, "struct inode.i_mtime", src, 2), whole);
	ck_assert_ptr_eq(ks_migrations_read(&m, "struct inode.i_mtime", src, 3), whole);
	ck_assert_ptr_eq(ks_migrations_read(&m, "struct inode.i_mtime", src, 5), whole);
	ck_assert_ptr_eq(ks_migrations_read(&m, "struct inode.i_atime", src, 6), nsec);
	ck_assert_ptr_null(ks_migrations_read(&m, "struct inode.i_atime", src, 1));
	ck_assert_ptr_eq(ks_migration_at(&m, whole, src, 1), sec);
	ck_assert_ptr_eq(ks_migration_at(&m, sec, src, 2), whole);
	ck_assert_ptr_eq(ks_migration_at(&m, sec, src, 4), set);
	unlink(src);
	ks_migrations_free(&m);
}
END_TEST

START_TEST(test_target_include)
{
	struct ks_migrations m = { 0 };
	const struct ks_migration *a = ks_migrations_target_include(&m, "struct circ_buf",
								      "linux/circ_buf.h");
	const struct ks_migration *b = ks_migrations_target_include(&m, "MODULE_ALIAS_GENL_FAMILY",
								      "net/genetlink.h");
	const struct ks_rewrite *rw = ks_migration_rewrite(a);

	ck_assert(a->target && a->include && a->call);
	ck_assert_ptr_eq(ks_migrations_target_include(&m, "struct circ_buf", "linux/circ_buf.h"), a);
	ck_assert_ptr_ne(b, a);
	ck_assert_ptr_nonnull(rw);
	ck_assert_int_eq(rw->op, KS_RW_INCLUDE);
	ck_assert_str_eq(rw->text, "linux/circ_buf.h");
	ck_assert_uint_eq(rw->count, 0);
	ck_assert_ptr_null(rw->example);
	ck_assert_ptr_null(ks_migration_example_text(&m, rw));
	/* not an entry of the file's: the file's lookups do not find it */
	ck_assert_ptr_null(ks_migrations_include(&m, "struct circ_buf"));
	ck_assert_uint_eq(m.ntarget, 2);
	ks_migrations_free(&m);
	ck_assert_uint_eq(m.ntarget, 0);
}
END_TEST

static Suite *suite_migrations(void)
{
	Suite *s = suite_create("migrations");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, test_good);
	tcase_add_loop_test(tc, test_bad, 0, KS_NCASES(bad));
	tcase_add_test(tc, test_unreadable);
	tcase_add_test(tc, test_assign_at);
	tcase_add_test(tc, test_argument_at);
	tcase_add_test(tc, test_read_at);
	tcase_add_test(tc, test_target_include);
	suite_add_tcase(s, tc);
	return s;
}
KS_SUITE(suite_migrations)
