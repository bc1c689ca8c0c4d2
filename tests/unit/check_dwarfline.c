/* dwarf/dwarfline.c on line tables written here byte by byte: the row
 * libdw's dwarf_getsrc_die() would give for an address (an end of
 * sequence sorts before a row at the same address; the last row of all
 * ends a sequence), file names joined as dwarf_filesrc() gives them, and
 * the tables it leaves to libdw. Real objects' tables are t-dwarf's. */
#include <dwarf.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "dwarf/dwarfline.h"
#include "bytes.h"
#include "suites.h"

/* The opcodes the programs here use. */
static void set_address(struct bytes *t, uint64_t a)
{
	u8(t, 0), uleb(t, 9), u8(t, DW_LNE_set_address), le(t, a, 8);
}

static void end_sequence(struct bytes *t)
{
	u8(t, 0), uleb(t, 1), u8(t, DW_LNE_end_sequence);
}

static void copy(struct bytes *t)
{
	u8(t, DW_LNS_copy);
}

static void advance(struct bytes *t, unsigned pc, int line)
{
	if (pc)
		u8(t, DW_LNS_advance_pc), uleb(t, pc);
	if (line)
		u8(t, DW_LNS_advance_line), sleb(t, line);
}

/* The fields every version shares after header_length; opcode_base 13. */
static void fixed_fields(struct bytes *h)
{
	static const unsigned char lengths[12] = { 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1 };

	u8(h, 1), u8(h, 1), u8(h, 1); /* min_inst, max_ops, default_is_stmt */
	u8(h, (unsigned char)-5), u8(h, 14), u8(h, 13);
	put(h, lengths, sizeof(lengths));
}

/* A whole table: unit length, version, (v5: sizes,) header length. */
static void table(struct bytes *out, unsigned version, const struct bytes *head,
		  const struct bytes *prog)
{
	struct bytes t = { .n = 0 };

	le(&t, version, 2);
	if (version >= 5)
		u8(&t, 8), u8(&t, 0);
	le(&t, head->n, 4);
	put(&t, head->b, head->n);
	put(&t, prog->b, prog->n);
	out->n = 0;
	le(out, t.n, 4);
	put(out, t.b, t.n);
}

/* DWARF 4: directory "inc"; files a.c (the unit's directory), b.h (inc),
 * /abs/c.h. */
static void head4(struct bytes *h)
{
	h->n = 0;
	fixed_fields(h);
	str(h, "inc"), u8(h, 0);
	str(h, "a.c"), uleb(h, 0), uleb(h, 0), uleb(h, 0);
	str(h, "b.h"), uleb(h, 1), uleb(h, 0), uleb(h, 0);
	str(h, "/abs/c.h"), uleb(h, 1), uleb(h, 0), uleb(h, 0);
	u8(h, 0);
}

/* Two sequences: rows at 0x1000 (line 1), 0x1004 (3), 0x1008 (file 2,
 * line 3), ending at 0x100c; then one starting at 0x100c (line 10),
 * ending at 0x1014. */
static void prog_two(struct bytes *p)
{
	p->n = 0;
	set_address(p, 0x1000), copy(p);
	advance(p, 4, 2), copy(p);
	u8(p, DW_LNS_set_file), uleb(p, 2), advance(p, 4, 0), copy(p);
	advance(p, 4, 0), end_sequence(p);
	set_address(p, 0x100c), advance(p, 0, 9), copy(p);
	advance(p, 8, 0), end_sequence(p);
}

/* The row for one pc: 1 found, 0 none, or what ks_dwarfline_find_all()
 * returned. */
static int find_one(struct ks_dwarfline *l, uint64_t pc, struct ks_dwarfline_row *row)
{
	int found = 0, r = ks_dwarfline_find_all(l, &pc, 1, row, &found);

	return r < 0 ? r : found;
}

static int read_table(struct ks_dwarfline *l, const struct bytes *t, const char *comp_dir)
{
	Elf_Data line = { .d_buf = (void *)t->b, .d_size = t->n };
	struct ks_dwarfline_src src = { .line = &line };

	return ks_dwarfline_read(l, &src, 0, comp_dir, 8);
}

/* The DWARF 4 table of head4() and prog_two(), written into t (which l
 * reads from until freed) and read with comp_dir as the unit's
 * directory. */
