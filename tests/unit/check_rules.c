/* The rules, each row of the table, on modules made by hand: who is
 * concerned by which action, and the severity for each date and option. */
#include <stdlib.h>
#include <string.h>

#include "forecast/forecast.h"
#include "module/policy.h"
#include "rules/rules.h"
#include "rules/target.h"
#include "suites.h"

static const char *sched_text =
	"What: gone_soon\nWhen: 2026-12-20\n\n"
	"What: gone_later\nWhen: 2027-09-01\nReplace: new_api\n\n"
	"What: gone_past\nWhen: 2026-06-01\n\n"
	"What: to_gpl\nWhen: v6.20\nAction: gpl-only\n\n"
	"What: to_ns\nWhen: 2027-12-01\nAction: namespace RTC\n\n"
	"What: gpl_sched\nWhen: 2027-09-01\nAction: gpl-only\nReplace: new_api\n";

static const char *symvers_text = "0x1\tgone_soon\tvmlinux\tEXPORT_SYMBOL\t\n"
				  "0x1\tgone_past\tvmlinux\tEXPORT_SYMBOL\t\n"
				  "0x1\tto_gpl\tvmlinux\tEXPORT_SYMBOL\t\n"
				  "0x1\tto_ns\tvmlinux\tEXPORT_SYMBOL\t\n"
				  "0x1\tnow_gpl\tvmlinux\tEXPORT_SYMBOL_GPL\t\n"
				  "0x1\tgpl_sched\tvmlinux\tEXPORT_SYMBOL_GPL\t\n"
				  "0x1\tnow_ns\tvmlinux\tEXPORT_SYMBOL\tFOO\n"
				  "0x1\tgone_later_ns\tvmlinux\tEXPORT_SYMBOL_GPL\tFOO\n";

struct fixture {
	struct ks_schedule sched;
	struct ks_symvers sv;
	char *svtext;
	struct ks_check c;
};

static void setup(struct fixture *f, bool with_symvers)
{
	struct ks_diags d = { 0 };

	memset(f, 0, sizeof(*f));
	ck_assert_int_eq(ks_schedule_parse(&f->sched, "t", sched_text, strlen(sched_text), &d), 0);
	f->svtext = strdup(symvers_text);
	ck_assert_int_eq(ks_symvers_parse(&f->sv, "sv", f->svtext, strlen(f->svtext), &d), 0);
	f->c.sched = &f->sched;
	f->c.symvers = with_symvers ? &f->sv : NULL;
	f->c.opts.within = -1;
	ck_assert_int_eq(ks_date_parse("2026-12-03", &f->c.opts.today), 0);
}

static void teardown(struct fixture *f)
{
	ks_findings_free(&f->c.found);
	ks_schedule_free(&f->sched);
	ks_symvers_free(&f->sv);
	free(f->svtext);
}

static char *undef_all[] = { "gone_later", "gone_past", "gone_soon", "printk", "to_gpl", "to_ns" };

static struct ks_module module(const char *license, char **ns, size_t nns)
{
	struct ks_module m = { .path = "m.ko", .name = "m", .license = (char *)license,
			       .gpl_compatible = ks_license_gpl_compatible(license),
			       .vermagic = "6.1.0-57-amd64 SMP", .import_ns = ns,
			       .nimport_ns = nns, .undef = undef_all, .nundef = KS_NCASES(undef_all) };
	return m;
}

static const struct ks_finding *find(const struct ks_check *c, const char *sym)
{
	for (size_t i = 0; i < c->found.n; i++)
		if (strcmp(c->found.v[i].symbol, sym) == 0)
			return &c->found.v[i];
	return NULL;
}

START_TEST(test_gpl_module)
{
	struct fixture f;
	char *ns[] = { "RTC" };
	struct ks_module m = module("GPL", ns, 1);

	setup(&f, false);
	ks_check_module(&f.c, &m);
	ck_assert_uint_eq(f.c.found.n, 3);	/* spared gpl-only and namespace */
	ck_assert_ptr_null(find(&f.c, "to_gpl"));
	ck_assert_ptr_null(find(&f.c, "to_ns"));
	ck_assert_str_eq(find(&f.c, "gone_past")->rule->id, "ksunset/overdue");
	ck_assert_int_eq(find(&f.c, "gone_past")->sev, KS_ERROR);
	ck_assert_int_eq(find(&f.c, "gone_past")->ev.days_left, -185);
	ck_assert_str_eq(find(&f.c, "gone_soon")->rule->id, "ksunset/scheduled");
	ck_assert_int_eq(find(&f.c, "gone_later")->sev, KS_WARNING);
	teardown(&f);
}
END_TEST

