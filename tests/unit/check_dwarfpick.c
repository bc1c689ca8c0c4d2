/* The units the DWARF reader relocates and reads (dwarf/dwarfpick.c,
 * dwarfrel.c), on an object of four units linked as a module's are
 * (tests/data/elf/units/): the units chosen for some uses' addresses are
 * exactly the units that hold them, and .debug_info made of them is what
 * libdw reads. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dwarf/dwarfpick.h"
#include "dwarf/dwarfrel.h"
#include "suites.h"

struct fixture {
	int fd;
	Elf *elf;
	struct ks_dwarfrel rel;
};

static void open_units(struct fixture *f)
{
	const char *why = "";

	ck_assert_uint_ne(elf_version(EV_CURRENT), EV_NONE);
	f->fd = open(KS_FIXTURES "/units.o", O_RDONLY);
	ck_assert_int_ge(f->fd, 0);
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP_PRIVATE, NULL);
	ck_assert_ptr_nonnull(f->elf);
	memset(&f->rel, 0, sizeof(f->rel));
	ck_assert_int_eq(ks_dwarfrel_layout(f->elf, &why), 0);
	ck_assert_msg(ks_dwarfrel_begin(f->elf, &f->rel, &why) == 0, "begin: %s", why);
}

static void close_units(struct fixture *f)
{
	ks_dwarfrel_free(&f->rel);
	elf_end(f->elf);
	close(f->fd);
}

/* A symbol's laid-out address, as the DWARF reader gathers a use's. */
static struct ks_dwarfpick_addr addr_of(Elf *elf, const char *name)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			break;
	ck_assert_ptr_nonnull(scn);
	Elf_Data *d = elf_getdata(scn, NULL);

	for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
		GElf_Sym s;
		GElf_Shdr at;

		if (!gelf_getsym(d, (int)i, &s) || strcmp(elf_strptr(elf, sh.sh_link, s.st_name), name))
			continue;
		ck_assert_ptr_nonnull(gelf_getshdr(elf_getscn(elf, s.st_shndx), &at));
		return (struct ks_dwarfpick_addr){ at.sh_addr + s.st_value, s.st_shndx, s.st_value,
						   (at.sh_flags & SHF_EXECINSTR) != 0 };
	}
	ck_abort_msg("no symbol %s", name);
	return (struct ks_dwarfpick_addr){ 0, 0, 0, false };
}

/* The names of the units libdw reads, joined by spaces. */
static void unit_names(Elf *elf, char *out, size_t len)
{
	Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	Dwarf_Off off = 0, next;
	size_t hsize;

	ck_assert_ptr_nonnull(dw);
	out[0] = '\0';
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		const char *n = dwarf_offdie(dw, off + hsize, &cu) ? dwarf_diename(&cu) : NULL;
		const char *base = n && strrchr(n, '/') ? strrchr(n, '/') + 1 : n;

		strncat(out, out[0] ? " " : "", len - strlen(out) - 1);
		strncat(out, base ? base : "?", len - strlen(out) - 1);
		off = next;
	}
	dwarf_end(dw);
}

static const struct {
	const char *syms[3];
	const char *units;	/* what libdw then reads */
} cases[] = {
	{ { "helper_c" }, "unit_c.c" },			/* code: .debug_aranges */
	{ { "unit_a", "helper_d" }, "unit_a.c unit_d.c" },	/* sorted, first and last */
	{ { "table_b" }, "unit_b.c" },			/* data: its file's function */
	{ { "table_d", "unit_b", "helper_b" }, "unit_b.c unit_d.c" }, /* each once */
};

START_TEST(test_pick)
{
	struct ks_dwarfpick_addr a[3];
	struct ks_dwarfrel_range *units = NULL;
	struct fixture f;
	const char *why = "";
	char names[256];
	size_t n = 0, nunits = 0;

	open_units(&f);
	while (n < 3 && cases[_i].syms[n]) {
		a[n] = addr_of(f.elf, cases[_i].syms[n]);
		n++;
	}
	ck_assert_int_eq(ks_dwarfpick_units(f.elf, f.elf, a, n, &units, &nunits), 0);
	for (size_t i = 1; i < nunits; i++)
		ck_assert(units[i - 1].hi <= units[i].lo);
	ck_assert_msg(ks_dwarfrel_units(&f.rel, units, nunits, &why) == 0, "units: %s", why);
	unit_names(f.elf, names, sizeof(names));
	ck_assert_str_eq(names, cases[_i].units);
	free(units);
	close_units(&f);
}
END_TEST

/* Every unit asked for: .debug_info whole, as libdw would read it alone. */
START_TEST(test_all_units)
{
	static const struct ks_dwarfrel_range all = { 0, UINT64_MAX };
	struct fixture f;
	const char *why = "";
	char names[256];

	open_units(&f);
	ck_assert(ks_dwarfpick_self_contained(f.elf));
	ck_assert_int_eq(ks_dwarfrel_units(&f.rel, &all, 1, &why), 0);
	unit_names(f.elf, names, sizeof(names));
	ck_assert_str_eq(names, "unit_a.c unit_b.c unit_c.c unit_d.c");
	close_units(&f);
}
END_TEST

static Suite *suite_dwarfpick(void)
{
	Suite *s = suite_create("dwarfpick");
	TCase *tc = tcase_create("units");

	tcase_add_loop_test(tc, test_pick, 0, KS_NCASES(cases));
	tcase_add_test(tc, test_all_units);
	suite_add_tcase(s, tc);
	return s;
}
KS_SUITE(suite_dwarfpick)
