/* Relocating a module's DWARF for libdw (dwarf/dwarfrel.h). libdwfl does
 * the same for any file, but relocates every .debug_* section through
 * gelf calls that lock, and rewrites the relocation sections as it goes:
 * most of the time spent on a big module (amdgpu.ko: 6 million
 * relocations). Here the relocation entries are read straight from their
 * data (which libelf hands out in host order), each symbol's value is
 * worked out once, and only the sections libdw reads are relocated:
 * .debug_info a unit at a time where that is safe (ks_dwarfrel_begin()),
 * else everything, each section in a copy: written in place, a mapped
 * module's pages are copied one fault at a time, with a TLB flush on
 * every CPU the reading threads ran on. */
#include <dwarf.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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
	size_t lazy[3]; /* sections whose relocations wait to be asked for (0: none) */
};

struct ks_dwarfrel;

/* Whether a symbol's value is known: worked out when a relocation first
 * needs it, as most relocate against a few section symbols. SYM_LAZY: it
 * has one, in a section of rel.lazy. */
enum { SYM_UNKNOWN, SYM_VALUE, SYM_NONE, SYM_LAZY };

/* One relocation entry, whatever the class. */
struct reloc {
	uint64_t off, sym;
	uint32_t type;
	int64_t addend;
};

void ks_dwarfrel_source(struct ks_dwarfrel *rel, const char *image, size_t size, int fd)
{
	rel->src.image = fd >= 0 ? image : NULL;
	rel->src.size = size;
	rel->src.fd = fd;
}

