/* Relocating a module's DWARF for libdw (module/dwarfrel.h). libdwfl does
 * the same for any file, but relocates every .debug_* section through
 * gelf calls that lock, and rewrites the relocation sections as it goes:
 * most of the time spent on a big module (amdgpu.ko: 6 million
 * relocations). Here the relocation entries are read straight from their
 * data (which libelf hands out in host order), each symbol's value is
 * worked out once, and only the sections libdw reads are relocated, each
 * in a copy: written in place, a mapped module's pages are copied one
 * fault at a time, with a TLB flush on every CPU the reading threads ran
 * on. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "module/dwarfrel.h"
#include "module/section.h"

/* What a relocation writes: S + A (with REL, A is the field), or the
 * field plus or minus S + A (RISC-V's label differences, which linker
 * relaxation may change). */
enum reloc_op { SET, ADD, SUB };

/* The relocation types found in DWARF sections, per machine: absolute
 * addresses and offsets into other sections, by field size (the TLS
 * offsets of thread-local variables too). A type not listed is left as
 * it is; a machine with no row gets no lines rather than wrong ones. */
static const struct reloc_type {
	uint16_t machine;
	uint32_t type;
	uint8_t size;
	enum reloc_op op;
} reloc_types[] = {
	{ EM_X86_64, R_X86_64_64, 8, SET },	  /* DW_FORM_addr, DW_OP_addr */
	{ EM_X86_64, R_X86_64_32, 4, SET },	  /* DW_FORM_strp, DW_FORM_sec_offset */
	{ EM_X86_64, R_X86_64_32S, 4, SET },	  /* the same, signed */
	{ EM_X86_64, R_X86_64_DTPOFF32, 4, SET }, /* a __thread variable's offset */
	{ EM_X86_64, R_X86_64_DTPOFF64, 8, SET },
	{ EM_386, R_386_32, 4, SET },
	{ EM_AARCH64, R_AARCH64_ABS64, 8, SET },
	{ EM_AARCH64, R_AARCH64_ABS32, 4, SET },
	{ EM_ARM, R_ARM_ABS32, 4, SET },
	{ EM_S390, R_390_64, 8, SET },
	{ EM_S390, R_390_32, 4, SET },
	{ EM_PPC64, R_PPC64_ADDR64, 8, SET },
	{ EM_PPC64, R_PPC64_ADDR32, 4, SET },
	{ EM_RISCV, R_RISCV_64, 8, SET },
	{ EM_RISCV, R_RISCV_32, 4, SET },
	{ EM_RISCV, R_RISCV_SET8, 1, SET },
	{ EM_RISCV, R_RISCV_SET16, 2, SET },
	{ EM_RISCV, R_RISCV_SET32, 4, SET },
	{ EM_RISCV, R_RISCV_ADD8, 1, ADD }, /* line table advances */
	{ EM_RISCV, R_RISCV_ADD16, 2, ADD },
	{ EM_RISCV, R_RISCV_ADD32, 4, ADD },
	{ EM_RISCV, R_RISCV_ADD64, 8, ADD },
	{ EM_RISCV, R_RISCV_SUB8, 1, SUB },
	{ EM_RISCV, R_RISCV_SUB16, 2, SUB },
	{ EM_RISCV, R_RISCV_SUB32, 4, SUB },
	{ EM_RISCV, R_RISCV_SUB64, 8, SUB },
};

/* The sections libdw reads for ksunset; .debug_frame, .debug_macro and
 * the rest stay as they are. */
static const char *const dwarf_sections[] = {
	".debug_info",	      ".debug_types",	 ".debug_line", ".debug_addr",
	".debug_ranges",      ".debug_rnglists", ".debug_loc",	".debug_loclists",
	".debug_str_offsets", ".debug_aranges",
};

/* One object being relocated. */
struct rel {
	Elf *elf;
	bool is64, msb;
	const struct reloc_type *types; /* the machine's rows */
	size_t ntypes;
	size_t symtab;	 /* its section index */
	uint64_t *value; /* per symbol: its address; sym_ok says if it has one */
	unsigned char *sym_ok;
	size_t nsyms;
};

/* One relocation entry, whatever the class. */
struct reloc {
	uint64_t off, sym;
	uint32_t type;
	int64_t addend;
};

int ks_dwarfrel_layout(Elf *elf, const char **why)
{
	GElf_Addr next = 0x10000;
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		GElf_Xword align;

		if (!gelf_getshdr(scn, &sh)) {
			*why = "bad section header";
			return -EINVAL;
		}
		if (!(sh.sh_flags & SHF_ALLOC))
			continue;
		/* any alignment keeps sections apart; a huge one is no use */
		align = sh.sh_addralign > 1 && sh.sh_addralign <= 4096 ? sh.sh_addralign : 1;
		next = (next + align - 1) & ~(align - 1);
		sh.sh_addr = next;
		if (sh.sh_size > UINT64_MAX / 4 - next || !gelf_update_shdr(scn, &sh)) {
			*why = "cannot lay out the sections";
			return -EINVAL;
		}
		next += sh.sh_size;
	}
	return 0;
}

