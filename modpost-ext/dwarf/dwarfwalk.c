/* Reading a DIE's children straight from .debug_info
 * (dwarf/dwarfwalk.h), by the forms of DWARF 2 to 5 and GNU's. */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "dwarf/bytes.h"
#include "dwarf/dwarfwalk.h"
#include "module/section.h"

/* Abbreviation codes indexed directly; a table with higher ones is left
 * to libdw. */
#define MAX_CODE 65536

static int add_spec(struct ks_dwarfwalk *w, uint64_t at, uint64_t form)
{
	if (at > UINT16_MAX || form > UINT16_MAX)
		return -EINVAL;
	if (ks_array_room((void **)&w->specs, &w->capspecs, w->nspecs + 1, sizeof(*w->specs)) < 0)
		return -ENOMEM;
	w->specs[w->nspecs++] = (struct ks_dwarfwalk_spec){ (uint16_t)at, (uint16_t)form };
	return 0;
}

static int add_abbrev(struct ks_dwarfwalk *w, uint64_t code, uint64_t tag, bool children)
{
	if (!code || code >= MAX_CODE || tag > UINT32_MAX)
		return -EINVAL;
	if (code >= w->nabbrevs) {
		size_t n = code + 1 > 2 * w->nabbrevs ? code + 1 : 2 * w->nabbrevs;
		struct ks_dwarfwalk_abbrev *v = realloc(w->abbrevs, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		memset(v + w->nabbrevs, 0, (n - w->nabbrevs) * sizeof(*v));
		w->abbrevs = v;
		w->nabbrevs = n;
	}
	if (w->abbrevs[code].known)
		return -EINVAL; /* twice: not a table to trust */
	w->abbrevs[code] = (struct ks_dwarfwalk_abbrev){ .tag = (unsigned)tag,
							 .children = children,
							 .known = true,
							 .first = (uint32_t)w->nspecs };
	return 0;
}

/* The table at off of abbrev, ended by a code 0. */
static int read_abbrevs(struct ks_dwarfwalk *w, const Elf_Data *abbrev, uint64_t off)
{
	const unsigned char *p, *end;
	uint64_t code, tag, at, form, skip;
	int r;

	if (!abbrev || !abbrev->d_buf || !ks_in_range(off, 1, abbrev->d_size))
		return -EINVAL;
	p = (const unsigned char *)abbrev->d_buf + off;
	end = (const unsigned char *)abbrev->d_buf + abbrev->d_size;
	while (ks_bytes_uleb(&p, end, &code) && code) {
		if (!ks_bytes_uleb(&p, end, &tag) || p >= end)
			return -EINVAL;
		if ((r = add_abbrev(w, code, tag, *p++ == DW_CHILDREN_yes)) < 0)
			return r;
		for (;;) {
			if (!ks_bytes_uleb(&p, end, &at) || !ks_bytes_uleb(&p, end, &form))
				return -EINVAL;
			if (!at && !form)
				break;
			if (form == DW_FORM_implicit_const && !ks_bytes_uleb(&p, end, &skip))
				return -EINVAL; /* its value (an SLEB128: read as bytes) */
			if ((r = add_spec(w, at, form)) < 0)
				return r;
			w->abbrevs[code].n++;
		}
	}
	return code == 0 ? 0 : -EINVAL;
}

/* The size of a value of form, if fixed; -1 if not. */
static int fixed_size(const struct ks_dwarfwalk *w, unsigned form)
{
	switch (form) {
	case DW_FORM_flag_present:
	case DW_FORM_implicit_const:
		return 0;
	case DW_FORM_data1:
	case DW_FORM_ref1:
	case DW_FORM_flag:
	case DW_FORM_strx1:
	case DW_FORM_addrx1:
		return 1;
	case DW_FORM_data2:
	case DW_FORM_ref2:
	case DW_FORM_strx2:
	case DW_FORM_addrx2:
		return 2;
	case DW_FORM_strx3:
	case DW_FORM_addrx3:
		return 3;
	case DW_FORM_data4:
	case DW_FORM_ref4:
	case DW_FORM_ref_sup4:
	case DW_FORM_strx4:
	case DW_FORM_addrx4:
		return 4;
	case DW_FORM_data8:
	case DW_FORM_ref8:
	case DW_FORM_ref_sig8:
	case DW_FORM_ref_sup8:
		return 8;
	case DW_FORM_data16:
		return 16;
	case DW_FORM_addr:
		return (int)w->asize;
	case DW_FORM_ref_addr:
		return (int)(w->version == 2 ? w->asize : w->osize);
	case DW_FORM_strp:
	case DW_FORM_line_strp:
	case DW_FORM_sec_offset:
	case DW_FORM_strp_sup:
	case DW_FORM_GNU_ref_alt:
	case DW_FORM_GNU_strp_alt:
		return (int)w->osize;
	}
	return -1;
}

static bool ref_form(uint64_t form);

/* Each abbreviation's fixed size and where its DW_AT_sibling lies. */
static void lay_out(struct ks_dwarfwalk *w)
{
	for (size_t code = 0; code < w->nabbrevs; code++) {
		struct ks_dwarfwalk_abbrev *a = &w->abbrevs[code];
		int32_t at = 0;

		a->sib_at = -1;
		for (uint32_t i = 0; i < a->n && at >= 0; i++) {
			const struct ks_dwarfwalk_spec *s = &w->specs[a->first + i];
			int n = fixed_size(w, s->form);

			if (n < 0) {
				at = -1;
				break;
			}
			if (s->at == DW_AT_sibling && ref_form(s->form) && n <= 8) {
				a->sib_at = at;
				a->sib_size = (uint8_t)n;
			}
			at += n;
		}
		a->fixed = at;
		if (at < 0)
			a->sib_at = -1;
	}
}

int ks_dwarfwalk_open(struct ks_dwarfwalk *w, const Elf_Data *info, uint64_t unit,
		      const Elf_Data *abbrev, bool msb)
{
	const unsigned char *p;
	uint64_t head, len, aoff;
	unsigned at;
	int r;

	memset(w, 0, sizeof(*w));
	if (!info || !info->d_buf || unit >= info->d_size)
		return -EINVAL;
	w->info = info->d_buf;
	w->msb = msb;
	p = w->info + unit;
	if (!ks_bytes_length(p, info->d_size - unit, msb, &head, &len) || len < 2)
		return -EINVAL;
	w->unit = unit;
	w->end = unit + head + len;
	w->osize = head == 12 ? 8 : 4;
	p += head;
	w->version = (unsigned)ks_bytes_field(p, 2, msb);
	if (w->version < 2 || w->version > 5)
		return -EINVAL;
	/* then unit type, address size, abbreviations (DWARF 5); else
	 * abbreviations, address size */
	at = w->version >= 5 ? 4 : 2;
	if (len < at + w->osize + 1)
		return -EINVAL;
	w->asize = w->version >= 5 ? p[3] : p[2 + w->osize];
	aoff = ks_bytes_field(p + at, w->osize, msb);
	r = read_abbrevs(w, abbrev, aoff);
	if (r < 0)
		ks_dwarfwalk_close(w);
	else
		lay_out(w);
	return r;
}

/* A cursor over the unit that stops at the first overrun. */
struct cur {
	const unsigned char *p, *end;
	bool bad;
};

static void step(struct cur *c, uint64_t n)
{
	if (c->bad || n > (uint64_t)(c->end - c->p))
		c->bad = true;
	else
		c->p += n;
}

static uint64_t leb(struct cur *c)
{
	uint64_t v = 0;

	if (!c->bad && !ks_bytes_uleb(&c->p, c->end, &v))
		c->bad = true;
	return v;
}

/* Steps over a value of form; its value into *v for the fixed-size and
 * ULEB128 reference forms (the ones DW_AT_sibling takes). false: a form
 * not known here. */
static bool skip_value(const struct ks_dwarfwalk *w, struct cur *c, uint64_t form, uint64_t *v)
{
	const unsigned char *at = c->p, *nul;
	int fixed = form <= UINT16_MAX ? fixed_size(w, (unsigned)form) : -1;
	unsigned n;

	if (fixed >= 0) {
		step(c, (uint64_t)fixed);
		if (!c->bad && fixed > 0 && fixed <= 8)
			*v = ks_bytes_field(at, (unsigned)fixed, w->msb);
		return true;
	}
	switch (form) {
	case DW_FORM_sdata:
	case DW_FORM_udata:
	case DW_FORM_ref_udata:
	case DW_FORM_strx:
	case DW_FORM_addrx:
	case DW_FORM_rnglistx:
	case DW_FORM_loclistx:
	case DW_FORM_GNU_addr_index:
	case DW_FORM_GNU_str_index:
		*v = leb(c);
		return true;
	case DW_FORM_string:
		if (!c->bad && (nul = memchr(c->p, '\0', (size_t)(c->end - c->p))))
			c->p = nul + 1;
		else
			c->bad = true;
		return true;
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4:
		n = form == DW_FORM_block1 ? 1 : form == DW_FORM_block2 ? 2 : 4;
		step(c, n);
		if (!c->bad)
			step(c, ks_bytes_field(at, n, w->msb));
		return true;
	case DW_FORM_block:
	case DW_FORM_exprloc:
		step(c, leb(c));
		return true;
	case DW_FORM_indirect:
		form = leb(c);
		return !c->bad && form != DW_FORM_indirect && skip_value(w, c, form, v);
	}
	return false;
}

static bool ref_form(uint64_t form)
{
	return form == DW_FORM_ref1 || form == DW_FORM_ref2 || form == DW_FORM_ref4 ||
	       form == DW_FORM_ref8 || form == DW_FORM_ref_udata;
}

/* A DIE's sibling offset (unit-relative) sib, if it has one, as an
 * offset of info into *sibling; false if it is not within the unit and
 * past the DIE's attributes (at p), which libdw calls invalid DWARF. */
static bool sibling_at(const struct ks_dwarfwalk *w, uint64_t sib, const unsigned char *p,
		       uint64_t *sibling)
{
	*sibling = sib ? w->unit + sib : 0;
	return !sib || (sib <= w->end - w->unit && w->info + w->unit + sib > p);
}

/* A DIE's attributes stepped over; *sibling: the offset its DW_AT_sibling
 * gives, else 0. NULL: its abbreviation, or NULL for a code not known, a
 * form not known, or a sibling that is not past the DIE in its unit. */
static const struct ks_dwarfwalk_abbrev *skip_die(const struct ks_dwarfwalk *w, struct cur *c,
						  uint64_t code, uint64_t *sibling)
{
	const struct ks_dwarfwalk_abbrev *a = code < w->nabbrevs ? &w->abbrevs[code] : NULL;
	uint64_t sib = 0;

	*sibling = 0;
	if (!a || !a->known)
		return NULL;
	if (a->fixed >= 0) { /* most DIEs: attributes of fixed sizes */
		const unsigned char *at = c->p;

		step(c, (uint64_t)a->fixed);
		if (c->bad)
			return NULL;
		if (a->sib_at >= 0)
			sib = ks_bytes_field(at + a->sib_at, a->sib_size, w->msb);
		return sibling_at(w, sib, c->p, sibling) ? a : NULL;
	}
	for (uint32_t i = 0; i < a->n && !c->bad; i++) {
		const struct ks_dwarfwalk_spec *s = &w->specs[a->first + i];
		uint64_t v = 0;

		if (!skip_value(w, c, s->form, &v))
			return NULL;
		if (s->at == DW_AT_sibling && ref_form(s->form))
			sib = v;
	}
	return !c->bad && sibling_at(w, sib, c->p, sibling) ? a : NULL;
}

static int push(struct ks_dwarfwalk_die **v, size_t *n, size_t *cap, uint64_t off, unsigned tag)
{
	if (ks_array_room((void **)v, cap, *n + 1, sizeof(**v)) < 0)
		return -ENOMEM;
	(*v)[(*n)++] = (struct ks_dwarfwalk_die){ off, tag };
	return 0;
}

int ks_dwarfwalk_children(const struct ks_dwarfwalk *w, uint64_t die, bool (*want)(unsigned tag),
			  struct ks_dwarfwalk_die **v, size_t *n)
{
	struct cur c = { w->info + die, w->info + w->end, false };
	const struct ks_dwarfwalk_abbrev *a;
	uint64_t code, sib;
	size_t cap = 0, depth = 1;
	int r = 0;

	*v = NULL;
	*n = 0;
	if (die < w->unit || die >= w->end || !(code = leb(&c)) || !(a = skip_die(w, &c, code, &sib)))
		return -EINVAL;
	if (!a->children)
		return 0;
	/* the children at depth 1; below them, stepped over */
	while (!r && depth) {
		const unsigned char *at = c.p;

		if (!(code = leb(&c))) {
			depth--;
			r = c.bad ? -EINVAL : 0;
			continue;
		}
		if (!(a = skip_die(w, &c, code, &sib))) {
			r = -EINVAL;
			break;
		}
		if (depth == 1 && want(a->tag))
			r = push(v, n, &cap, (uint64_t)(at - w->info), a->tag);
		if (a->children && sib)
			c.p = w->info + sib;
		else if (a->children)
			depth++;
	}
	if (r < 0) {
		free(*v);
		*v = NULL;
		*n = 0;
	}
	return r;
}

void ks_dwarfwalk_close(struct ks_dwarfwalk *w)
{
	free(w->abbrevs);
	free(w->specs);
	memset(w, 0, sizeof(*w));
}