void ks_dwarfrel_prewrite(char *image, size_t size)
{
	const unsigned char *p = (const unsigned char *)image;
	bool msb, is64;
	uint64_t off, n;

	if (size < EI_NIDENT || memcmp(image, ELFMAG, SELFMAG) ||
	    (p[EI_CLASS] != ELFCLASS64 && p[EI_CLASS] != ELFCLASS32))
		return;
	msb = p[EI_DATA] == ELFDATA2MSB;
	is64 = p[EI_CLASS] == ELFCLASS64;
	if (size < (is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
		return;
	off = ks_dwarfrel_field(p + (is64 ? offsetof(Elf64_Ehdr, e_shoff)
					  : offsetof(Elf32_Ehdr, e_shoff)),
				is64 ? 8 : 4, msb);
	n = ks_dwarfrel_field(p + (is64 ? offsetof(Elf64_Ehdr, e_shnum)
					: offsetof(Elf32_Ehdr, e_shnum)),
			      2, msb) *
	    ks_dwarfrel_field(p + (is64 ? offsetof(Elf64_Ehdr, e_shentsize)
					: offsetof(Elf32_Ehdr, e_shentsize)),
			      2, msb);
#ifdef MADV_POPULATE_WRITE
	if (n && ks_in_range(off, n, size)) {
		uintptr_t at = (uintptr_t)(image + off) & ~(uintptr_t)4095;

		madvise((void *)at, (size_t)n + ((uintptr_t)(image + off) - at), MADV_POPULATE_WRITE);
	}
#else
	(void)off, (void)n;
#endif
}

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

/* The symbol table and its extended section indices. */
static int read_symbols(struct rel *c, Elf_Scn *symtab, const GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	c->syms = elf_getdata(symtab, NULL);
	while ((scn = elf_nextscn(c->elf, scn))) {
		GElf_Shdr x;

		if (gelf_getshdr(scn, &x) && x.sh_type == SHT_SYMTAB_SHNDX && x.sh_link == c->symtab)
			c->xndx = elf_getdata(scn, NULL);
	}
	c->nsyms = c->syms && sh->sh_entsize ? c->syms->d_size / sh->sh_entsize : 0;
	c->value = calloc(c->nsyms ? c->nsyms : 1, sizeof(*c->value));
	c->sym_ok = calloc(c->nsyms ? c->nsyms : 1, 1);
	return c->value && c->sym_ok ? 0 : -ENOMEM;
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
		for (size_t k = 0; k < sizeof(c->lazy) / sizeof(c->lazy[0]); k++)
			if (c->lazy[k] && ndx == c->lazy[k])
				c->sym_ok[i] = SYM_LAZY;
	}
	*v = c->value[i];
	return c->sym_ok[i] == SYM_VALUE || c->sym_ok[i] == SYM_LAZY;
}

static bool sym_lazy(const struct rel *c, size_t i)
{
	uint64_t v;

	return sym_value(c, i, &v) && c->sym_ok[i] == SYM_LAZY;
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

bool ks_dwarfrel_entry(const Elf_Data *d, bool is64, bool rela, size_t i, GElf_Rela *out)
{
	struct rel c = { .is64 = is64 };
	size_t n = is64 ? (rela ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel))
			: (rela ? sizeof(Elf32_Rela) : sizeof(Elf32_Rel));
	struct reloc r;

	if (d->d_type != (rela ? ELF_T_RELA : ELF_T_REL) || i >= d->d_size / n)
		return false;
	get_reloc(&c, d, rela, i, &r);
	*out = (GElf_Rela){ r.off, GELF_R_INFO(r.sym, r.type), r.addend };
	return true;
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

/* Maps the pages of [p, p + len) that are not yet: one call instead of a
 * fault per page (per 16, where the kernel maps a file's neighbouring
 * pages in one fault), for the parts of a mapped module read in full
 * (MADV_POPULATE_READ) and the copies written in full (_WRITE). */
static void populate(const void *p, size_t len, int advice)
{
	uintptr_t at = (uintptr_t)p & ~(uintptr_t)4095;

	if (len >= 65536 && advice)
		madvise((void *)at, len + ((uintptr_t)p - at), advice);
}

#ifdef MADV_POPULATE_READ
#define FOR_READ MADV_POPULATE_READ
#define FOR_WRITE MADV_POPULATE_WRITE
#else
#define FOR_READ 0
#define FOR_WRITE 0
#endif

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
	old = rela && row->op == SET ? 0 : ks_dwarfrel_field(p, row->size, c->msb);
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

	populate(rd->d_buf, rd->d_size, FOR_READ);
	for (size_t i = 0; !r && i < n; i++) {
		struct reloc e;

		get_reloc(c, rd, rela, i, &e);
		r = apply_one(c, &e, rela, t, why);
	}
	return r;
}

/* Buffers from HUGE bytes on are mapped in huge pages where the kernel
 * offers them: a fault per 2 MB instead of per 4 KB, which is most of the
 * cost of copying a big module's DWARF. */
#define HUGE ((size_t)2 << 20)

/* Where a buffer mapped to use huge pages starts. */
static void *buf_start(const struct ks_dwarfrel_buf *b)
{
	return b->mapped ? (void *)(((uintptr_t)b->p + HUGE - 1) / HUGE * HUGE) : b->p;
}

static size_t buf_room(const struct ks_dwarfrel_buf *b)
{
	return b->len - (size_t)((char *)buf_start(b) - (char *)b->p);
}

static void buf_release(struct ks_dwarfrel_buf *b)
{
	if (b->mapped)
		munmap(b->p, b->len);
	else
		free(b->p);
}

/* A copy (of the units, of other sections) comes from, and goes back to,
 * this thread's spares: each page of a new buffer costs
 * a fault, in which the kernel zeroes it, and for a module's units that
 * is ten times the copy itself; a spare's pages are there already. A few
 * are kept per thread, each of at most SPARE_MAX bytes, and freed when
 * the thread ends. */
#define SPARE_MAX ((size_t)64 << 20)
enum { SPARES = 4 };
static __thread struct ks_dwarfrel_buf spares[SPARES];
static pthread_key_t spare_key;
static pthread_once_t spare_once = PTHREAD_ONCE_INIT;

static void spares_drop(void *unused)
{
	(void)unused;
	for (size_t i = 0; i < SPARES; i++)
		if (spares[i].p)
			buf_release(&spares[i]);
	memset(spares, 0, sizeof(spares));
}

static void spare_key_make(void)
{
	if (pthread_key_create(&spare_key, spares_drop) != 0)
		spare_key = (pthread_key_t)-1;
}

/* b kept as a spare in place of the smallest, if it is bigger; else
 * freed. */
static void spare_keep(struct ks_dwarfrel_buf *b)
{
	size_t k = 0;

	pthread_once(&spare_once, spare_key_make);
	for (size_t i = 0; i < SPARES; i++) { /* an empty one, else the smallest */
		if (!spares[i].p) {
			k = i;
			break;
		}
		if (buf_room(&spares[i]) < buf_room(&spares[k]))
			k = i;
	}
	if (b->len > SPARE_MAX || spare_key == (pthread_key_t)-1 ||
	    pthread_setspecific(spare_key, spares) != 0 ||
	    (spares[k].p && buf_room(&spares[k]) >= buf_room(b))) {
		buf_release(b);
		return;
	}
	if (spares[k].p)
		buf_release(&spares[k]);
	spares[k] = *b;
}

/* The smallest spare of len bytes or more, taken; false if none. */
static bool spare_take(size_t len, struct ks_dwarfrel_buf *b)
{
	size_t k = SPARES;

	for (size_t i = 0; i < SPARES; i++)
		if (spares[i].p && buf_room(&spares[i]) >= len &&
		    (k == SPARES || buf_room(&spares[i]) < buf_room(&spares[k])))
			k = i;
	if (k == SPARES)
		return false;
	*b = spares[k];
	memset(&spares[k], 0, sizeof(spares[k]));
	return true;
}

/* A buffer of len bytes that out frees: zeroed, unless full (the caller
 * writes every byte); NULL if out of memory. */
static void *new_buf(struct ks_dwarfrel *out, size_t len, bool full)
{
	struct ks_dwarfrel_buf b = { NULL, len ? len : 1, false };

	if (out->n == out->cap) {
		size_t cap = out->cap ? out->cap * 2 : 8;
		struct ks_dwarfrel_buf *v = realloc(out->bufs, cap * sizeof(*v));

		if (!v)
			return NULL;
		out->bufs = v;
		out->cap = cap;
	}
	if (spare_take(b.len, &b)) {
		out->bufs[out->n++] = b;
		if (!full)
			memset(buf_start(&b), 0, len);
		return buf_start(&b);
	}
	if (b.len >= HUGE) {
		b.len = (b.len + HUGE - 1) / HUGE * HUGE + HUGE; /* room to align */
		b.p = mmap(NULL, b.len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		b.mapped = b.p != MAP_FAILED;
		b.p = b.mapped ? b.p : NULL;
	}
	if (!b.p && !(b.p = calloc(1, b.len)))
		return NULL;
	out->bufs[out->n++] = b;
	if (b.mapped)
		madvise(buf_start(&b), buf_room(&b), MADV_HUGEPAGE);
	return buf_start(&b);
}

/* t's data moved to a copy of its own, which out keeps. */
static int copy_data(Elf_Data *t, struct ks_dwarfrel *out)
{
	void *p = new_buf(out, t->d_size, true);

	if (!p)
		return -ENOMEM;
	populate(t->d_buf, t->d_size, FOR_READ);
	populate(p, t->d_size, FOR_WRITE);
	memcpy(p, t->d_buf, t->d_size);
	t->d_buf = p;
	return 0;
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
		*why = "relocations of this machine are not known";
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
	if (copy_data(p->t, out) < 0)
		return -ENOMEM;
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

/* A section relocated a piece at a time into a copy (t's data then). */
struct piecewise {
	Elf_Data *rd, *t;	  /* its relocations (if any) and data */
	const unsigned char *src; /* its own bytes */
	size_t n, size;		  /* entries in rd; bytes in src */
	bool unsorted;		  /* an entry found out of order: pieces are found by a scan */
	size_t hint;		  /* the entry first_at() last found, plus 1 (0: none yet) */
	struct blocks *blocks;	  /* rd's entries read from the file, or NULL */
};

/* The entries of a piecewise section's relocations are looked up a few at
 * a time all over it: when the object is a mapped file
 * (ks_dwarfrel_source()), read in blocks with pread() and kept, not
 * paged in; in a big module, a page first touched costs more than a read
 * of it, and more again to unmap. */
#define BLOCK 4096
#define NBLOCKS 16

struct blocks {
	int fd;
	uint64_t at; /* where rd's data lies in the file */
	uint64_t size;
	int64_t no[NBLOCKS];			 /* the block held in each slot, or -1 */
	unsigned char data[NBLOCKS][BLOCK + 32]; /* a block and the start of the next */
};

static struct blocks *blocks_new(const struct ks_dwarfrel *rel, const Elf_Data *rd)
{
	const char *p = rd ? rd->d_buf : NULL;
	struct blocks *b;

	if (!rel->src.image || !p || p < rel->src.image ||
	    rd->d_size > rel->src.size - (size_t)(p - rel->src.image) || !(b = malloc(sizeof(*b))))
		return NULL;
	b->fd = rel->src.fd;
	b->at = (uint64_t)(p - rel->src.image);
	b->size = rd->d_size;
	for (size_t i = 0; i < NBLOCKS; i++)
		b->no[i] = -1;
	return b;
}

/* Entry i of w's relocations. */
static void w_reloc(const struct rel *c, struct piecewise *w, size_t i, struct reloc *r)
{
	struct blocks *b = w->blocks;
	size_t ent = entry_size(c, true);
	uint64_t off = (uint64_t)i * ent, no = off / BLOCK;
	size_t slot = (size_t)(no % NBLOCKS);

	if (b && b->no[slot] != (int64_t)no) {
		uint64_t from = b->at + no * BLOCK, len = b->size - no * BLOCK;
		ssize_t got;

		len = len < sizeof(b->data[0]) ? len : sizeof(b->data[0]);
		got = pread(b->fd, b->data[slot], (size_t)len, (off_t)from);
		b->no[slot] = got == (ssize_t)len ? (int64_t)no : -1;
	}
	if (b && b->no[slot] == (int64_t)no)
		decode_reloc(c, (const char *)b->data[slot] + (off - no * BLOCK), true, r);
	else
		get_reloc(c, w->rd, true, i, r);
}

/* .debug_info made of some of its units, .debug_line of the line
 * programs of those, relocated. */
struct ks_dwarfrel_part {
	struct rel c;
	struct piecewise info, line, rnglists;
	bool rnglists_whole; /* copied whole, relocated */
	struct placed {	     /* where each kept unit went */
		uint64_t lo, at, len;
	} * placed;
	size_t nplaced;
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

struct begin {
	struct ks_dwarfrel *out;
	struct ks_dwarfrel_part *part;
};

static void piecewise_init(const struct ks_dwarfrel *rel, struct piecewise *w, Elf_Data *t,
			   Elf_Data *rd, size_t n)
{
	*w = (struct piecewise){ .rd = rd, .t = t, .src = t->d_buf, .n = n, .size = t->d_size };
	w->blocks = blocks_new(rel, rd);
}

/* Every section but .debug_info and .debug_line relocated in a copy;
 * .debug_line's copy is empty until ks_dwarfrel_line() fills a program
 * in at its offset. */
static int begin_pair(struct rel *c, struct pair *p, void *arg, const char **why)
{
	struct begin *b = arg;
	size_t n = p->rd->d_size / entry_size(c, true);
	void *buf;

	if (!strcmp(p->name, ".debug_info")) {
		piecewise_init(b->out, &b->part->info, p->t, p->rd, n);
		return 0;
	}
	if (!strcmp(p->name, ".debug_line") || !strcmp(p->name, ".debug_rnglists")) {
		if (!(buf = new_buf(b->out, p->t->d_size, false)))
			return -ENOMEM;
		piecewise_init(b->out, p->name[7] == 'l' ? &b->part->line : &b->part->rnglists,
			       p->t, p->rd, n);
		p->t->d_buf = buf;
		return 0;
	}
	if (copy_data(p->t, b->out) < 0)
		return -ENOMEM;
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

const char *ks_dwarfrel_string(const Elf_Data *d, uint64_t off)
{
	const char *s;

	if (!d || !d->d_buf || off >= d->d_size)
		return NULL;
	s = (const char *)d->d_buf + off;
	/* a section that ends in a NUL ends every string in it: no need to
	 * read a string (and fault its page in) before it is used */
	if (((const char *)d->d_buf)[d->d_size - 1] == '\0')
		return s;
	return memchr(s, '\0', d->d_size - off) ? s : NULL;
}

/* The sections whose relocations in .debug_info wait until asked for:
 * strings (ks_dwarfrel_value(), for the few names read), and location
 * lists, never read. Most of a kernel unit's relocations are its names'. */
static void lazy_sections(struct rel *c)
{
	static const char *const names[] = { ".debug_str", ".debug_loclists", ".debug_loc" };
	GElf_Shdr sh;
	Elf_Scn *scn;

	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		if ((scn = find_section(c->elf, names[k], &sh)))
			c->lazy[k] = elf_ndxscn(scn);
}

static void free_part(struct ks_dwarfrel_part *p)
{
	if (p) {
		free(p->info.blocks);
		free(p->line.blocks);
		free(p->rnglists.blocks);
		free(p->placed);
		free(p->c.value);
		free(p->c.sym_ok);
		free(p);
	}
}

int ks_dwarfrel_begin(Elf *elf, struct ks_dwarfrel *out, const char **why)
{
	struct ks_dwarfrel_part *p = calloc(1, sizeof(*p));
	Elf_Data *t;
	bool ok = true;
	int r;

	if (!p)
		return -ENOMEM;
	p->c.elf = elf;
	lazy_sections(&p->c);
	r = start(&p->c, why);
	ok = all_set(&p->c);
	if (!r && ok)
		r = each_pair(&p->c, check_pair, &ok, why);
	if (!r && ok)
		r = each_pair(&p->c, begin_pair, &(struct begin){ out, p }, why);
	if (!r && ok && !p->info.t && (t = ks_dwarfrel_data(elf, ".debug_info")) && t->d_buf)
		piecewise_init(out, &p->info, t, NULL, 0);
	if (r || !ok) {
		free_part(p);
		return r ? r : 1;
	}
	out->part = p;
	return 0;
}

static uint64_t entry_off(const struct rel *c, struct piecewise *w, size_t i)
{
	struct reloc e;

	w_reloc(c, w, i, &e);
	return e.off;
}

/* The first entry at or after offset lo, if the entries are sorted. A
 * piece's entries are about where its offset says, spread evenly over the
 * section, and the fields read one after another are near each other:
 * the search gallops out from the entry found last (the first time, from
 * where the offset says), then bisects, and so reads a few pages of a big
 * module's relocations, not one page per step of a bisection of them all. */
static size_t first_at(const struct rel *c, struct piecewise *w, uint64_t lo)
{
	size_t guess =
		w->hint ? w->hint - 1
			: (size_t)((double)lo / (double)(w->size ? w->size : 1) * (double)w->n);
	size_t a = 0, b = w->n, step = w->hint ? 4 : 16;

	if (!w->n)
		return 0;
	guess = guess < w->n ? guess : w->n - 1;
	if (entry_off(c, w, guess) < lo) {
		for (a = guess + 1; a + step < w->n && entry_off(c, w, a + step - 1) < lo; step *= 2)
			a += step;
		b = a + step < w->n ? a + step : w->n;
	} else {
		for (b = guess; b >= step && entry_off(c, w, b - step) >= lo; step *= 2)
			b -= step;
		a = b >= step ? b - step : 0;
	}
	while (a < b) {
		size_t mid = a + (b - a) / 2;

		if (entry_off(c, w, mid) < lo)
			a = mid + 1;
		else
			b = mid;
	}
	w->hint = a + 1;
	return a;
}

/* The entries in [lo, hi), found by bisection, applied at their offset
 * less shift; 1 if one is out of order. */
static int piece_sorted(const struct rel *c, struct piecewise *w, uint64_t lo, uint64_t hi,
			uint64_t shift, bool all, const char **why)
{
	uint64_t last = lo;
	size_t first = first_at(c, w, lo), ent = entry_size(c, true);

	/* a unit has about a relocation per 16 of its bytes */
	if (!w->blocks)
		populate((const char *)w->rd->d_buf + first * ent,
			 ((hi - lo) / 8 < w->n - first ? (hi - lo) / 8 : w->n - first) * ent,
			 FOR_READ);
	for (size_t i = first; i < w->n; i++) {
		struct reloc e;
		int r;

		w_reloc(c, w, i, &e);
		if (e.off < last)
			return 1;
		if (e.off >= hi)
			break;
		last = e.off;
		e.off -= shift;
		if ((all || !sym_lazy(c, e.sym)) && (r = apply_one(c, &e, true, w->t, why)) < 0)
			return r;
	}
	return 0;
}

/* Applies the relocations of the section's [lo, hi) at their offset less
 * shift; those against symbols of rel.lazy only if all. */
static int apply_range(const struct rel *c, struct piecewise *w, uint64_t lo, uint64_t hi,
		       uint64_t shift, bool all, const char **why)
{
	int r = 0;

	if (!w->rd || (!w->unsorted && (r = piece_sorted(c, w, lo, hi, shift, all, why)) <= 0))
		return r;
	w->unsorted = true;
	r = 0;
	for (size_t i = 0; !r && i < w->n; i++) {
		struct reloc e;

		w_reloc(c, w, i, &e);
		if (e.off >= lo && e.off < hi && (all || !sym_lazy(c, e.sym))) {
			e.off -= shift;
			r = apply_one(c, &e, true, w->t, why);
		}
	}
	return r;
}

/* The piece at [lo, hi) of the section copied to at. */
static void copy_bytes(struct piecewise *w, uint64_t lo, uint64_t hi, uint64_t at)
{
	populate(w->src + lo, hi - lo, FOR_READ);
	populate((unsigned char *)w->t->d_buf + at, hi - lo, FOR_WRITE);
	memcpy((unsigned char *)w->t->d_buf + at, w->src + lo, hi - lo);
}

/* The piece at [lo, hi) of the section copied to at, and relocated there
 * (but for rel.lazy's relocations, unless all). */
static int copy_piece(const struct rel *c, struct piecewise *w, uint64_t lo, uint64_t hi,
		      uint64_t at, bool all, const char **why)
{
	copy_bytes(w, lo, hi, at);
	return apply_range(c, w, lo, hi, lo - at, all, why);
}

/* The most bytes a unit's header takes: a 64-bit DWARF 5 type unit's. */
#define UNIT_HEADER 40

/* The relocations of the headers of the units in [lo, hi) (the offsets
 * of their abbreviations, which libdw reads of every unit it meets). */
static int apply_headers(const struct rel *c, struct piecewise *w, uint64_t lo, uint64_t hi,
			 uint64_t shift, const char **why)
{
	uint64_t head, len;
	int r = 0;

	while (!r && lo < hi && ks_dwarfrel_length(w->src + lo, hi - lo, c->msb, &head, &len)) {
		r = apply_range(c, w, lo, lo + UNIT_HEADER < hi ? lo + UNIT_HEADER : hi, shift,
				true, why);
		lo += head + len;
	}
	return r;
}

/* The bytes of unit i that are kept: none if it overlaps the one
 * before or lies past the section's end. */
static uint64_t kept(const struct piecewise *w, const struct ks_dwarfrel_range *u, size_t i)
{
	uint64_t hi = u[i].hi < w->size ? u[i].hi : w->size;

	return u[i].lo >= hi || (i && u[i].lo < u[i - 1].hi) ? 0 : hi - u[i].lo;
}

int ks_dwarfrel_units(struct ks_dwarfrel *rel, const struct ks_dwarfrel_range *u, size_t n,
		      bool wait, const char **why)
{
	struct ks_dwarfrel_part *p = rel->part;
	struct piecewise *w = p ? &p->info : NULL;
	uint64_t at = 0, total = 0;
	int r = 0;

	if (!w || !w->t)
		return 0;
	for (size_t i = 0; i < n; i++)
		total += kept(w, u, i);
	free(p->placed);
	p->nplaced = 0;
	if (!(p->placed = calloc(n ? n : 1, sizeof(*p->placed))) ||
	    !(w->t->d_buf = new_buf(rel, total, true)))
		return -ENOMEM;
	w->t->d_size = total;
	for (size_t i = 0; !r && i < n; i++) {
		uint64_t len = kept(w, u, i);

		if (len && wait) {
			copy_bytes(w, u[i].lo, u[i].lo + len, at);
			r = apply_headers(&p->c, w, u[i].lo, u[i].lo + len, u[i].lo - at, why);
		} else if (len) {
			r = copy_piece(&p->c, w, u[i].lo, u[i].lo + len, at, false, why);
		}
		if (len)
			p->placed[p->nplaced++] = (struct placed){ u[i].lo, at, len };
		at += len;
	}
	return r;
}

int ks_dwarfrel_line(struct ks_dwarfrel *rel, uint64_t off, const char **why)
{
	struct piecewise *w = rel->part ? &rel->part->line : NULL;
	uint64_t len, head;

	if (!w || !w->t || off >= w->size ||
	    !ks_dwarfrel_length(w->src + off, w->size - off, rel->part->c.msb, &head, &len))
		return 0;
	return copy_piece(&rel->part->c, w, off, off + head + len, off, true, why);
}

/* The end of the DWARF 5 range list at p (before end), whose addresses are
 * size bytes; NULL if it runs off. */
static const unsigned char *rnglist_end(const unsigned char *p, const unsigned char *end,
					unsigned size)
{
	uint64_t v;

	while (p < end) {
		unsigned op = *p++, addrs = 0, lebs = 0;

		switch (op) {
		case DW_RLE_end_of_list:
			return p;
		case DW_RLE_base_addressx:
			lebs = 1;
			break;
		case DW_RLE_startx_endx:
		case DW_RLE_startx_length:
		case DW_RLE_offset_pair:
			lebs = 2;
			break;
		case DW_RLE_base_address:
			addrs = 1;
			break;
		case DW_RLE_start_end:
			addrs = 2;
			break;
		case DW_RLE_start_length:
			addrs = 1, lebs = 1;
			break;
		default:
			return NULL;
		}
		if ((size_t)(end - p) < addrs * size)
			return NULL;
		p += addrs * size;
		while (lebs--)
			if (!ks_dwarfrel_uleb(&p, end, &v))
				return NULL;
	}
	return NULL;
}

int ks_dwarfrel_rnglist(struct ks_dwarfrel *rel, uint64_t off, unsigned address_size, const char **why)
{
	struct ks_dwarfrel_part *p = rel->part;
	struct piecewise *w = p ? &p->rnglists : NULL;
	const unsigned char *end;

	if (!w || !w->t || p->rnglists_whole)
		return 0;
	end = off < w->size && (address_size == 4 || address_size == 8)
		      ? rnglist_end(w->src + off, w->src + w->size, address_size)
		      : NULL;
	if (end)
		return copy_piece(&p->c, w, off, (uint64_t)(end - w->src), off, true, why);
	p->rnglists_whole = true; /* not a list this reader knows: all of them */
	return copy_piece(&p->c, w, 0, w->size, 0, true, why);
}

/* The kept unit that holds offset off of the copy. */
static const struct placed *placed_at(const struct ks_dwarfrel_part *p, uint64_t off)
{
	for (size_t i = 0; i < p->nplaced; i++)
		if (off >= p->placed[i].at && off - p->placed[i].at < p->placed[i].len)
			return &p->placed[i];
	return NULL;
}

int ks_dwarfrel_complete(struct ks_dwarfrel *rel, uint64_t lo, uint64_t hi, const char **why)
{
	struct ks_dwarfrel_part *p = rel->part;
	const struct placed *u = p ? placed_at(p, lo) : NULL;

	if (!u || hi <= lo)
		return 0;
	hi = hi - u->at < u->len ? hi : u->at + u->len;
	return apply_range(&p->c, &p->info, u->lo + (lo - u->at), u->lo + (hi - u->at),
			   u->lo - u->at, true, why);
}

/* The offset in the units' copy of a field that lies in it. */
static bool field_at(const struct ks_dwarfrel_part *p, const void *field, uint64_t *at)
{
	const struct piecewise *w = p ? &p->info : NULL;

	if (!w || !w->rd || !w->t || (const char *)field < (const char *)w->t->d_buf)
		return false;
	*at = (uint64_t)((const char *)field - (const char *)w->t->d_buf);
	return *at < w->t->d_size;
}

int ks_dwarfrel_complete_field(struct ks_dwarfrel *rel, const void *field, size_t len,
			       const char **why)
{
	uint64_t at;

	return field_at(rel->part, field, &at) ? ks_dwarfrel_complete(rel, at, at + len, why) : 0;
}

bool ks_dwarfrel_value(struct ks_dwarfrel *rel, const void *field, uint64_t *v)
{
	struct ks_dwarfrel_part *p = rel->part;
	struct piecewise *w = p ? &p->info : NULL;
	const struct placed *u;
	uint64_t off, at, s;
	struct reloc e;

	if (!field_at(p, field, &at) || !(u = placed_at(p, at)))
		return false;
	off = u->lo + (at - u->at);
	for (size_t i = w->unsorted ? 0 : first_at(&p->c, w, off); i < w->n; i++) {
		w_reloc(&p->c, w, i, &e);
		if (e.off == off && type_row(&p->c, e.type) && sym_value(&p->c, e.sym, &s)) {
			*v = s + (uint64_t)e.addend;
			return true;
		}
		if (!w->unsorted && e.off > off)
			break;
	}
	return false;
}

void ks_dwarfrel_free(struct ks_dwarfrel *rel)
{
	for (size_t i = 0; i < rel->n; i++)
		spare_keep(&rel->bufs[i]);
	free(rel->bufs);
	free_part(rel->part);
	memset(rel, 0, sizeof(*rel));
}
