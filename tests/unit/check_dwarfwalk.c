/* dwarf/dwarfwalk.c on units written here byte by byte: a unit's
 * children, stepped over by DW_AT_sibling (fixed and ULEB128 forms) or
 * read through, every kind of form on the way, each list checked against
 * libdw's walk of the same unit (oracle.h); the units it refuses. Real
 * objects' units are t-dwarf's and t-dwarf-libdw's. */
#include <dwarf.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/dwarfwalk.h"
#include "bytes.h"
#include "oracle.h"
#include "suites.h"

/* An abbreviation: code, tag, children, then (attribute, form) pairs
 * ended by 0, 0. */
static void abbrev(struct bytes *a, unsigned code, unsigned tag, bool children, const unsigned *spec)
{
	uleb(a, code), uleb(a, tag), u8(a, children ? DW_CHILDREN_yes : DW_CHILDREN_no);
	for (; spec[0] || spec[1]; spec += 2) {
		uleb(a, spec[0]), uleb(a, spec[1]);
		if (spec[1] == DW_FORM_implicit_const)
			u8(a, 0x05); /* its value */
	}
	u8(a, 0), u8(a, 0);
}

enum { CU = 1, STRUCT, MEMBER, FUNC, VAR, BASE, BLOCK, PARAM, ODD };

/* The table: each abbreviation's code, tag, children and (attribute,
 * form) pairs; the last, a typedef, named in odd_form. */
static void abbrevs(struct bytes *a, unsigned odd_form)
{
	static const struct {
		unsigned code, tag;
		bool children;
		unsigned spec[8];
	} rows[] = {
		{ CU, DW_TAG_compile_unit, true, { DW_AT_name, DW_FORM_string } },
		{ STRUCT,
		  DW_TAG_structure_type,
		  true,
		  { DW_AT_name, DW_FORM_string, DW_AT_sibling, DW_FORM_ref4 } },
		{ MEMBER,
		  DW_TAG_member,
		  false,
		  { DW_AT_name, DW_FORM_string, DW_AT_data_member_location, DW_FORM_udata } },
		{ FUNC,
		  DW_TAG_subprogram,
		  true,
		  { DW_AT_name, DW_FORM_strp, DW_AT_low_pc, DW_FORM_addr, DW_AT_high_pc,
		    DW_FORM_data8 } },
		{ VAR,
		  DW_TAG_variable,
		  false,
		  { DW_AT_name, DW_FORM_strp, DW_AT_location, DW_FORM_exprloc } },
		{ BASE,
		  DW_TAG_base_type,
		  false,
		  { DW_AT_byte_size, DW_FORM_data1, DW_AT_encoding, DW_FORM_implicit_const,
		    DW_AT_name, DW_FORM_line_strp } },
		{ BLOCK,
		  DW_TAG_lexical_block,
		  true,
		  { DW_AT_sibling, DW_FORM_ref_udata, DW_AT_ranges, DW_FORM_sec_offset } },
		{ PARAM,
		  DW_TAG_formal_parameter,
		  false,
		  { DW_AT_const_value, DW_FORM_indirect, DW_AT_type, DW_FORM_ref_sig8,
		    DW_AT_description, DW_FORM_block1 } },
	};
	unsigned odd[] = { DW_AT_name, odd_form, 0, 0 };

	a->n = 0;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		abbrev(a, rows[i].code, rows[i].tag, rows[i].children, rows[i].spec);
	abbrev(a, ODD, DW_TAG_typedef, false, odd);
	u8(a, 0);
}

/* Where the unit's top-level DIEs start, and the bytes after the header. */
struct unit {
	struct bytes info;
	size_t top[5];
	size_t ntop;
	size_t cu_die;
};

/* A DWARF version unit: the CU, a struct (skipped by its sibling, past
 * bytes that are no DIE; back_sibling: one that points backwards, which
 * neither reader takes), a function with a parameter and a block
 * (skipped by a ULEB128 sibling) holding a variable, a variable, a base
 * type; odd: a typedef of the odd form. */
