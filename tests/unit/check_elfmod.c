/* Reading modules: license classification, ignored undefined symbols,
 * and a real object assembled from tests/data/elf/records.S during the
 * build (imports, .modinfo, plugin records, a malformed record); the
 * function names of uses without GCC's clone suffixes. */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "module/elfmod.h"
#include "module/policy.h"
#include "module/use.h"
#include "suites.h"

static const struct {
	const char *license;
	int gpl;
} licenses[] = {
	{ "GPL", 1 },		{ "GPL v2", 1 },	   { "GPL and additional rights", 1 },
	{ "Dual BSD/GPL", 1 }, { "Dual MIT/GPL", 1 }, { "Dual MPL/GPL", 1 },
	{ "Proprietary", 0 },	{ "GPL v3", 0 },	   { "gpl", 0 },
	{ "", 0 },		{ NULL, 0 },
};

START_TEST(test_license)
{
	ck_assert_msg(ks_license_gpl_compatible(licenses[_i].license) == licenses[_i].gpl,
		      "license '%s'", licenses[_i].license ? licenses[_i].license : "(none)");
}
END_TEST

START_TEST(test_ignored)
{
	ck_assert(ks_undef_ignored("__this_module"));
	ck_assert(ks_undef_ignored("_GLOBAL_OFFSET_TABLE_"));
	ck_assert(ks_undef_ignored("_restgpr_14_x"));
	ck_assert(!ks_undef_ignored("printk"));
	ck_assert(!ks_undef_ignored("__fentry__"));
}
END_TEST

START_TEST(test_records_object)
{
	struct ks_module m;
	struct ks_diags d = { 0 };

	ck_assert_int_eq(ks_elf_init(), 0);
	ck_assert_int_eq(ks_module_load(&m, KS_FIXTURES "/records.o", NULL, &d), 0);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_str_eq(m.name, "records");
	ck_assert_str_eq(m.license, "GPL");
	ck_assert(m.gpl_compatible);
	ck_assert_str_eq(m.vermagic, "6.1.0-57-amd64 SMP preempt mod_unload modversions ");
	ck_assert_uint_eq(m.nundef, 2);
	ck_assert_str_eq(m.undef[0], "do_settimeofday64");
	ck_assert_str_eq(m.undef[1], "simple_strtoul");
	ck_assert(ks_module_imports(&m, "simple_strtoul"));
	ck_assert(!ks_module_imports(&m, "f"));		/* defined here */
	ck_assert_uint_eq(m.nunits, 1);
	ck_assert_uint_eq(m.uses.n, 5);			/* the newer record skipped */
	ck_assert_ptr_null(m.uses.v[0].accept_reason);
	ck_assert_uint_eq(m.uses.v[3].line, 14);
	ck_assert_str_eq(m.uses.v[3].accept_reason, "no RTC\tdriver");	/* accepted in the source */
	ck_assert_str_eq(m.uses.v[1].symbol, "do_settimeofday64");
	ck_assert_int_eq(m.uses.v[1].kind, KS_USE_ADDR);
	ck_assert_uint_eq(m.uses.v[1].line, 20);
	ck_assert_str_eq(m.uses.v[1].function, "");
	ck_assert_int_eq(m.uses.v[1].source, KS_SOURCE_PLUGIN);
	ck_assert_str_eq(ks_use_source_name(m.uses.v[1].source), "plugin");
	ck_assert(!m.bad_records);
	ks_module_free(&m);
}
END_TEST

START_TEST(test_bad_record_object)
{
	struct ks_module m;
	struct ks_diags d = { 0 };
	char *msg;

	ck_assert_int_eq(ks_elf_init(), 0);
	ck_assert_int_eq(ks_module_load(&m, KS_FIXTURES "/bad-record.o", NULL, &d), 0);
	ck_assert(m.bad_records);
	ck_assert_uint_eq(m.uses.n, 4);	/* the good ones */
	ck_assert_uint_eq(d.n, 1);
	msg = ks_diag_format(&d.v[0]);
	ck_assert_str_eq(msg, KS_FIXTURES "/bad-record.o: error: malformed .note.ksunset record 3: "
					  "bad kind (expected call, addr or data)");
	free(msg);
	ks_diags_free(&d);
	ks_module_free(&m);
}
END_TEST