START_TEST(test_proprietary_module)
{
	struct fixture f;
	struct ks_module m = module("Proprietary", NULL, 0);
	const struct ks_finding *g;

	setup(&f, false);
	ks_check_module(&f.c, &m);
	ck_assert_uint_eq(f.c.found.n, 5);
	g = find(&f.c, "to_gpl");
	ck_assert_int_eq(g->sev, KS_WARNING);	/* 6.1 has not reached 6.20 */
	ck_assert(!g->ev.have_days);
	ck_assert_str_eq(g->target, "6.1.0-57-amd64");
	ck_assert_str_eq(find(&f.c, "to_ns")->rule->id, "ksunset/scheduled");
	teardown(&f);
}
END_TEST

static const struct {
	bool strict;
	long within;
	const char *release;
	const char *sym;
	const char *rule;
	enum ks_severity sev;
} grade_cases[] = {
	{ false, -1, NULL, "gone_soon", "ksunset/scheduled", KS_WARNING },
	{ true, -1, NULL, "gone_soon", "ksunset/scheduled", KS_ERROR },
	{ false, 17, NULL, "gone_soon", "ksunset/due-soon", KS_ERROR },
	{ false, 16, NULL, "gone_soon", "ksunset/scheduled", KS_WARNING },
	{ false, 30, NULL, "gone_later", "ksunset/scheduled", KS_WARNING },
	{ false, -1, "6.20-rc1", "to_gpl", "ksunset/overdue", KS_ERROR },
	{ false, -1, "6.19.9", "to_gpl", "ksunset/scheduled", KS_WARNING },
};

START_TEST(test_grades)
{
	struct fixture f;
	struct ks_module m = module(NULL, NULL, 0);
	const struct ks_finding *g;

	setup(&f, false);
	f.c.opts.strict = grade_cases[_i].strict;
	f.c.opts.within = grade_cases[_i].within;
	f.c.opts.kernel_release = grade_cases[_i].release;
	ks_check_module(&f.c, &m);
	g = find(&f.c, grade_cases[_i].sym);
	ck_assert_ptr_nonnull(g);
	ck_assert_msg(strcmp(g->rule->id, grade_cases[_i].rule) == 0, "case %d: rule %s", _i, g->rule->id);
	ck_assert_int_eq(g->sev, grade_cases[_i].sev);
	teardown(&f);
}
END_TEST

START_TEST(test_removed)
{
	struct fixture f;
	struct ks_module m = module("GPL", NULL, 0);
	const struct ks_finding *g;

	setup(&f, true);
	ks_check_module(&f.c, &m);
	g = find(&f.c, "gone_later");	/* not in Module.symvers */
	ck_assert_str_eq(g->rule->status, "removed");
	ck_assert_str_eq(g->rule->id, "ksunset/removed");
	ck_assert_int_eq(g->sev, KS_ERROR);
	ck_assert_str_ne(find(&f.c, "gone_soon")->rule->id, "ksunset/removed");
	teardown(&f);
}
END_TEST

/* Module.symvers first: an export that is already GPL-only or in a
 * namespace stops the module loading, scheduled or not. */
static char *undef_now[] = { "gone_soon", "gpl_sched", "now_gpl", "now_ns", "printk" };

