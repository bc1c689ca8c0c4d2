/* The uses' relocations (dwarf/dw.h): every relocation against a wanted
 * import, but those of the tables the kernel keeps of its code, gathered
 * with its laid-out address and kind before any DWARF is read, so that
 * only the units that hold them are relocated and read. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array.h"
#include "dwarf/dw.h"

static void want_addr(struct dw *x, const struct ks_dwarfpick_addr *a, const char *sym,
		      enum ks_use_kind kind)
{
	ks_array_room((void **)&x->addrs, &x->addrs_cap, x->naddrs + 1, sizeof(*x->addrs));
	ks_array_room((void **)&x->sites, &x->sites_cap, x->naddrs + 1, sizeof(*x->sites));
	x->addrs[x->naddrs] = *a;
	x->sites[x->naddrs++] = (struct site){ sym, kind };
}

/* Sections whose relocations are no use of anyone's: tables that objtool,
 * alternatives, static calls, jump labels and ftrace keep of the code
 * (their entries point into code, where the use itself is found, or into
 * replacement code that has no source line), and the exception table.
 * __jump_table's key is the one use found there (place_jump()). */
static const char *const table_sections[] = {
	".static_call_sites", ".altinstr_replacement",
	".altinstructions",   "__jump_table",
	"__ex_table",	      ".retpoline_sites",
	".return_sites",      ".call_sites",
	"__mcount_loc",	      "__patchable_function_entries",
	".orc_unwind_ip",     ".smp_locks",
	".parainstructions",  ".ibt_endbr_seal",
	".static_call.text",  "__bug_table",
};

static bool table_section(const char *name)
{
	for (size_t i = 0; i < KS_ARRAY_SIZE(table_sections); i++)
		if (!strcmp(name, table_sections[i]))
			return true;
	return !strncmp(name, ".discard", 8);
}

/* The relocation types of a call or a jump to a function, for the
 * machines dwarf/dwarfrel.c relocates: any other relocation in code
 * reads an import or takes its address. x86-64's calls are PLT32 since
 * binutils 2.31 (GCC and Clang alike); a PC32 there is a RIP-relative
 * access. */
static const struct call_type {
	uint16_t machine;
	uint32_t type;
} call_types[] = {
	{ EM_X86_64, R_X86_64_PLT32 },	{ EM_386, R_386_PC32 },
	{ EM_386, R_386_PLT32 },	{ EM_AARCH64, R_AARCH64_CALL26 },
	{ EM_AARCH64, R_AARCH64_JUMP26 }, { EM_ARM, R_ARM_CALL },
	{ EM_ARM, R_ARM_JUMP24 },	{ EM_ARM, R_ARM_PC24 },
	{ EM_ARM, R_ARM_THM_PC22 },	{ EM_ARM, R_ARM_THM_JUMP24 },
	{ EM_S390, R_390_PLT32DBL },	{ EM_PPC64, R_PPC64_REL24 },
	{ EM_RISCV, R_RISCV_CALL },	{ EM_RISCV, R_RISCV_CALL_PLT },
	{ EM_RISCV, R_RISCV_JAL },
};

static enum ks_use_kind code_kind(uint16_t machine, uint32_t type)
{
	for (size_t i = 0; i < KS_ARRAY_SIZE(call_types); i++)
		if (call_types[i].machine == machine && call_types[i].type == type)
			return KS_USE_CALL;
	return KS_USE_DATA;
}

/* One relocation of type at offset off of section target (laid out):
 * gathered, to be placed once the DWARF is read. */
static void place(struct dw *x, Elf *elf, Elf_Scn *target, const GElf_Shdr *tsh, GElf_Addr off,
		  uint32_t type, const char *sym)
{
	struct ks_dwarfpick_addr a = { tsh->sh_addr + off, elf_ndxscn(target), off,
				       tsh->sh_flags & SHF_EXECINSTR };
	GElf_Ehdr eh;

	if (!a.code)
		want_addr(x, &a, sym, KS_USE_ADDR);
	else
		want_addr(x, &a, sym,
			  code_kind(gelf_getehdr(elf, &eh) ? eh.e_machine : EM_NONE, type));
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* For each symbol of the symbol table: its name among syms, or NULL. */
static void wanted_symbols(Elf *elf, char *const *syms, size_t nsyms, const char ***want,
			   size_t *nwant)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			break;
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;

	*nwant = data && sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
	*want = ks_xcalloc(*nwant, sizeof(**want));
	for (size_t i = 0; i < *nwant; i++) {
		GElf_Sym s;
		const char *name;
		char *const *hit;

		if (!gelf_getsym(data, (int)i, &s))
			continue;
		if (s.st_shndx != SHN_UNDEF || !(name = elf_strptr(elf, sh.sh_link, s.st_name)))
			continue;
		hit = bsearch(&name, syms, nsyms, sizeof(*syms), cmp_names);
		if (hit)
			(*want)[i] = *hit;
	}
}

