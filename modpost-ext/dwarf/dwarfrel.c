/* Relocating a module's DWARF for libdw (dwarf/dwarfrel.h). libdwfl does
 * the same for any file (KSUNSET_DWARF_READER=libdw uses it), but
 * relocates every .debug_* section through gelf calls that lock: most of
 * the time spent on a big module (amdgpu.ko: 6 million relocations;
 * bench/results.md, "DWARF lines"). Here the relocation
 * entries are read straight from their data (which libelf hands out in
 * host order), each symbol's value is worked out once, and only the
 * sections libdw reads are relocated, .debug_info only in the units that
 * hold uses where that is safe (ks_dwarfrel_begin()), each section in a
 * copy. */
#include <dwarf.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array.h"
#include "dwarf/dwarfrel.h"
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

/* The sections libdw reads for ksunset. Location lists are not among
 * them: only variables' single location expressions are read (a list
 * makes dwarf_getlocation() fail before reading it); .debug_frame,
 * .debug_macro and the rest stay as they are too. */
static const char *const dwarf_sections[] = {
	".debug_info",	 ".debug_types",    ".debug_line",	  ".debug_addr",
	".debug_ranges", ".debug_rnglists", ".debug_str_offsets", ".debug_aranges",
};

/* One object being relocated. */
struct rel {
	Elf *elf;
	bool is64, msb;
	const struct reloc_type *types; /* the machine's rows */
	size_t ntypes;
	size_t symtab;	       /* its section index */
	Elf_Data *syms, *xndx; /* its entries, and its SHT_SYMTAB_SHNDX's */
	uint64_t *value;       /* per symbol: its address, once worked out */
	unsigned char *sym_ok; /* per symbol: SYM_* */
	size_t nsyms;
};

/* Whether a symbol's value is known: worked out when a relocation first
 * needs it, as most relocate against a few section symbols. */
enum { SYM_UNKNOWN, SYM_VALUE, SYM_NONE };

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
	for (size_t i = 0; i < KS_ARRAY_SIZE(dwarf_sections); i++)
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

/* The symbol table and its extended section indices. */
static void read_symbols(struct rel *c, Elf_Scn *symtab, const GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	c->syms = elf_getdata(symtab, NULL);
	while ((scn = elf_nextscn(c->elf, scn))) {
		GElf_Shdr x;

		if (gelf_getshdr(scn, &x) && x.sh_type == SHT_SYMTAB_SHNDX && x.sh_link == c->symtab)
			c->xndx = elf_getdata(scn, NULL);
	}
	c->nsyms = c->syms && sh->sh_entsize ? c->syms->d_size / sh->sh_entsize : 0;
	c->value = ks_xcalloc(c->nsyms, sizeof(*c->value));
	c->sym_ok = ks_xcalloc(c->nsyms, 1);
}

/* Symbol i's value as relocations use it: its section's address plus its
 * value, or its value if absolute; undefined and common symbols have
 * none. */