START_TEST(test_symvers_now)
{
	struct fixture f;
	struct ks_module m = module("Proprietary", NULL, 0);
	const struct ks_finding *g;
	char *msg;

	m.undef = undef_now;
	m.nundef = KS_NCASES(undef_now);
	setup(&f, true);
	ks_check_module(&f.c, &m);
	ck_assert_uint_eq(f.c.found.n, 4);	/* not printk: neither scheduled nor exported */
	g = find(&f.c, "now_gpl");		/* not scheduled */
	ck_assert_str_eq(g->rule->id, "ksunset/gpl-only-now");
	ck_assert_str_eq(g->rule->status, "gpl-only-now");
	ck_assert_int_eq(g->sev, KS_ERROR);
	ck_assert(!g->rule->baseline_accepts);
	ck_assert_ptr_null(g->entry);
	msg = ks_finding_message(g);
	ck_assert_str_eq(msg, "is GPL-only in the kernel's Module.symvers and module license "
			      "'Proprietary' is not GPL-compatible: the module will not load");
	free(msg);
	g = find(&f.c, "gpl_sched");		/* scheduled to become what it is */
	ck_assert_str_eq(g->rule->id, "ksunset/gpl-only-now");
	ck_assert_ptr_nonnull(g->entry);
	msg = ks_finding_message(g);
	ck_assert_str_eq(msg, "is GPL-only in the kernel's Module.symvers and module license "
			      "'Proprietary' is not GPL-compatible: the module will not load; "
			      "use 'new_api' instead");
	free(msg);
	g = find(&f.c, "now_ns");
	ck_assert_str_eq(g->rule->id, "ksunset/namespace-now");
	ck_assert_str_eq(g->rule->status, "namespace-now");
	ck_assert_int_eq(g->sev, KS_ERROR);
	ck_assert(!g->rule->baseline_accepts);
	msg = ks_finding_message(g);
	ck_assert_str_eq(msg, "is in namespace FOO in the kernel's Module.symvers: add "
			      "MODULE_IMPORT_NS(FOO), or the module will not load");
	free(msg);
	ck_assert_str_eq(find(&f.c, "gone_soon")->rule->id, "ksunset/scheduled");
	teardown(&f);
}
END_TEST

/* A GPL module that imports the namespace: nothing from Module.symvers;
 * the schedule decides alone. */
START_TEST(test_symvers_allowed)
{
	struct fixture f;
	char *ns[] = { "FOO" };
	struct ks_module m = module("GPL v2", ns, 1);

	m.undef = undef_now;
	m.nundef = KS_NCASES(undef_now);
	setup(&f, true);
	ks_check_module(&f.c, &m);
	ck_assert_uint_eq(f.c.found.n, 1);
	ck_assert_str_eq(find(&f.c, "gone_soon")->rule->id, "ksunset/scheduled");
	teardown(&f);
}
END_TEST

/* GPL-only and in a namespace: the first row (GPL-only) words it; once
 * the license is GPL, the namespace row. */
START_TEST(test_symvers_order)
{
	struct fixture f;
	char *undef[] = { "gone_later_ns" };
	struct ks_module m = module(NULL, NULL, 0);

	m.undef = undef;
	m.nundef = 1;
	setup(&f, true);
	ks_check_module(&f.c, &m);
	ck_assert_str_eq(find(&f.c, "gone_later_ns")->rule->id, "ksunset/gpl-only-now");
	ks_findings_free(&f.c.found);
	m.license = "GPL";
	m.gpl_compatible = true;
	ks_check_module(&f.c, &m);
	ck_assert_str_eq(find(&f.c, "gone_later_ns")->rule->id, "ksunset/namespace-now");
	teardown(&f);
}
END_TEST

START_TEST(test_locations)
{
	struct fixture f;
	struct ks_module m = module("GPL", NULL, 0);
#define USE(s, f, l, c, fn, src)                                                               \
	{ .symbol = s, .kind = KS_USE_CALL, .file = f, .line = l, .col = c, .function = fn,     \
	  .source = src }
	struct ks_use uses[] = {
		USE("gone_soon", "b.c", 9, 2, "g", KS_SOURCE_PLUGIN),
		USE("gone_soon", "a.c", 30, 5, "f", KS_SOURCE_PLUGIN),
		USE("gone_soon", "a.c", 12, 5, "f", KS_SOURCE_PLUGIN),
		USE("gone_soon", "a.c", 12, 5, "f", KS_SOURCE_PLUGIN),	/* twice */
		USE("not_imported", "a.c", 1, 1, "f", KS_SOURCE_PLUGIN),
		/* DWARF, in data: the initializer travels with the location */
		{ .symbol = "gone_soon", .kind = KS_USE_ADDR, .file = "c.c", .line = 8, .col = 37,
		  .function = "", .source = KS_SOURCE_DWARF, .var = "fops", .member = ".open" },
	};
#undef USE
	const struct ks_finding *g;

	m.uses = (struct ks_uses){ .v = uses, .n = KS_NCASES(uses) };
	setup(&f, false);
	ks_check_module(&f.c, &m);
	ck_assert_ptr_null(find(&f.c, "not_imported"));
	g = find(&f.c, "gone_soon");
	ck_assert_uint_eq(g->nlocs, 4);
	ck_assert_str_eq(g->locs[0].file, "a.c");
	ck_assert_uint_eq(g->locs[0].line, 12);
	ck_assert_ptr_null(g->locs[0].var);
	ck_assert_uint_eq(g->locs[1].line, 30);
	ck_assert_str_eq(g->locs[2].file, "b.c");
	ck_assert_int_eq(g->locs[3].source, KS_SOURCE_DWARF);
	ck_assert_str_eq(g->locs[3].var, "fops");
	ck_assert_str_eq(g->locs[3].member, ".open");
	ck_assert_uint_eq(find(&f.c, "gone_past")->nlocs, 0);
	teardown(&f);
}
END_TEST