static void unit(struct unit *u, unsigned version, bool back_sibling, bool odd)
{
	struct bytes *t = &u->info;
	size_t len_at, sib_at, blk_sib_at;

	t->n = 0;
	u->ntop = 0;
	le(t, 0, 4); /* length: filled in below */
	len_at = 0;
	le(t, version, 2);
	if (version >= 5) {
		u8(t, DW_UT_compile), u8(t, 8), le(t, 0, 4);
	} else {
		le(t, 0, 4), u8(t, 8);
	}
	u->cu_die = t->n;
	uleb(t, CU), str(t, "cu.c");

	u->top[u->ntop++] = t->n;
	uleb(t, STRUCT), str(t, "s");
	sib_at = t->n;
	le(t, 0, 4);
	uleb(t, MEMBER), str(t, "a"), uleb(t, 0);
	uleb(t, MEMBER), str(t, "b"), uleb(t, 300);
	if (!back_sibling)
		u8(t, 0x30); /* not a code: read only if the sibling is not followed */
	u8(t, 0);
	{
		uint32_t sib = back_sibling ? 2 : (uint32_t)t->n; /* unit-relative */

		memcpy(t->b + sib_at, &sib, 4);
	}

	u->top[u->ntop++] = t->n;
	uleb(t, FUNC), le(t, 0x10, 4), le(t, 0x1000, 8), le(t, 0x20, 8);
	uleb(t, PARAM), uleb(t, DW_FORM_sdata), u8(t, 0x7f), le(t, 0x1122334455667788ULL, 8),
		u8(t, 3), u8(t, 1), u8(t, 2), u8(t, 3);
	uleb(t, BLOCK);
	blk_sib_at = t->n;
	u8(t, 0x80), u8(t, 0x00); /* a two-byte ULEB128, filled in below */
	le(t, 0x40, 4);
	uleb(t, VAR), le(t, 0x18, 4), uleb(t, 9), u8(t, DW_OP_addr), le(t, 0x2000, 8);
	u8(t, 0);
	t->b[blk_sib_at] = (unsigned char)(0x80 | (t->n & 0x7f));
	t->b[blk_sib_at + 1] = (unsigned char)(t->n >> 7);
	u8(t, 0); /* the function's children end */

	u->top[u->ntop++] = t->n;
	uleb(t, VAR), le(t, 0x20, 4), uleb(t, 9), u8(t, DW_OP_addr), le(t, 0x3000, 8);
	u->top[u->ntop++] = t->n;
	uleb(t, BASE), u8(t, 4), le(t, 0x8, 4);
	if (odd) {
		u->top[u->ntop++] = t->n;
		uleb(t, ODD), le(t, 0, 8);
	}
	u8(t, 0); /* the unit's children end */
	{
		uint32_t len = (uint32_t)(t->n - 4);

		memcpy(t->b + len_at, &len, 4);
	}
}

static int children(struct unit *u, const struct bytes *a, bool (*want)(unsigned),
		    struct ks_dwarfwalk_die **v, size_t *n)
{
	Elf_Data info = { .d_buf = u->info.b, .d_size = u->info.n };
	Elf_Data ab = { .d_buf = (void *)a->b, .d_size = a->n };
	struct ks_dwarfwalk w;
	int r = ks_dwarfwalk_open(&w, &info, 0, &ab, false);

	*v = NULL;
	*n = 0;
	if (r == 0) {
		r = ks_dwarfwalk_children(&w, u->cu_die, want, v, n);
		ks_dwarfwalk_close(&w);
	}
	return r;
}

static bool any(unsigned tag)
{
	(void)tag;
	return true;
}

static bool fns_vars(unsigned tag)
{
	return tag == DW_TAG_subprogram || tag == DW_TAG_variable;
}

/* The children of the DIE at off that want takes, as libdw walks them:
 * into v (room for max), their number returned. */
static size_t oracle_children(struct unit *u, const struct bytes *a, uint64_t off,
			      bool (*want)(unsigned), struct ks_dwarfwalk_die *v, size_t max)
{
	struct oracle o;
	Dwarf_Die die, c;
	size_t n = 0;

	oracle_open(&o,
		    (const struct oracle_section[]){ { ".debug_info", &u->info },
						     { ".debug_abbrev", a } },
		    2);
	ck_assert_ptr_nonnull(dwarf_offdie(o.dw, off, &die));
	if (dwarf_child(&die, &c) == 0) {
		do {
			if (!want((unsigned)dwarf_tag(&c)))
				continue;
			ck_assert_uint_lt(n, max);
			v[n++] = (struct ks_dwarfwalk_die){ dwarf_dieoffset(&c), (unsigned)dwarf_tag(&c) };
		} while (dwarf_siblingof(&c, &c) == 0);
	}
	oracle_close(&o);
	return n;
}