static bool sym_value(const struct rel *c, size_t i, uint64_t *v)
{
	GElf_Sym s;
	Elf32_Word xndx = 0;
	size_t ndx;
	uint64_t addr = 0;

	if (i >= c->nsyms)
		return false;
	if (c->sym_ok[i] == SYM_UNKNOWN) {
		c->sym_ok[i] = SYM_NONE;
		if (!gelf_getsymshndx(c->syms, c->xndx, (int)i, &s, &xndx))
			return false;
		ndx = s.st_shndx == SHN_XINDEX ? xndx : s.st_shndx;
		if (ndx == SHN_UNDEF || ndx == SHN_COMMON ||
		    (ndx != SHN_ABS && !section_addr(c->elf, ndx, &addr)))
			return false;
		c->value[i] = (ndx == SHN_ABS ? 0 : addr) + s.st_value;
		c->sym_ok[i] = SYM_VALUE;
	}
	*v = c->value[i];
	return c->sym_ok[i] == SYM_VALUE;
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
	for (size_t i = 0; i < KS_ARRAY_SIZE(reloc_types); i++) {
		if (reloc_types[i].machine != eh.e_machine)
			continue;
		c->types = c->types ? c->types : &reloc_types[i];
		c->ntypes++;
	}
	while ((scn = elf_nextscn(c->elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB) {
			c->symtab = elf_ndxscn(scn);
			read_symbols(c, scn, &sh);
			return 0;
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

/* The entry at p. Entries are copied out, not dereferenced: libelf leaves
 * a misaligned section where it is on machines that allow that. */
static void decode_reloc(const struct rel *c, const char *p, bool rela, struct reloc *r)
{
	if (c->is64 && rela) {
		Elf64_Rela e;

		memcpy(&e, p, sizeof(e));
		*r = (struct reloc){ e.r_offset, ELF64_R_SYM(e.r_info), ELF64_R_TYPE(e.r_info),
				     e.r_addend };
	} else if (c->is64) {
		Elf64_Rel e;

		memcpy(&e, p, sizeof(e));
		*r = (struct reloc){ e.r_offset, ELF64_R_SYM(e.r_info), ELF64_R_TYPE(e.r_info), 0 };
	} else if (rela) {
		Elf32_Rela e;

		memcpy(&e, p, sizeof(e));
		*r = (struct reloc){ e.r_offset, ELF32_R_SYM(e.r_info), ELF32_R_TYPE(e.r_info),
				     e.r_addend };
	} else {
		Elf32_Rel e;

		memcpy(&e, p, sizeof(e));
		*r = (struct reloc){ e.r_offset, ELF32_R_SYM(e.r_info), ELF32_R_TYPE(e.r_info), 0 };
	}
}

static size_t entry_size(const struct rel *c, bool rela);

static void get_reloc(const struct rel *c, const Elf_Data *d, bool rela, size_t i, struct reloc *r)
{
	decode_reloc(c, (const char *)d->d_buf + i * entry_size(c, rela), rela, r);
}

static void put_field(unsigned char *p, unsigned n, bool msb, uint64_t v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (!msb) { /* the low n bytes of v, as they lie in memory */
		memcpy(p, &v, n);
		return;
	}
#endif
	for (unsigned i = 0; i < n; i++)
		p[msb ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

static size_t entry_size(const struct rel *c, bool rela)
{
	return c->is64 ? (rela ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel))
		       : (rela ? sizeof(Elf32_Rela) : sizeof(Elf32_Rel));
}

/* One relocation of t, a DWARF section's data. */
static int apply_one(const struct rel *c, const struct reloc *r, bool rela, Elf_Data *t,
		     const char **why)
{
	const struct reloc_type *row = type_row(c, r->type);
	unsigned char *p;
	uint64_t old, v;

	if (!row || !sym_value(c, r->sym, &v))
		return 0;
	if (!ks_in_range(r->off, row->size, t->d_size)) {
		*why = "a DWARF relocation outside its section";
		return -EINVAL;
	}
	p = (unsigned char *)t->d_buf + r->off;
	/* the field matters only to REL and to the RISC-V sums */
	old = rela && row->op == SET ? 0 : ks_bytes_field(p, row->size, c->msb);
	v += rela ? (uint64_t)r->addend : 0;
	if (row->op == ADD)
		v = old + v;
	else if (row->op == SUB)
		v = old - v;
	else if (!rela)
		v += old; /* REL: the addend is the field */
	put_field(p, row->size, c->msb, v);
	return 0;
}

static bool good_relocs(const Elf_Data *rd, bool rela, const char **why)
{
	if (rd->d_type == (rela ? ELF_T_RELA : ELF_T_REL))
		return true;
	*why = "bad relocation section";
	return false;
}

/* The relocations in rel of its target, a DWARF section's data t. */
static int apply_to(const struct rel *c, Elf_Data *rd, bool rela, Elf_Data *t, const char **why)
{
	size_t n = rd->d_size / entry_size(c, rela);
	int r = good_relocs(rd, rela, why) ? 0 : -EINVAL;

	for (size_t i = 0; !r && i < n; i++) {
		struct reloc e;

		get_reloc(c, rd, rela, i, &e);
		r = apply_one(c, &e, rela, t, why);
	}
	return r;
}

/* A buffer of len bytes that out frees. */
static void *new_buf(struct ks_dwarfrel *out, size_t len)
{
	ks_array_room((void **)&out->bufs, &out->cap, out->n + 1, sizeof(*out->bufs));
	return out->bufs[out->n++] = ks_xmalloc(len);
}

/* t's data moved to a copy of its own, which out keeps. */
static void copy_data(Elf_Data *t, struct ks_dwarfrel *out)
{
	void *p = new_buf(out, t->d_size);

	memcpy(p, t->d_buf, t->d_size);
	t->d_buf = p;
}

/* A relocation section whose target is a DWARF section libdw reads: the
 * target, its name, and both sections' data (decompressed). 1 if it is
 * one, 0 if not, or -EINVAL. */
struct pair {
	Elf_Scn *target;
	const char *name;
	Elf_Data *rd, *t;
	bool rela;
};

static int dwarf_pair(const struct rel *c, Elf_Scn *rel, const GElf_Shdr *rsh, size_t shstrndx,
		      struct pair *p, const char **why)
{
	GElf_Shdr tsh;

	p->target = elf_getscn(c->elf, rsh->sh_info);
	p->rela = rsh->sh_type == SHT_RELA;
	if (rsh->sh_link != c->symtab || !p->target || !gelf_getshdr(p->target, &tsh) ||
	    (tsh.sh_flags & SHF_ALLOC) || tsh.sh_type == SHT_NOBITS ||
	    !(p->name = elf_strptr(c->elf, shstrndx, tsh.sh_name)) || !dwarf_section(p->name))
		return 0;
	if (!c->ntypes) {
		*why = "this machine's relocations are not read (x86, arm, arm64, ppc64, riscv and "
		       "s390 are)";
		return -EINVAL;
	}
	if ((tsh.sh_flags & SHF_COMPRESSED) && elf_compress(p->target, 0, 0) < 0) {
		*why = "cannot decompress a DWARF section";
		return -EINVAL;
	}
	if (!(p->rd = elf_getdata(rel, NULL)) || !(p->t = elf_getdata(p->target, NULL))) {
		*why = "cannot read a DWARF section or its relocations";
		return -EINVAL;
	}
	return p->t->d_size && p->rd->d_buf ? 1 : 0;
}

/* Calls fn for each relocation section of a DWARF section libdw reads. */
typedef int pair_fn(struct rel *c, struct pair *p, void *arg, const char **why);

static int each_pair(struct rel *c, pair_fn *fn, void *arg, const char **why)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	int r = 0;

	if (elf_getshdrstrndx(c->elf, &shstrndx) < 0) {
		*why = "cannot read section names";
		return -EINVAL;
	}
	while (!r && c->nsyms && (scn = elf_nextscn(c->elf, scn))) {
		GElf_Shdr sh;
		struct pair p;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL))
			continue;
		r = dwarf_pair(c, scn, &sh, shstrndx, &p, why);
		if (r > 0)
			r = fn(c, &p, arg, why);
	}
	return r;
}

static int copy_and_apply(struct rel *c, struct pair *p, void *out, const char **why)
{
	copy_data(p->t, out);
	return apply_to(c, p->rd, p->rela, p->t, why);
}

int ks_dwarfrel_apply(Elf *elf, struct ks_dwarfrel *out, const char **why)
{
	struct rel c = { .elf = elf };
	int r = start(&c, why);

	if (!r)
		r = each_pair(&c, copy_and_apply, out, why);
	free(c.value);
	free(c.sym_ok);
	return r;
}

/* .debug_info made of some of its units (ks_dwarfrel_units()). */
struct ks_dwarfrel_part {
	struct rel c;
	Elf_Data *rd, *t;	  /* .debug_info's relocations (or NULL) and data */
	const unsigned char *src; /* its own bytes */
	size_t n, size;		  /* entries in rd; bytes in src */
	bool unsorted;		  /* an entry found out of order: a unit's are found by a scan */
};

/* Whether .debug_info can be relocated a range at a time: RELA entries
 * of types that set the field (so applying one twice does no harm). They
 * are taken to be in offset order, as assemblers write them and ld -r
 * keeps them; the entries of each unit are checked as they are applied. */
static int check_pair(struct rel *c, struct pair *p, void *ok, const char **why)
{
	(void)c;
	if (!p->rela || !good_relocs(p->rd, true, why))
		*(bool *)ok = false;
	return 0;
}

static bool all_set(const struct rel *c)
{
	for (size_t i = 0; i < c->ntypes; i++)
		if (c->types[i].op != SET)
			return false;
	return true;
}

/* Every section but .debug_info relocated in a copy; .debug_info's
 * relocations kept for ks_dwarfrel_units(). */
static int begin_pair(struct rel *c, struct pair *p, void *arg, const char **why)
{
	struct ks_dwarfrel *out = arg;
	struct ks_dwarfrel_part *part = out->part;

	if (!strcmp(p->name, ".debug_info")) {
		part->rd = p->rd;
		part->n = p->rd->d_size / entry_size(c, true);
		return 0;
	}
	copy_data(p->t, out);
	return apply_to(c, p->rd, true, p->t, why);
}

/* The section called name with bytes in the file, and its header. */
static Elf_Scn *find_section(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	const char *s;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, sh) && sh->sh_type != SHT_NOBITS &&
		    (s = elf_strptr(elf, shstrndx, sh->sh_name)) && !strcmp(s, name))
			return scn;
	return NULL;
}