/* KSUNSET_ACCEPT in the source accepts a use whose rule a baseline could
 * accept (scheduled, due soon), never an overdue use or one of a symbol
 * Module.symvers no longer has; the reason stays with the use either way. */
static const struct {
	const char *sym;
	bool symvers;
	const char *rule;
	bool accepted;
} accept_cases[] = {
	{ "gone_later", false, "ksunset/scheduled", true },
	{ "gone_soon", false, "ksunset/due-soon", true },
	{ "gone_past", false, "ksunset/overdue", false },
	{ "gone_later", true, "ksunset/removed", false },
};

START_TEST(test_accepted_in_source)
{
	struct fixture f;
	struct ks_module m = module("GPL", NULL, 0);
	const char *sym = accept_cases[_i].sym;
	struct ks_use uses[] = {
		{ (char *)sym, KS_USE_CALL, "a.c", 12, 5, "f", KS_SOURCE_PLUGIN, .accept_reason = "known" },
		{ (char *)sym, KS_USE_CALL, "a.c", 20, 5, "g", KS_SOURCE_PLUGIN, .accept_reason = NULL },
	};
	const struct ks_finding *g;

	m.uses = (struct ks_uses){ .v = uses, .n = KS_NCASES(uses) };
	setup(&f, accept_cases[_i].symvers);
	f.c.opts.within = 30;
	ks_check_module(&f.c, &m);
	g = find(&f.c, sym);
	ck_assert_msg(g && !strcmp(g->rule->id, accept_cases[_i].rule), "case %d: rule %s", _i,
		      g ? g->rule->id : "(none)");
	ck_assert_uint_eq(g->nlocs, 2);
	ck_assert_str_eq(g->locs[0].accept_reason, "known");
	ck_assert_ptr_null(g->locs[1].accept_reason);
	ck_assert_msg(ks_loc_accepted_in_source(g, &g->locs[0]) == accept_cases[_i].accepted,
		      "case %d (%s, %s)", _i, sym, accept_cases[_i].rule);
	ck_assert(ks_loc_accepted(g, &g->locs[0]) == accept_cases[_i].accepted);
	ck_assert(!ks_loc_accepted(g, &g->locs[1]));
	ck_assert(!ks_finding_accepted(g));	/* g's use is not accepted */
	teardown(&f);
	/* with the second use gone, the finding counts for nothing */
	m.uses.n = 1;
	setup(&f, accept_cases[_i].symvers);
	f.c.opts.within = 30;
	ks_check_module(&f.c, &m);
	ck_assert(ks_finding_accepted(find(&f.c, sym)) == accept_cases[_i].accepted);
	teardown(&f);
}
END_TEST

START_TEST(test_sort)
{
	struct fixture f;
	struct ks_module b = module("GPL", NULL, 0), a = module("GPL", NULL, 0);

	b.path = "b.ko";
	a.path = "a.ko";
	setup(&f, false);
	ks_check_module(&f.c, &b);
	ks_check_module(&f.c, &a);
	ks_findings_sort(&f.c.found);
	ck_assert_str_eq(f.c.found.v[0].module, "a.ko");
	ck_assert_str_eq(f.c.found.v[0].symbol, "gone_later");
	ck_assert_str_eq(f.c.found.v[1].symbol, "gone_past");
	ck_assert_str_eq(f.c.found.v[f.c.found.n - 1].module, "b.ko");
	teardown(&f);
}
END_TEST

