/* Picking the units of .debug_info that hold a module's uses
 * (dwarf/dwarfpick.h): amdgpu.ko has 94 MB of it in some 300 units and
 * 6 million relocations, and a use or two lie in a few of them. */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array.h"
#include "dwarf/dwarfpick.h"
#include "module/section.h"

struct pick {
	Elf *elf, *delf; /* the module (symbols, relocations), the DWARF's object */
	bool msb;
	struct ks_spans ranges; /* .debug_aranges, each with its unit */
	uint64_t *units; /* the starts of the units found */
	size_t nunits, ucap;
};

/* One set of .debug_aranges, [p, end): its header, then (address,
 * length) pairs from the next multiple of twice the address size. */
static void read_set(struct pick *k, const unsigned char *set, const unsigned char *p,
		     const unsigned char *end, unsigned osize)
{
	uint64_t unit;
	unsigned asize;
	size_t at;

	if (end - p < 2 + osize + 2 || ks_bytes_field(p, 2, k->msb) != 2)
		return;
	unit = ks_bytes_field(p + 2, osize, k->msb);
	asize = p[2 + osize];
	if ((asize != 4 && asize != 8) || p[3 + osize])
		return;
	p += 4 + osize;
	at = (size_t)(p - set);
	at = (2 * asize - at % (2 * asize)) % (2 * asize);
	if ((size_t)(end - p) < at)
		return;
	for (p += at; end - p >= 2 * asize; p += 2 * asize) {
		uint64_t lo = ks_bytes_field(p, asize, k->msb),
			 len = ks_bytes_field(p + asize, asize, k->msb);

		if (!lo && !len)
			break;
		if (len)
			ks_spans_add(&k->ranges, lo, lo + len, unit);
	}
}

/* Every set of .debug_aranges. 0, or 1 if there is none. */
static int read_aranges(struct pick *k)
{
	Elf_Data *d = ks_dwarfrel_data(k->delf, ".debug_aranges");
	const unsigned char *p, *end;

	if (!d || !d->d_buf || !d->d_size)
		return 1;
	p = d->d_buf;
	end = p + d->d_size;
	while (end - p >= 4) {
		const unsigned char *set = p;
		uint64_t head, len;

		if (!ks_bytes_length(p, (uint64_t)(end - p), k->msb, &head, &len))
			break;
		p += head;
		read_set(k, set, p, p + len, head == 12 ? 8 : 4);
		p += len;
	}
	ks_spans_sort(&k->ranges);
	return 0;
}

static int span_cmp(const void *a, const void *b)
{
	const struct ks_span *x = a, *y = b;

	return (x->lo > y->lo) - (x->lo < y->lo);
}

void ks_spans_add(struct ks_spans *s, uint64_t lo, uint64_t hi, uint64_t what)
{
	ks_array_room((void **)&s->v, &s->cap, s->n + 1, sizeof(*s->v));
	s->v[s->n++] = (struct ks_span){ lo, hi, what };
}

void ks_spans_sort(struct ks_spans *s)
{
	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), span_cmp);
}

const struct ks_span *ks_spans_find(const struct ks_spans *s, uint64_t addr)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo, k = 0; i-- > 0 && k < 4; k++)
		if (addr < s->v[i].hi)
			return &s->v[i];
	return NULL;
}

/* A defined symbol's laid-out address, if its section holds code. */
static bool code_addr(Elf *elf, const GElf_Sym *s, uint64_t *addr)
{
	Elf_Scn *scn;
	GElf_Shdr sh;

	if (s->st_shndx == SHN_UNDEF || s->st_shndx >= SHN_LORESERVE ||
	    !(scn = elf_getscn(elf, s->st_shndx)) || !gelf_getshdr(scn, &sh) ||
	    !(sh.sh_flags & SHF_EXECINSTR))
		return false;
	*addr = sh.sh_addr + s->st_value;
	return true;
}

/* The symbol table: its data, entry count, and count of locals. */
struct syms {
	Elf_Data *d;
	size_t n, nlocal, link;
};

static bool read_syms(Elf *elf, struct syms *t)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		t->d = elf_getdata(scn, NULL);
		t->n = t->d ? t->d->d_size / sh.sh_entsize : 0;
		t->nlocal = sh.sh_info < t->n ? sh.sh_info : t->n;
		t->link = elf_ndxscn(scn);
		return t->d != NULL;
	}
	return false;
}

/* The variable holding a data address: its symbol's index and bytes, and
 * the file symbol the locals of its source file follow (0: none). */
struct var {
	size_t sym, file;
	uint64_t lo, hi;
};

static bool find_var(const struct syms *t, const struct ks_dwarfpick_addr *a, struct var *v)
{
	size_t file = 0;

	for (size_t i = 1; i < t->n; i++) {
		GElf_Sym s;

		if (!gelf_getsym(t->d, (int)i, &s))
			continue;
		if (i < t->nlocal && GELF_ST_TYPE(s.st_info) == STT_FILE)
			file = i;
		if (GELF_ST_TYPE(s.st_info) != STT_OBJECT || s.st_shndx != a->scn ||
		    a->off < s.st_value || a->off - s.st_value >= (s.st_size ? s.st_size : 1))
			continue;
		*v = (struct var){ i, i < t->nlocal ? file : 0, s.st_value,
				   s.st_value + (s.st_size ? s.st_size : 1) };
		return true;
	}
	return false;
}

/* A function of the variable's source file: a local after its file
 * symbol, before the next. */
static bool file_fn(Elf *elf, const struct syms *t, const struct var *v, uint64_t *addr)
{
	for (size_t i = v->file + 1; v->file && i < t->nlocal; i++) {
		GElf_Sym s;

		if (!gelf_getsym(t->d, (int)i, &s))
			continue;
		if (GELF_ST_TYPE(s.st_info) == STT_FILE)
			break;
		if (GELF_ST_TYPE(s.st_info) == STT_FUNC && code_addr(elf, &s, addr))
			return true;
	}
	return false;
}