static bool dwarf_section(const char *name)
{
	for (size_t i = 0; i < sizeof(dwarf_sections) / sizeof(dwarf_sections[0]); i++)
		if (!strcmp(name, dwarf_sections[i]))
			return true;
	return false;
}

/* The address of a section, from its laid-out header. */
static bool section_addr(Elf *elf, size_t ndx, uint64_t *addr)
{
	Elf_Scn *scn = elf_getscn(elf, ndx);
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh))
		return false;
	*addr = sh.sh_addr;
	return true;
}

/* Each symbol's value as relocations use it: its section's address plus
 * its value, or its value if absolute; undefined and common symbols have
 * none. */
static int read_symbols(struct rel *c, Elf_Scn *symtab, const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(symtab, NULL), *xdata = NULL;
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(c->elf, scn))) {
		GElf_Shdr x;

		if (gelf_getshdr(scn, &x) && x.sh_type == SHT_SYMTAB_SHNDX && x.sh_link == c->symtab)
			xdata = elf_getdata(scn, NULL);
	}
	c->nsyms = data && sh->sh_entsize ? data->d_size / sh->sh_entsize : 0;
	c->value = calloc(c->nsyms ? c->nsyms : 1, sizeof(*c->value));
	c->sym_ok = calloc(c->nsyms ? c->nsyms : 1, 1);
	if (!c->value || !c->sym_ok)
		return -ENOMEM;
	for (size_t i = 0; i < c->nsyms; i++) {
		GElf_Sym s;
		Elf32_Word xndx = 0;
		size_t ndx;
		uint64_t addr = 0;

		if (!gelf_getsymshndx(data, xdata, (int)i, &s, &xndx))
			continue;
		ndx = s.st_shndx == SHN_XINDEX ? xndx : s.st_shndx;
		if (ndx == SHN_UNDEF || ndx == SHN_COMMON ||
		    (ndx != SHN_ABS && !section_addr(c->elf, ndx, &addr)))
			continue;
		c->value[i] = (ndx == SHN_ABS ? 0 : addr) + s.st_value;
		c->sym_ok[i] = 1;
	}
	return 0;
}

/* The machine's rows of reloc_types, and the symbol table. */
static int start(struct rel *c, const char **why)
{
	GElf_Ehdr eh;
	Elf_Scn *scn = NULL;

	if (!gelf_getehdr(c->elf, &eh)) {
		*why = "bad ELF header";
		return -EINVAL;
	}
	c->is64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
	c->msb = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	for (size_t i = 0; i < sizeof(reloc_types) / sizeof(reloc_types[0]); i++) {
		if (reloc_types[i].machine != eh.e_machine)
			continue;
		c->types = c->types ? c->types : &reloc_types[i];
		c->ntypes++;
	}
	while ((scn = elf_nextscn(c->elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB) {
			c->symtab = elf_ndxscn(scn);
			return read_symbols(c, scn, &sh);
		}
	}
	return 0; /* no symbols: no relocations to apply */
}

static const struct reloc_type *type_row(const struct rel *c, uint32_t type)
{
	for (size_t i = 0; i < c->ntypes; i++)
		if (c->types[i].type == type)
			return &c->types[i];
	return NULL;
}

/* The entries are copied out, not dereferenced: libelf leaves a
 * misaligned section where it is on machines that allow that. */
static void get_reloc(const struct rel *c, const Elf_Data *d, bool rela, size_t i, struct reloc *r)
{
	const char *p = d->d_buf;

	if (c->is64 && rela) {
		Elf64_Rela e;

		memcpy(&e, p + i * sizeof(e), sizeof(e));
		*r = (struct reloc){ e.r_offset, ELF64_R_SYM(e.r_info), ELF64_R_TYPE(e.r_info),
				     e.r_addend };
	} else if (c->is64) {
		Elf64_Rel e;

		memcpy(&e, p + i * sizeof(e), sizeof(e));
		*r = (struct reloc){ e.r_offset, ELF64_R_SYM(e.r_info), ELF64_R_TYPE(e.r_info), 0 };
	} else if (rela) {
		Elf32_Rela e;

		memcpy(&e, p + i * sizeof(e), sizeof(e));
		*r = (struct reloc){ e.r_offset, ELF32_R_SYM(e.r_info), ELF32_R_TYPE(e.r_info),
				     e.r_addend };
	} else {
		Elf32_Rel e;

		memcpy(&e, p + i * sizeof(e), sizeof(e));
		*r = (struct reloc){ e.r_offset, ELF32_R_SYM(e.r_info), ELF32_R_TYPE(e.r_info), 0 };
	}
}

/* A field of n bytes in the object's byte order. */
static uint64_t get_field(const unsigned char *p, unsigned n, bool msb)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[msb ? n - 1 - i : i] << (8 * i);
	return v;
}