Elf_Data *ks_dwarfrel_data(Elf *elf, const char *name)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_section(elf, name, &sh);

	return scn && !(sh.sh_flags & SHF_COMPRESSED) ? elf_getdata(scn, NULL) : NULL;
}

static void free_part(struct ks_dwarfrel_part *p)
{
	if (p) {
		free(p->c.value);
		free(p->c.sym_ok);
		free(p);
	}
}

int ks_dwarfrel_begin(Elf *elf, struct ks_dwarfrel *out, const char **why)
{
	struct ks_dwarfrel_part *p = ks_xcalloc(1, sizeof(*p));
	Elf_Data *t;
	bool ok;
	int r;

	p->c.elf = elf;
	out->part = p;
	r = start(&p->c, why);
	ok = all_set(&p->c);
	if (!r && ok)
		r = each_pair(&p->c, check_pair, &ok, why);
	if (!r && ok)
		r = each_pair(&p->c, begin_pair, out, why);
	if (!r && ok && (t = ks_dwarfrel_data(elf, ".debug_info")) && t->d_buf) {
		p->t = t;
		p->src = t->d_buf;
		p->size = t->d_size;
	}
	if (r || !ok || !p->t) {
		out->part = NULL;
		free_part(p);
		return r ? r : !ok ? 1 : 0;
	}
	return 0;
}

