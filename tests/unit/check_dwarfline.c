/* dwarf/dwarfline.c on line tables written here byte by byte, each
 * answer checked against libdw's on the same table (oracle.h): the row
 * dwarf_getsrc_die() gives for an address (an end of sequence sorts
 * before a row at the same address; the last row of all ends a
 * sequence), file names as dwarf_filesrc() gives them, and the tables
 * dwarf_getsrclines() refuses, which it leaves to libdw. Real objects'
 * tables are t-dwarf's and t-dwarf-libdw's. */
#include <dwarf.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "dwarf/dwarfline.h"
#include "bytes.h"
#include "oracle.h"
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

/* libdw's reading of table t (version: its own), in a unit of the same
 * version whose directory is comp_dir (NULL: none): o's unit is *cu. */
static void oracle_table(struct oracle *o, Dwarf_Die *cu, const struct bytes *t, unsigned version,
			 const char *comp_dir)
{
	static struct bytes info, abbrev, line;
	size_t die;

	abbrev.n = 0;
	uleb(&abbrev, 1), uleb(&abbrev, DW_TAG_compile_unit), u8(&abbrev, DW_CHILDREN_no);
	uleb(&abbrev, DW_AT_name), uleb(&abbrev, DW_FORM_string);
	if (comp_dir)
		uleb(&abbrev, DW_AT_comp_dir), uleb(&abbrev, DW_FORM_string);
	uleb(&abbrev, DW_AT_stmt_list), uleb(&abbrev, DW_FORM_sec_offset);
	u8(&abbrev, 0), u8(&abbrev, 0), u8(&abbrev, 0);
	info.n = 0;
	le(&info, 0, 4), le(&info, version < 5 ? 4 : 5, 2);
	if (version >= 5)
		u8(&info, DW_UT_compile), u8(&info, 8), le(&info, 0, 4);
	else
		le(&info, 0, 4), u8(&info, 8);
	die = info.n;
	uleb(&info, 1), str(&info, "a.c");
	if (comp_dir)
		str(&info, comp_dir);
	le(&info, 0, 4);
	info.b[0] = (unsigned char)(info.n - 4);
	line = *t;
	oracle_open(o,
		    (const struct oracle_section[]){
			    { ".debug_info", &info }, { ".debug_abbrev", &abbrev }, { ".debug_line", &line } },
		    3);
	ck_assert_ptr_nonnull(dwarf_offdie(o->dw, die, cu));
}

/* libdw's row for pc: 1 and its file, line and column, or 0. */
static int oracle_row(Dwarf_Die *cu, uint64_t pc, const char **file, int *line, int *col)
{
	Dwarf_Line *row = dwarf_getsrc_die(cu, pc);

	if (!row)
		return 0;
	*file = dwarf_linesrc(row, NULL, NULL);
	ck_assert_int_eq(dwarf_lineno(row, line), 0);
	ck_assert_int_eq(dwarf_linecol(row, col), 0);
	return 1;
}

/* l's answer for pc (r: 1 found, 0 not; row) is libdw's. */
static void agrees(struct ks_dwarfline *l, Dwarf_Die *cu, uint64_t pc, int r,
		   const struct ks_dwarfline_row *row)
{
	const char *file = NULL;
	int line = 0, col = 0, want = oracle_row(cu, pc, &file, &line, &col);

	const char *got = r == 1 ? ks_dwarfline_file(l, row->file) : NULL;

	ck_assert_msg(r == want, "pc %#llx: %d, libdw %d", (unsigned long long)pc, r, want);
	/* a file past the table's has no name, for either */
	if (r == 1)
		ck_assert_msg(row->line == line && (int)row->col == col &&
				      (got && file ? !strcmp(got, file) : got == file),
			      "pc %#llx: %s:%d:%u, libdw %s:%d:%d", (unsigned long long)pc,
			      got ? got : "(none)", row->line, row->col, file ? file : "(none)", line,
			      col);
}

/* l's file names are libdw's, and it has no more. */
static void same_files(struct ks_dwarfline *l, Dwarf_Die *cu)
{
	Dwarf_Files *files;
	size_t n;

	ck_assert_int_eq(dwarf_getsrcfiles(cu, &files, &n), 0);
	for (size_t i = 0; i < n; i++)
		ck_assert_str_eq(ks_dwarfline_file(l, (unsigned)i), dwarf_filesrc(files, i, NULL, NULL));
	ck_assert_ptr_null(ks_dwarfline_file(l, (unsigned)n));
}

START_TEST(test_rows)
{
	/* before the table; in rows of both sequences; at the end of the
	 * first, where the second starts; at the end of the second; past it */
	static const uint64_t cases[] = { 0xfff,  0x1000, 0x1003, 0x1004, 0x1008,
					  0x100b, 0x100c, 0x1013, 0x1014, 0x9000 };
	struct ks_dwarfline l, one;
	struct bytes t, t1;
	struct oracle o;
	Dwarf_Die cu;
	size_t n = sizeof(cases) / sizeof(cases[0]);
	uint64_t pcs[sizeof(cases) / sizeof(cases[0])];
	struct ks_dwarfline_row rows[sizeof(cases) / sizeof(cases[0])];
	int found[sizeof(cases) / sizeof(cases[0])], hits = 0;

	/* every pc asked of one table, one at a time; each of a table of its
	 * own, first; all of them at once, in reverse order */
	read_two(&l, &t, "/comp");
	oracle_table(&o, &cu, &t, 4, "/comp");
	for (size_t i = 0; i < 3 * n; i++) {
		struct ks_dwarfline_row row = { 0 };
		size_t k = i % n;
		int r;

		if (i < n) {
			r = find_one(&l, cases[k], &row);
		} else if (i < 2 * n) {
			read_two(&one, &t1, "/comp");
			r = find_one(&one, cases[k], &row);
			ks_dwarfline_free(&one);
		} else {
			if (k == 0) {
				for (size_t j = 0; j < n; j++)
					pcs[j] = cases[n - 1 - j];
				memset(found, 0xff, sizeof(found));
				ck_assert_int_eq(ks_dwarfline_find_all(&l, pcs, n, rows, found), 0);
			}
			r = found[n - 1 - k];
			row = rows[n - 1 - k];
		}
		agrees(&l, &cu, cases[k], r, &row);
		hits += r == 1;
	}
	ck_assert_int_eq(hits, 3 * 7); /* the cases are not all misses */
	oracle_close(&o);
	ks_dwarfline_free(&l);
}
END_TEST