/* --target with no schedule: each import against the target's exports,
 * for a proprietary module named "kvm_amd" that imports namespace FOO. */
START_TEST(test_target)
{
	static const char *target_text = "0x0\tprintk\tvmlinux\tEXPORT_SYMBOL\t\n"
					 "0x0\tnow_gpl\tvmlinux\tEXPORT_SYMBOL_GPL\t\n"
					 "0x0\tin_foo\tvmlinux\tEXPORT_SYMBOL\tFOO\n"
					 "0x0\tin_bar\tvmlinux\tEXPORT_SYMBOL\tBAR\n"
					 "0x0\tfor_kvm\tvmlinux\tEXPORT_SYMBOL\tmodule:kvm-*\n"
					 "0x0\tfor_other\tvmlinux\tEXPORT_SYMBOL\tmodule:kvm\n";
	static const struct {
		const char *sym, *status;	/* status NULL: no finding */
	} want[] = {
		{ "printk", NULL },		  { "now_gpl", "gpl-only" },
		{ "in_foo", NULL },		  { "in_bar", "namespace" },
		{ "for_kvm", NULL },		  { "for_other", "namespace" },
		{ "gone", "missing" },		  { "_GLOBAL_OFFSET_TABLE_", NULL },
	};
	char *undef[KS_NCASES(want)], *ns[] = { "FOO" };
	struct ks_schedule none = KS_SCHEDULE_INIT;
	struct ks_target t = { 0 };
	struct ks_diags d = { 0 };
	struct ks_check c = { .sched = &none, .target = &t, .opts.within = -1 };
	char *text = strdup(target_text);
	struct ks_module m = module("Proprietary", ns, 1);

	ck_assert_int_eq(ks_symvers_parse(&t.k.sv, "t", text, strlen(text), &d), 0);
	c.symvers = &t.k.sv;
	for (int i = 0; i < KS_NCASES(want); i++)
		undef[i] = (char *)want[i].sym;
	m.name = "kvm_amd";
	m.undef = undef;
	m.nundef = KS_NCASES(want);
	ks_check_module(&c, &m);
	for (int i = 0; i < KS_NCASES(want); i++) {
		const struct ks_finding *fd = find(&c, want[i].sym);

		ck_assert_msg(!fd == !want[i].status, "%s: finding %p", want[i].sym, (void *)fd);
		if (!fd)
			continue;
		ck_assert_str_eq(fd->rule->target_status, want[i].status);
		ck_assert_int_eq(fd->sev, KS_ERROR);
		/* no headers, no location: only the verdict is certain; a
		 * namespace the target's headers may import for the module
		 * (not a "module:" list) is a remedy no one can tell */
		ck_assert_int_eq(fd->remedy, !strcmp(want[i].status, "missing") ||
						     !strcmp(want[i].sym, "in_bar")
						     ? KS_REMEDY_UNKNOWN
						     : KS_REMEDY_SOURCE_CHANGE);
	}
	ks_findings_free(&c.found);
	ks_target_free(&t);
	free(text);
}
END_TEST

/* Each kind of break's message (breaks.def's wording), with every field
 * it may show known, and with the optional ones unknown. */