static void read_two(struct ks_dwarfline *l, struct bytes *t, const char *comp_dir)
{
	struct bytes h, p;

	head4(&h);
	prog_two(&p);
	table(t, 4, &h, &p);
	ck_assert_int_eq(read_table(l, t, comp_dir), 0);
}

START_TEST(test_rows)
{
	static const struct {
		uint64_t pc;
		int found;
		unsigned file;
		int line;
	} cases[] = {
		{ 0xfff, 0, 0, 0 },
		{ 0x1000, 1, 1, 1 },
		{ 0x1003, 1, 1, 1 },
		{ 0x1004, 1, 1, 3 },
		{ 0x1008, 1, 2, 3 },
		{ 0x100b, 1, 2, 3 },
		/* the row starting the next sequence, after the end at 0x100c */
		{ 0x100c, 1, 1, 10 },
		{ 0x1013, 1, 1, 10 },
		/* the end of a sequence */
		{ 0x1014, 0, 0, 0 },
		{ 0x9000, 0, 0, 0 },
	};
	struct ks_dwarfline l, one;
	struct bytes t, t1;
	size_t n = sizeof(cases) / sizeof(cases[0]);
	uint64_t pcs[sizeof(cases) / sizeof(cases[0])];
	struct ks_dwarfline_row rows[sizeof(cases) / sizeof(cases[0])];
	int found[sizeof(cases) / sizeof(cases[0])];

	/* every pc asked of one table, one at a time; each of a table of its
	 * own, first; all of them at once, in reverse order */
	read_two(&l, &t, "/comp");
	for (size_t i = 0; i < 3 * n; i++) {
		struct ks_dwarfline_row row = { 0 };
		size_t k = i % n;
		int r;

		if (i < n) {
			r = find_one(&l, cases[k].pc, &row);
		} else if (i < 2 * n) {
			read_two(&one, &t1, "/comp");
			r = find_one(&one, cases[k].pc, &row);
			ks_dwarfline_free(&one);
		} else {
			if (k == 0) {
				for (size_t j = 0; j < n; j++)
					pcs[j] = cases[n - 1 - j].pc;
				memset(found, 0xff, sizeof(found));
				ck_assert_int_eq(ks_dwarfline_find_all(&l, pcs, n, rows, found), 0);
			}
			r = found[n - 1 - k];
			row = rows[n - 1 - k];
		}
		ck_assert_msg(r == cases[k].found, "pc %#llx: %d", (unsigned long long)cases[k].pc,
			      r);
		if (r == 1)
			ck_assert_msg(row.file == cases[k].file && row.line == cases[k].line,
				      "pc %#llx: file %u line %d", (unsigned long long)cases[k].pc,
				      row.file, row.line);
	}
	ks_dwarfline_free(&l);
}
END_TEST

START_TEST(test_files4)
{
	struct ks_dwarfline l;
	struct bytes t;

	read_two(&l, &t, "/comp");
	ck_assert_str_eq(ks_dwarfline_file(&l, 0), "???");
	ck_assert_str_eq(ks_dwarfline_file(&l, 1), "/comp/a.c");
	ck_assert_str_eq(ks_dwarfline_file(&l, 2), "inc/b.h");
	ck_assert_str_eq(ks_dwarfline_file(&l, 3), "/abs/c.h");
	ck_assert_ptr_null(ks_dwarfline_file(&l, 4));
	ks_dwarfline_free(&l);
	/* no DW_AT_comp_dir: the name stays relative */
	read_two(&l, &t, NULL);
	ck_assert_str_eq(ks_dwarfline_file(&l, 1), "a.c");
	ks_dwarfline_free(&l);
}
END_TEST

/* DWARF 5: directories and files by entry formats, file 0 the unit's,
 * an MD5 (DW_FORM_data16) skipped. */