static void add_unit(struct pick *k, uint64_t unit)
{
	ks_array_room((void **)&k->units, &k->ucap, k->nunits + 1, sizeof(*k->units));
	k->units[k->nunits++] = unit;
}

/* The unit of one address: 0 (none, for code outside every unit, as
 * assembly is), or 1 if it cannot be told. */
static int pick_one(struct pick *k, const struct syms *t, const struct ks_dwarfpick_addr *a)
{
	uint64_t addr = a->addr;
	const struct ks_span *range;
	struct var v;

	/* a global variable's file is not known: a function it points to
	 * may be another file's (an ops table's, snd-sof-intel-hda-common.ko's
	 * sof_hda_common_ops) */
	if (!a->code && (!t->d || !find_var(t, a, &v) || !file_fn(k->elf, t, &v, &addr)))
		return 1;
	if (!(range = ks_spans_find(&k->ranges, addr)))
		return a->code ? 0 : 1;
	add_unit(k, range->what);
	return 0;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The units found, each once, with their ends from their headers. 0, or
 * 1 if a header is not one. */
static int units_out(struct pick *k, struct ks_dwarfrel_range **out, size_t *nout)
{
	Elf_Data *info = ks_dwarfrel_data(k->delf, ".debug_info");
	size_t n = 0;

	if (!info || !info->d_buf)
		return 1;
	if (k->nunits)
		qsort(k->units, k->nunits, sizeof(*k->units), u64_cmp);
	*out = ks_xcalloc(k->nunits, sizeof(**out));
	for (size_t i = 0; i < k->nunits; i++) {
		uint64_t u = k->units[i], len, head;

		if (i && u == k->units[i - 1])
			continue;
		if (u >= info->d_size || !ks_bytes_length((const unsigned char *)info->d_buf + u,
							     info->d_size - u, k->msb, &head, &len))
			return 1;
		(*out)[n++] = (struct ks_dwarfrel_range){ u, u + head + len };
	}
	*nout = n;
	return 0;
}

int ks_dwarfpick_units(Elf *elf, Elf *delf, const struct ks_dwarfpick_addr *a, size_t n,
		       struct ks_dwarfrel_range **units, size_t *nunits)
{
	struct pick k = { .elf = elf, .delf = delf };
	struct syms t = { 0 };
	GElf_Ehdr eh;
	int r = gelf_getehdr(delf, &eh) ? 0 : 1;

	*units = NULL;
	*nunits = 0;
	k.msb = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	if (!r)
		r = read_aranges(&k);
	read_syms(elf, &t);
	for (size_t i = 0; !r && i < n; i++)
		r = pick_one(&k, &t, &a[i]);
	if (!r)
		r = units_out(&k, units, nunits);
	if (r) {
		free(*units);
		*units = NULL;
		*nunits = 0;
	}
	free(k.ranges.v);
	free(k.units);
	return r;
}

/* Forms whose value lies outside the unit: in another unit (by offset or
 * by type signature), in a supplementary file, or not known until read. */
static bool crosses_units(uint64_t form)
{
	return form == DW_FORM_ref_addr || form == DW_FORM_ref_sig8 || form == DW_FORM_indirect ||
	       form == DW_FORM_ref_sup4 || form == DW_FORM_ref_sup8 || form == DW_FORM_GNU_ref_alt;
}

/* Whether the abbreviation table at off of abbrev uses only forms that
 * stay within a unit. */
static bool local_forms(const Elf_Data *abbrev, uint64_t off)
{
	const unsigned char *p, *end;
	uint64_t code, tag, at, form, skip;

	if (!abbrev || !abbrev->d_buf || off >= abbrev->d_size)
		return false;
	p = (const unsigned char *)abbrev->d_buf + off;
	end = (const unsigned char *)abbrev->d_buf + abbrev->d_size;
	while (ks_bytes_uleb(&p, end, &code) && code) {
		if (!ks_bytes_uleb(&p, end, &tag) || p++ >= end)
			return false; /* its tag, its children flag */
		do {
			if (!ks_bytes_uleb(&p, end, &at) || !ks_bytes_uleb(&p, end, &form) ||
			    crosses_units(form) ||
			    (form == DW_FORM_implicit_const && !ks_bytes_uleb(&p, end, &skip)))
				return false; /* an SLEB128 value, stepped over as one */
		} while (at || form);
	}
	return code == 0;
}

bool ks_dwarfpick_self_contained(Elf *delf)
{
	GElf_Ehdr eh;
	Elf_Data *info = ks_dwarfrel_data(delf, ".debug_info");
	Elf_Data *abbrev = ks_dwarfrel_data(delf, ".debug_abbrev");
	uint64_t off = 0, head, len;
	bool msb;

	if (!info || !info->d_buf || !gelf_getehdr(delf, &eh))
		return false;
	msb = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	while (off < info->d_size) {
		/* the unit's header: version, then (DWARF 5) unit type and
		 * address size, then its abbreviations' offset */
		const unsigned char *p = (const unsigned char *)info->d_buf + off;
		unsigned version, at, osize;

		if (!ks_bytes_length(p, info->d_size - off, msb, &head, &len) || len < 2)
			return false;
		osize = head == 12 ? 8 : 4;
		version = (unsigned)ks_bytes_field(p + head, 2, msb);
		at = version >= 5 ? 4 : 2;
		if (version < 2 || version > 5 || len < at + osize ||
		    !local_forms(abbrev, ks_bytes_field(p + head + at, osize, msb)))
			return false;
		off += head + len;
	}
	return true;
}