static const struct {
	enum ks_break kind;
	const char *old, *now, *header, *callback, *want;
} break_cases[] = {
	{ KS_BREAK_GONE, "void(void)", "void(void)", NULL, NULL,
	  "declared, but no longer exported there" },
	{ KS_BREAK_GONE, "void(void)", "", NULL, NULL, "declared nowhere in its headers" },
	{ KS_BREAK_NOT_INCLUDED, "", "", "linux/vmalloc.h", NULL,
	  "not declared by the headers the source includes; <linux/vmalloc.h> declares it" },
	{ KS_BREAK_NOT_INCLUDED, "", "", NULL, NULL,
	  "not declared by the headers the source includes" },
	{ KS_BREAK_HEADER_GONE, "", "", "linux/unaligned.h", NULL,
	  "no such header there; <linux/unaligned.h> has its name" },
	{ KS_BREAK_HEADER_GONE, "", "", NULL, NULL, "no such header there" },
	{ KS_BREAK_ARITY, "(name)", "(_name, _n)", NULL, NULL,
	  "takes other arguments: 'x(name)' where the module was built, 'x(_name, _n)' there" },
	{ KS_BREAK_ARITY, "(name)", "", NULL, NULL,
	  "takes other arguments: 'x(name)' where the module was built" },
	{ KS_BREAK_PROTOTYPE, "", "void(int)", NULL, NULL,
	  "the call does not compile against its prototype: 'void(int)' there" },
	{ KS_BREAK_PROTOTYPE, "", "", NULL, NULL, "the call does not compile against its prototype" },
	{ KS_BREAK_MEMBER_GONE, "int", "", NULL, NULL, "no such member there" },
	{ KS_BREAK_MEMBER_TYPE, "int", "long int", NULL, NULL,
	  "its use does not compile against its type: 'int' where the module was built, "
	  "'long int' there" },
	{ KS_BREAK_CALLBACK_PROTOTYPE, "int (*)(void)", "void (*)(void)", NULL, "my_remove",
	  "'my_remove' of the module is 'int (*)(void)', the member 'void (*)(void)' there" },
	{ KS_BREAK_INCOMPLETE, "", "", NULL, NULL, "incomplete with the headers the source includes" },
	{ KS_BREAK_INCOMPLETE, "", "", "linux/circ_buf.h", NULL,
	  "incomplete with the headers the source includes; <linux/circ_buf.h> defines it" },
	{ KS_BREAK_CLASH, "", "void(void)", NULL, NULL,
	  "the module defines it static, and a header there declares it ('void(void)')" },
	{ KS_BREAK_READ_ONLY, "vm_flags_t", "const vm_flags_t", NULL, NULL,
	  "read-only there ('const vm_flags_t'): it can no longer be assigned" },
};

START_TEST(test_break_wording)
{
	struct ks_diff d = { .kind = break_cases[_i].kind, .name = (char *)"x",
			     .old = (char *)break_cases[_i].old, .now = (char *)break_cases[_i].now,
			     .header = (char *)break_cases[_i].header,
			     .callback = (char *)break_cases[_i].callback };
	struct ks_finding f = { .diff = &d, .target = (char *)"6.12" };
	struct ks_buf b = KS_BUF_INIT;
	char *want = ks_strdupf("does not build on the target kernel 6.12 (%s): %s",
				ks_break_name(d.kind), break_cases[_i].want);

	ks_build_word(&b, &f);
	ck_assert_msg(!strcmp(b.p, want), "case %d: '%s', want '%s'", _i, b.p, want);
	ks_buf_free(&b);
	free(want);
}
END_TEST

/* Every kind has its rule row, named after it, and is worded. */
START_TEST(test_break_rows)
{
	for (int k = 0; k < KS_NBREAKS; k++) {
		char *id = ks_strdupf("ksunset/build-%s", ks_break_name((enum ks_break)k));
		bool row = false, worded = false;

		for (size_t i = 0; i < ks_nrules; i++)
			row |= !strcmp(ks_rules[i].id, id) && ks_rules[i].sarif_full;
		for (size_t i = 0; i < KS_NCASES(break_cases); i++)
			worded |= break_cases[i].kind == (enum ks_break)k;
		ck_assert_msg(row, "kind %d (%s): no rule row", k, id);
		ck_assert_msg(worded, "kind %d (%s): no wording case", k, id);
		free(id);
	}
}
END_TEST

static Suite *suite_rules(void)
{
	Suite *s = suite_create("rules");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, test_gpl_module);
	tcase_add_test(tc, test_proprietary_module);
	tcase_add_loop_test(tc, test_grades, 0, KS_NCASES(grade_cases));
	tcase_add_test(tc, test_removed);
	tcase_add_test(tc, test_symvers_now);
	tcase_add_test(tc, test_symvers_allowed);
	tcase_add_test(tc, test_symvers_order);
	tcase_add_test(tc, test_locations);
	tcase_add_loop_test(tc, test_accepted_in_source, 0, KS_NCASES(accept_cases));
	tcase_add_test(tc, test_sort);
	tcase_add_test(tc, test_target);
	tcase_add_loop_test(tc, test_break_wording, 0, KS_NCASES(break_cases));
	tcase_add_test(tc, test_break_rows);
	suite_add_tcase(s, tc);
	return s;
}
KS_SUITE(suite_rules)