START_TEST(test_files5)
{
	static const unsigned char md5[16] = { 1, 2, 3 };
	struct bytes h = { .n = 0 }, p, t;
	struct ks_dwarfline l;
	struct ks_dwarfline_row row;

	fixed_fields(&h);
	u8(&h, 1), uleb(&h, DW_LNCT_path), uleb(&h, DW_FORM_string);
	uleb(&h, 2), str(&h, "/comp"), str(&h, "inc");
	u8(&h, 3), uleb(&h, DW_LNCT_path), uleb(&h, DW_FORM_string);
	uleb(&h, DW_LNCT_directory_index), uleb(&h, DW_FORM_udata);
	uleb(&h, DW_LNCT_MD5), uleb(&h, DW_FORM_data16);
	uleb(&h, 2);
	str(&h, "a.c"), uleb(&h, 0), put(&h, md5, sizeof(md5));
	str(&h, "b.h"), uleb(&h, 1), put(&h, md5, sizeof(md5));
	prog_two(&p);
	table(&t, 5, &h, &p);
	ck_assert_int_eq(read_table(&l, &t, "/ignored"), 0);
	ck_assert_str_eq(ks_dwarfline_file(&l, 0), "/comp/a.c");
	ck_assert_str_eq(ks_dwarfline_file(&l, 1), "inc/b.h");
	ck_assert_int_eq(find_one(&l, 0x1008, &row), 1);
	ck_assert_uint_eq(row.file, 2);
	ks_dwarfline_free(&l);
}
END_TEST

/* A program without an end of sequence: libdw takes its last row to end
 * one. */
START_TEST(test_last_row)
{
	struct bytes h, p = { .n = 0 }, t;
	struct ks_dwarfline l;
	struct ks_dwarfline_row row;

	head4(&h);
	set_address(&p, 0x2000), advance(&p, 0, 4), copy(&p);
	advance(&p, 4, 1), copy(&p);
	table(&t, 4, &h, &p);
	ck_assert_int_eq(read_table(&l, &t, "/comp"), 0);
	ck_assert_int_eq(find_one(&l, 0x2000, &row), 1);
	ck_assert_int_eq(row.line, 5);
	ck_assert_int_eq(find_one(&l, 0x2004, &row), 0);
	ks_dwarfline_free(&l);
}
END_TEST

/* A table whose program libdw would refuse: read, then refused by the
 * check and by the first find, each on a table of its own. */
static void refused_program(const struct bytes *t)
{
	struct ks_dwarfline l;
	struct ks_dwarfline_row row;

	ck_assert_int_eq(read_table(&l, t, "/comp"), 0);
	ck_assert_int_eq(ks_dwarfline_check(&l), -EINVAL);
	ks_dwarfline_free(&l);
	ck_assert_int_eq(read_table(&l, t, "/comp"), 0);
	ck_assert_int_eq(find_one(&l, 0x1000, &row), -EINVAL);
	ks_dwarfline_free(&l);
}

/* Tables left to libdw: files named in the program, a program cut short,
 * a header longer than the table, a column libdw cannot hold. */
START_TEST(test_refused)
{
	struct bytes h, p, t;
	struct ks_dwarfline l;

	head4(&h);
	prog_two(&p);
	u8(&p, 0), uleb(&p, 8), u8(&p, DW_LNE_define_file), str(&p, "x.c"), u8(&p, 0), u8(&p, 0),
		u8(&p, 0);
	table(&t, 4, &h, &p);
	refused_program(&t);

	prog_two(&p);
	u8(&p, DW_LNS_advance_pc), u8(&p, 0x80); /* a ULEB128 that does not end */
	table(&t, 4, &h, &p);
	refused_program(&t);

	prog_two(&p);
	table(&t, 4, &h, &p);
	t.b[6] = 0xff; /* header_length past the end */
	ck_assert_int_eq(read_table(&l, &t, "/comp"), -EINVAL);

	p.n = 0;
	set_address(&p, 0x1000), u8(&p, DW_LNS_set_column), uleb(&p, 70000), copy(&p);
	end_sequence(&p);
	table(&t, 4, &h, &p);
	refused_program(&t);

	/* the same program, taken: checked once, then found in */
	prog_two(&p);
	table(&t, 4, &h, &p);
	ck_assert_int_eq(read_table(&l, &t, "/comp"), 0);
	ck_assert_int_eq(ks_dwarfline_check(&l), 0);
	ck_assert(l.checked);
	ks_dwarfline_free(&l);
}
END_TEST

Suite *suite_dwarfline(void)
{
	Suite *s = suite_create("dwarfline");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_rows);
	tcase_add_test(tc, test_files4);
	tcase_add_test(tc, test_files5);
	tcase_add_test(tc, test_last_row);
	tcase_add_test(tc, test_refused);
	suite_add_tcase(s, tc);
	return s;
}