START_TEST(test_not_elf)
{
	struct ks_module m;
	struct ks_diags d = { 0 };
	char img[] = "\177ELF but not really an object file at all";

	ck_assert_int_eq(ks_elf_init(), 0);
	ck_assert_int_eq(ks_module_parse(&m, "x.ko", img, sizeof(img), &d), -EINVAL);
	ck_assert_uint_eq(d.nerrors, 1);
	ck_assert_str_eq(d.v[0].file, "x.ko");
	ks_diags_free(&d);
	ck_assert_int_eq(ks_module_parse(&m, "y.ko", img, 3, &d), -EINVAL);
	ck_assert_str_eq(d.v[0].msg, "file too short to be an ELF object");
	ks_diags_free(&d);
}
END_TEST

/* records.o in memory, and its symbol table's section header. */
static char *records_image(size_t *size, Elf64_Shdr **symtab)
{
	struct ks_buf b = KS_BUF_INIT;
	Elf64_Ehdr eh;
	char *img;

	ck_assert_int_eq(ks_buf_read_file(&b, KS_FIXTURES "/records.o"), 0);
	*size = b.len;
	img = ks_buf_steal(&b);
	memcpy(&eh, img, sizeof(eh));
	ck_assert_int_eq(eh.e_ident[EI_CLASS], ELFCLASS64);
	*symtab = NULL;
	for (size_t i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr *sh = (Elf64_Shdr *)(img + eh.e_shoff + i * sizeof(Elf64_Shdr));

		if (sh->sh_type == SHT_SYMTAB)
			*symtab = sh;
	}
	ck_assert_ptr_nonnull(*symtab);
	return img;
}

/* The image is unusable, with this one message. */
static void expect_unusable(char *img, size_t size, const char *msg)
{
	struct ks_module m;
	struct ks_diags d = { 0 };

	ck_assert_int_eq(ks_module_parse(&m, "r.o", img, size, &d), -EINVAL);
	ck_assert_uint_eq(d.n, 1);
	ck_assert_str_eq(d.v[0].msg, msg);
	ks_diags_free(&d);
}

/* Only the symbols from sh_info on (the globals, as the gABI orders them)
 * are read for imports; an sh_info beyond the table is an error. */
START_TEST(test_globals_from_sh_info)
{
	struct ks_module m;
	struct ks_diags d = { 0 };
	Elf64_Shdr *sh;
	size_t size, nsyms;
	char *img = records_image(&size, &sh);

	ck_assert_int_eq(ks_elf_init(), 0);
	nsyms = sh->sh_size / sizeof(Elf64_Sym);
	ck_assert_uint_lt(sh->sh_info, nsyms);
	ck_assert_int_eq(ks_module_parse(&m, "r.o", img, size, &d), 0);
	ck_assert_uint_eq(m.nundef, 2);
	ks_module_free(&m);
	/* the last symbol only: the imports come after f */
	sh->sh_info = (Elf64_Word)(nsyms - 1);
	ck_assert_int_eq(ks_module_parse(&m, "r.o", img, size, &d), 0);
	ck_assert_uint_eq(m.nundef, 1);
	ck_assert_str_eq(m.undef[0], "simple_strtoul");
	ks_module_free(&m);
	sh->sh_info = (Elf64_Word)nsyms;	/* no global symbol */
	ck_assert_int_eq(ks_module_parse(&m, "r.o", img, size, &d), 0);
	ck_assert_uint_eq(m.nundef, 0);
	ks_module_free(&m);
	ck_assert_uint_eq(d.n, 0);
	sh->sh_info = (Elf64_Word)(nsyms + 1);
	expect_unusable(img, size, "symbol table's first global symbol beyond its end");
	free(img);
}
END_TEST

/* An import's name offset past the string table. */
START_TEST(test_name_beyond_strtab)
{
	Elf64_Shdr *sh;
	size_t size;
	char *img = records_image(&size, &sh);
	Elf64_Sym *last = (Elf64_Sym *)(img + sh->sh_offset + sh->sh_size) - 1;

	ck_assert_int_eq(ks_elf_init(), 0);
	ck_assert_int_eq(last->st_shndx, SHN_UNDEF);
	last->st_name = 0x7fffffff;
	expect_unusable(img, size, "symbol name beyond the string table");
	free(img);
}
END_TEST

static Suite *suite_elfmod(void)
{
	Suite *s = suite_create("elfmod");
	TCase *tc = tcase_create("read");

	tcase_add_loop_test(tc, test_license, 0, KS_NCASES(licenses));
	tcase_add_test(tc, test_ignored);
	tcase_add_test(tc, test_records_object);
	tcase_add_test(tc, test_bad_record_object);
	tcase_add_test(tc, test_not_elf);
	tcase_add_test(tc, test_globals_from_sh_info);
	tcase_add_test(tc, test_name_beyond_strtab);
	suite_add_tcase(s, tc);
	return s;
}
KS_SUITE(suite_elfmod)