static uint64_t entry_off(const struct ks_dwarfrel_part *p, size_t i)
{
	struct reloc e;

	get_reloc(&p->c, p->rd, true, i, &e);
	return e.off;
}

/* The first entry at or after offset lo, by bisection. */
static size_t first_at(const struct ks_dwarfrel_part *p, uint64_t lo)
{
	size_t a = 0, b = p->n;

	while (a < b) {
		size_t mid = a + (b - a) / 2;

		if (entry_off(p, mid) < lo)
			a = mid + 1;
		else
			b = mid;
	}
	return a;
}

/* The entries of [lo, hi) applied at their offset less shift: found by
 * bisection while they are sorted, else by a scan. */
static int apply_range(struct ks_dwarfrel_part *p, uint64_t lo, uint64_t hi, uint64_t shift,
		       const char **why)
{
	uint64_t last = lo;
	int r = 0;

	for (size_t i = p->unsorted ? 0 : first_at(p, lo); !r && i < p->n; i++) {
		struct reloc e;

		get_reloc(&p->c, p->rd, true, i, &e);
		if (!p->unsorted && e.off < last) {
			p->unsorted = true; /* assemblers write them in order; ld -r keeps it */
			return apply_range(p, lo, hi, shift, why);
		}
		if (!p->unsorted && e.off >= hi)
			break;
		last = e.off;
		if (e.off < lo || e.off >= hi)
			continue;
		e.off -= shift;
		r = apply_one(&p->c, &e, true, p->t, why);
	}
	return r;
}

/* The bytes of unit i that are kept: none if it overlaps the one
 * before or lies past the section's end. */
static uint64_t kept(const struct ks_dwarfrel_part *p, const struct ks_dwarfrel_range *u, size_t i)
{
	uint64_t hi = u[i].hi < p->size ? u[i].hi : p->size;

	return u[i].lo >= hi || (i && u[i].lo < u[i - 1].hi) ? 0 : hi - u[i].lo;
}

int ks_dwarfrel_units(struct ks_dwarfrel *rel, const struct ks_dwarfrel_range *u, size_t n,
		      const char **why)
{
	struct ks_dwarfrel_part *p = rel->part;
	uint64_t at = 0, total = 0;
	unsigned char *buf;
	int r = 0;

	if (!p)
		return 0;
	for (size_t i = 0; i < n; i++)
		total += kept(p, u, i);
	buf = new_buf(rel, total);
	p->t->d_buf = buf;
	p->t->d_size = total;
	for (size_t i = 0; !r && i < n; i++) {
		uint64_t len = kept(p, u, i);

		memcpy(buf + at, p->src + u[i].lo, len);
		if (len && p->rd)
			r = apply_range(p, u[i].lo, u[i].lo + len, u[i].lo - at, why);
		at += len;
	}
	return r;
}

void ks_dwarfrel_free(struct ks_dwarfrel *rel)
{
	for (size_t i = 0; i < rel->n; i++)
		free(rel->bufs[i]);
	free(rel->bufs);
	free_part(rel->part);
	memset(rel, 0, sizeof(*rel));
}