/* The children of the DIE at off of u that want takes are libdw's; want
 * n of them. */
static void same_children(struct unit *u, const struct bytes *a, uint64_t off,
			  bool (*want)(unsigned), size_t n_want)
{
	Elf_Data info = { .d_buf = u->info.b, .d_size = u->info.n };
	Elf_Data ab = { .d_buf = (void *)a->b, .d_size = a->n };
	struct ks_dwarfwalk_die want_v[8], *v;
	struct ks_dwarfwalk w;
	size_t n, nw = oracle_children(u, a, off, want, want_v, 8);

	ck_assert_uint_eq(nw, n_want); /* the unit is as written */
	ck_assert_int_eq(ks_dwarfwalk_open(&w, &info, 0, &ab, false), 0);
	ck_assert_int_eq(ks_dwarfwalk_children(&w, off, want, &v, &n), 0);
	ck_assert_uint_eq(n, nw);
	for (size_t i = 0; i < n; i++) {
		ck_assert_uint_eq(v[i].off, want_v[i].off);
		ck_assert_uint_eq(v[i].tag, want_v[i].tag);
	}
	free(v);
	ks_dwarfwalk_close(&w);
}

static void expect_top(struct unit *u, const struct bytes *a)
{
	same_children(u, a, u->cu_die, any, 4);
	same_children(u, a, u->cu_die, fns_vars, 2);
}

START_TEST(test_children)
{
	struct unit u;
	struct bytes a;

	abbrevs(&a, DW_FORM_data8);
	unit(&u, 5, false, false);
	expect_top(&u, &a);
	unit(&u, 4, false, false);
	expect_top(&u, &a);
}
END_TEST

/* A function's own children: the parameter and the block, not the
 * block's variable. */
START_TEST(test_nested)
{
	struct unit u;
	struct bytes a;

	abbrevs(&a, DW_FORM_data8);
	unit(&u, 5, false, false);
	same_children(&u, &a, u.top[1], any, 2);
	/* a DIE without children has none */
	same_children(&u, &a, u.top[3], any, 0);
}
END_TEST

/* What it does not read: a form it does not know (the caller walks with
 * libdw), a unit cut short, an abbreviation code not in the table, a
 * version it does not know, a sibling that points backwards. */
START_TEST(test_refused)
{
	struct unit u;
	struct bytes a;
	struct ks_dwarfwalk_die *v;
	size_t n;

	abbrevs(&a, 0x7f);
	unit(&u, 5, false, true);
	ck_assert_int_eq(children(&u, &a, any, &v, &n), -EINVAL);
	ck_assert_ptr_null(v);
	ck_assert_uint_eq(n, 0);

	abbrevs(&a, DW_FORM_data8);
	unit(&u, 5, false, true);
	same_children(&u, &a, u.cu_die, any, 5);
	u.info.n -= 4; /* the unit's length now runs past its bytes */
	ck_assert_int_eq(children(&u, &a, any, &v, &n), -EINVAL);

	unit(&u, 5, false, false);
	u.info.b[u.top[3]] = 0x30; /* a code the table does not have */
	ck_assert_int_eq(children(&u, &a, any, &v, &n), -EINVAL);

	unit(&u, 6, false, false);
	ck_assert_int_eq(children(&u, &a, any, &v, &n), -EINVAL);

	/* a sibling that points backwards, which libdw calls invalid too */
	unit(&u, 5, true, false);
	ck_assert_int_eq(children(&u, &a, any, &v, &n), -EINVAL);
}
END_TEST

Suite *suite_dwarfwalk(void)
{
	Suite *s = suite_create("dwarfwalk");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_children);
	tcase_add_test(tc, test_nested);
	tcase_add_test(tc, test_refused);
	suite_add_tcase(s, tc);
	return s;
}