static void put_field(unsigned char *p, unsigned n, bool msb, uint64_t v)
{
	for (unsigned i = 0; i < n; i++)
		p[msb ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

/* The relocations in rel of its target, a DWARF section's data t. */
static int apply_to(const struct rel *c, Elf_Data *rd, bool rela, Elf_Data *t, const char **why)
{
	size_t ent = c->is64 ? (rela ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel))
			     : (rela ? sizeof(Elf32_Rela) : sizeof(Elf32_Rel));
	size_t n = rd->d_size / ent;

	if (rd->d_type != (rela ? ELF_T_RELA : ELF_T_REL)) {
		*why = "bad relocation section";
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		const struct reloc_type *row;
		struct reloc r;
		unsigned char *p;
		uint64_t old, v;

		get_reloc(c, rd, rela, i, &r);
		if (!(row = type_row(c, r.type)) || r.sym >= c->nsyms || !c->sym_ok[r.sym])
			continue;
		if (!ks_in_range(r.off, row->size, t->d_size)) {
			*why = "a DWARF relocation outside its section";
			return -EINVAL;
		}
		p = (unsigned char *)t->d_buf + r.off;
		old = get_field(p, row->size, c->msb);
		v = c->value[r.sym] + (rela ? (uint64_t)r.addend : 0);
		if (row->op == ADD)
			v = old + v;
		else if (row->op == SUB)
			v = old - v;
		else if (!rela)
			v += old; /* REL: the addend is the field */
		put_field(p, row->size, c->msb, v);
	}
	return 0;
}

/* t's data moved to a copy of its own, which out keeps. */
static int copy_data(Elf_Data *t, struct ks_dwarfrel *out)
{
	void *p;

	if (out->n == out->cap) {
		size_t cap = out->cap ? out->cap * 2 : 8;
		void **v = realloc(out->bufs, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		out->bufs = v;
		out->cap = cap;
	}
	if (!(p = malloc(t->d_size ? t->d_size : 1)))
		return -ENOMEM;
	memcpy(p, t->d_buf, t->d_size);
	t->d_buf = out->bufs[out->n++] = p;
	return 0;
}

/* One relocation section, if its target is a DWARF section libdw reads. */
static int apply_section(const struct rel *c, Elf_Scn *rel, const GElf_Shdr *rsh, size_t shstrndx,
			 struct ks_dwarfrel *out, const char **why)
{
	Elf_Scn *target = elf_getscn(c->elf, rsh->sh_info);
	Elf_Data *rd, *t;
	GElf_Shdr tsh;
	const char *name;

	if (rsh->sh_link != c->symtab || !target || !gelf_getshdr(target, &tsh) ||
	    (tsh.sh_flags & SHF_ALLOC) || tsh.sh_type == SHT_NOBITS ||
	    !(name = elf_strptr(c->elf, shstrndx, tsh.sh_name)) || !dwarf_section(name))
		return 0;
	if (!c->ntypes) {
		*why = "relocations of this machine are not known";
		return -EINVAL;
	}
	if ((tsh.sh_flags & SHF_COMPRESSED) && elf_compress(target, 0, 0) < 0) {
		*why = "cannot decompress a DWARF section";
		return -EINVAL;
	}
	if (!(rd = elf_getdata(rel, NULL)) || !(t = elf_getdata(target, NULL))) {
		*why = "cannot read a DWARF section or its relocations";
		return -EINVAL;
	}
	if (!t->d_size || !rd->d_buf)
		return 0;
	if (copy_data(t, out) < 0)
		return -ENOMEM;
	return apply_to(c, rd, rsh->sh_type == SHT_RELA, t, why);
}

int ks_dwarfrel_apply(Elf *elf, struct ks_dwarfrel *out, const char **why)
{
	struct rel c = { .elf = elf };
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	int r = start(&c, why);

	if (!r && elf_getshdrstrndx(elf, &shstrndx) < 0) {
		*why = "cannot read section names";
		r = -EINVAL;
	}
	while (!r && c.nsyms && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL))
			r = apply_section(&c, scn, &sh, shstrndx, out, why);
	}
	free(c.value);
	free(c.sym_ok);
	return r;
}

void ks_dwarfrel_free(struct ks_dwarfrel *rel)
{
	for (size_t i = 0; i < rel->n; i++)
		free(rel->bufs[i]);
	free(rel->bufs);
	memset(rel, 0, sizeof(*rel));
}