START_TEST(test_files4)
{
	static const char *const dirs[] = { "/comp", NULL };
	struct ks_dwarfline l;
	struct bytes t;
	struct oracle o;
	Dwarf_Die cu;

	/* with a DW_AT_comp_dir, and without (names stay relative) */
	for (size_t i = 0; i < 2; i++) {
		read_two(&l, &t, dirs[i]);
		oracle_table(&o, &cu, &t, 4, dirs[i]);
		same_files(&l, &cu);
		oracle_close(&o);
		ks_dwarfline_free(&l);
	}
	read_two(&l, &t, "/comp");
	ck_assert_str_eq(ks_dwarfline_file(&l, 1), "/comp/a.c"); /* not all "???" */
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
	struct oracle o;
	Dwarf_Die cu;

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
	oracle_table(&o, &cu, &t, 5, "/ignored");
	same_files(&l, &cu);
	ck_assert_str_eq(ks_dwarfline_file(&l, 0), "/comp/a.c");
	agrees(&l, &cu, 0x1008, find_one(&l, 0x1008, &row), &row);
	oracle_close(&o);
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
	struct oracle o;
	Dwarf_Die cu;

	head4(&h);
	set_address(&p, 0x2000), advance(&p, 0, 4), copy(&p);
	advance(&p, 4, 1), copy(&p);
	table(&t, 4, &h, &p);
	ck_assert_int_eq(read_table(&l, &t, "/comp"), 0);
	oracle_table(&o, &cu, &t, 4, "/comp");
	ck_assert_int_eq(find_one(&l, 0x2000, &row), 1);
	agrees(&l, &cu, 0x2000, 1, &row);
	agrees(&l, &cu, 0x2004, find_one(&l, 0x2004, &row), &row);
	oracle_close(&o);
	ks_dwarfline_free(&l);
}
END_TEST

/* libdw's answer whether it takes table t. */
static bool oracle_takes(const struct bytes *t)
{
	struct oracle o;
	Dwarf_Die cu;
	Dwarf_Lines *lines;
	size_t n;
	bool ok;

	oracle_table(&o, &cu, t, 4, "/comp");
	ok = dwarf_getsrclines(&cu, &lines, &n) == 0;
	oracle_close(&o);
	return ok;
}

/* A table whose program is left to libdw (which reads it, if
 * libdw_reads): read, then refused by the check and by the first find,
 * each on a table of its own. */
static void refused_program(const struct bytes *t, bool libdw_reads)
{
	struct ks_dwarfline l;
	struct ks_dwarfline_row row;

	ck_assert_int_eq(oracle_takes(t), libdw_reads);
	ck_assert_int_eq(read_table(&l, t, "/comp"), 0);
	ck_assert_int_eq(ks_dwarfline_check(&l), -EINVAL);
	ks_dwarfline_free(&l);
	ck_assert_int_eq(read_table(&l, t, "/comp"), 0);
	ck_assert_int_eq(find_one(&l, 0x1000, &row), -EINVAL);
	ks_dwarfline_free(&l);
}

/* Tables left to libdw: files named in the program and a program cut
 * short (which libdw reads, the second up to the cut), a header longer
 * than the table and a column libdw cannot hold (which it refuses). */
START_TEST(test_refused)
{
	struct bytes h, p, t;
	struct ks_dwarfline l;

	head4(&h);
	prog_two(&p);
	u8(&p, 0), uleb(&p, 8), u8(&p, DW_LNE_define_file), str(&p, "x.c"), u8(&p, 0), u8(&p, 0),
		u8(&p, 0);
	table(&t, 4, &h, &p);
	refused_program(&t, true);

	prog_two(&p);
	u8(&p, DW_LNS_advance_pc), u8(&p, 0x80); /* a ULEB128 that does not end */
	table(&t, 4, &h, &p);
	refused_program(&t, true);

	prog_two(&p);
	table(&t, 4, &h, &p);
	t.b[6] = 0xff; /* header_length past the end */
	ck_assert(!oracle_takes(&t));
	ck_assert_int_eq(read_table(&l, &t, "/comp"), -EINVAL);

	p.n = 0;
	set_address(&p, 0x1000), u8(&p, DW_LNS_set_column), uleb(&p, 70000), copy(&p);
	end_sequence(&p);
	table(&t, 4, &h, &p);
	refused_program(&t, false);

	/* the same program, taken: checked once, then found in */
	prog_two(&p);
	table(&t, 4, &h, &p);
	ck_assert(oracle_takes(&t));
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