/* The address a relocation points at, through a symbol defined in a
 * section: the section's laid-out address, the symbol's value and the
 * addend. false: not such a symbol. */
static bool reloc_target(Elf *elf, const GElf_Rela *ra, GElf_Addr *addr)
{
	Elf_Scn *scn = NULL, *sec;
	GElf_Shdr sh, ssh;
	GElf_Sym s;
	Elf_Data *data;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			break;
	if (!scn || !(data = elf_getdata(scn, NULL)) ||
	    !gelf_getsym(data, (int)GELF_R_SYM(ra->r_info), &s) || s.st_shndx == SHN_UNDEF ||
	    s.st_shndx >= SHN_LORESERVE || !(sec = elf_getscn(elf, s.st_shndx)) ||
	    !gelf_getshdr(sec, &ssh) || !(ssh.sh_flags & SHF_EXECINSTR))
		return false;
	*addr = ssh.sh_addr + s.st_value + (GElf_Addr)ra->r_addend;
	return true;
}

/* An x86-64 __jump_table entry { s32 code, s32 target, long key } names
 * its static key only there: the use is the branch at the entry's code
 * field (the relocation two before the key's). */
static void place_jump(struct dw *x, Elf *elf, Elf_Data *data, size_t i, const GElf_Rela *key,
		       const char *sym)
{
	GElf_Rela code;
	struct ks_dwarfpick_addr a = { .code = true };
	GElf_Ehdr eh;

	if (!gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64 || i < 2 ||
	    !gelf_getrela(data, (int)(i - 2), &code) || code.r_offset + 8 != key->r_offset ||
	    !reloc_target(elf, &code, &a.addr))
		return;
	want_addr(x, &a, sym, KS_USE_DATA);
}

/* The relocations of one section against wanted symbols. */
static void place_section(struct dw *x, Elf *elf, Elf_Scn *rel, const GElf_Shdr *rsh,
			  const char **want, size_t nwant)
{
	Elf_Scn *target = elf_getscn(elf, rsh->sh_info);
	Elf_Data *data = elf_getdata(rel, NULL);
	size_t shstrndx, n;
	GElf_Shdr tsh;
	const char *tname;
	bool jump;

	if (!target || !data || !gelf_getshdr(target, &tsh) || !(tsh.sh_flags & SHF_ALLOC) ||
	    elf_getshdrstrndx(elf, &shstrndx) < 0 || !rsh->sh_entsize)
		return;
	tname = elf_strptr(elf, shstrndx, tsh.sh_name);
	if (!tname || (table_section(tname) && strcmp(tname, "__jump_table")))
		return;
	jump = !strcmp(tname, "__jump_table") && rsh->sh_type == SHT_RELA;
	n = rsh->sh_size / rsh->sh_entsize;
	for (size_t i = 0; i < n; i++) {
		GElf_Rela ra;
		GElf_Rel rl;
		size_t sym;

		if (rsh->sh_type == SHT_REL && gelf_getrel(data, (int)i, &rl))
			ra = (GElf_Rela){ rl.r_offset, rl.r_info, 0 };
		else if (rsh->sh_type != SHT_RELA || !gelf_getrela(data, (int)i, &ra))
			break;
		sym = GELF_R_SYM(ra.r_info);
		if (sym >= nwant || !want[sym] || ra.r_offset >= tsh.sh_size)
			continue;
		if (jump)
			place_jump(x, elf, data, i, &ra, want[sym]);
		else if (!table_section(tname))
			place(x, elf, target, &tsh, ra.r_offset, (uint32_t)GELF_R_TYPE(ra.r_info),
			      want[sym]);
	}
}

void ks_dw_sites(struct dw *x, Elf *elf, char *const *syms, size_t nsyms)
{
	const char **want;
	size_t nwant;
	Elf_Scn *scn = NULL;

	wanted_symbols(elf, syms, nsyms, &want, &nwant);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL))
			place_section(x, elf, scn, &sh, want, nwant);
	}
	free(want);
}
