/* Reading one unit's line table for a few addresses
 * (dwarf/dwarfline.h), by the rules of DWARF 2 to 5 and with libdw's
 * readings where the standard leaves room: file 0, joined names, the
 * checks that make libdw refuse a table. */
#include <dwarf.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/dwarfline.h"
#include "dwarf/dwarfrel.h"

/* A cursor over [p, end) that stops at the first overrun. */
struct cur {
	const unsigned char *p, *end;
	bool bad, msb;
};

static uint64_t fixed(struct cur *c, unsigned n)
{
	uint64_t v;

	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = true;
		return 0;
	}
	v = n <= 8 ? ks_bytes_field(c->p, n, c->msb) : 0; /* data16: skipped */
	c->p += n;
	return v;
}

static uint64_t uleb(struct cur *c)
{
	uint64_t v = 0;

	if (!c->bad && !ks_bytes_uleb(&c->p, c->end, &v))
		c->bad = true;
	return c->bad ? 0 : v;
}

static int64_t sleb(struct cur *c)
{
	int64_t v = 0;
	unsigned shift = 0;
	unsigned char b = 0;

	while (!c->bad && c->p < c->end) {
		b = *c->p++;
		if (shift < 64)
			v |= (int64_t)((uint64_t)(b & 0x7f) << shift);
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	if (c->p >= c->end && (b & 0x80))
		c->bad = true;
	if (shift < 64 && (b & 0x40))
		v |= -(int64_t)((uint64_t)1 << shift);
	return v;
}

/* The header's fixed fields; c is left at the directory table. */
struct head {
	unsigned osize;
	const unsigned char *hend; /* the end of the header */
};

static int read_fixed(struct ks_dwarfline *l, struct cur *c, unsigned address_size, struct head *h)
{
	uint64_t head, len, hlen;

	if (!ks_bytes_length(c->p, (uint64_t)(c->end - c->p), c->msb, &head, &len))
		return -EINVAL;
	h->osize = head == 12 ? 8 : 4;
	c->p += head;
	c->end = c->p + len;
	l->version = (unsigned)fixed(c, 2);
	if (l->version < 2 || l->version > 5)
		return -EINVAL;
	if (l->version >= 5 && (fixed(c, 1) != address_size || fixed(c, 1) != 0))
		return -EINVAL;
	hlen = fixed(c, h->osize);
	if (c->bad || hlen > (uint64_t)(c->end - c->p))
		return -EINVAL;
	h->hend = c->p + hlen;
	l->min_inst = (unsigned)fixed(c, 1);
	l->max_ops = l->version >= 4 ? (unsigned)fixed(c, 1) : 1;
	fixed(c, 1); /* default_is_stmt: which rows are statements, not asked */
	l->line_base = (int8_t)fixed(c, 1);
	l->line_range = (unsigned)fixed(c, 1);
	l->opcode_base = (unsigned)fixed(c, 1);
	l->lengths = c->p - 1;
	if (c->bad || !l->max_ops || !l->opcode_base || (size_t)(c->end - c->p) < l->opcode_base - 1)
		return -EINVAL;
	c->p += l->opcode_base - 1;
	l->address_size = address_size;
	for (unsigned op = l->opcode_base; op < 256 && l->line_range; op++)
		l->special[op] = (struct ks_dwarfline_special){
			l->line_base + (int)((op - l->opcode_base) % l->line_range),
			(op - l->opcode_base) / l->line_range
		};
	return 0;
}

/* Skips a value of form f; false for a form not known here. */
static bool skip_form(struct cur *c, uint64_t f, unsigned osize)
{
	static const struct {
		uint16_t form;
		uint8_t len;
	} fixed_len[] = {
		{ DW_FORM_data1, 1 }, { DW_FORM_data2, 2 },	{ DW_FORM_data4, 4 },
		{ DW_FORM_data8, 8 }, { DW_FORM_data16, 16 },	{ DW_FORM_strx1, 1 },
		{ DW_FORM_strx2, 2 }, { DW_FORM_strx3, 3 },	{ DW_FORM_strx4, 4 },
		{ DW_FORM_strp, 0 },  { DW_FORM_line_strp, 0 }, { DW_FORM_sec_offset, 0 },
	};
	const unsigned char *nul;
	uint64_t n;

	for (size_t i = 0; i < sizeof(fixed_len) / sizeof(fixed_len[0]); i++)
		if (fixed_len[i].form == f) {
			fixed(c, fixed_len[i].len ? fixed_len[i].len : osize);
			return true;
		}
	switch (f) {
	case DW_FORM_udata:
	case DW_FORM_sdata:
	case DW_FORM_strx:
		uleb(c);
		return true;
	case DW_FORM_block:
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4:
		n = f == DW_FORM_block ? uleb(c)
				       : fixed(c, f == DW_FORM_block1	? 1
						  : f == DW_FORM_block2 ? 2
									: 4);
		if (!c->bad && n > (uint64_t)(c->end - c->p))
			c->bad = true;
		else if (!c->bad)
			c->p += n;
		return true;
	case DW_FORM_string:
		if (!(nul = memchr(c->p, '\0', (size_t)(c->end - c->p))))
			c->bad = true;
		else
			c->p = nul + 1;
		return true;
	}
	return false;
}

/* A path entry's string; NULL if its form is not one read here. */
static const char *path_form(struct cur *c, const struct ks_dwarfline_src *s, uint64_t f,
			     unsigned osize)
{
	const unsigned char *at = c->p;

	if (!skip_form(c, f, osize) || c->bad)
		return NULL;
	if (f == DW_FORM_string)
		return (const char *)at;
	if (f == DW_FORM_line_strp)
		return ks_dwarfrel_string(s->line_str, ks_bytes_field(at, osize, c->msb));
	if (f == DW_FORM_strp)
		return ks_dwarfrel_string(s->str, ks_bytes_field(at, osize, c->msb));
	return NULL;
}

static bool index_form(struct cur *c, uint64_t f, uint64_t *v)
{
	switch (f) {
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
		*v = fixed(c, f == DW_FORM_data1   ? 1
			      : f == DW_FORM_data2 ? 2
			      : f == DW_FORM_data4 ? 4
						   : 8);
		return !c->bad;
	case DW_FORM_udata:
		*v = uleb(c);
		return !c->bad;
	}
	return false;
}

/* One DWARF 5 entry format: the index of its path and of its directory
 * index among its forms, and the forms. */
struct format {
	uint64_t forms[32];
	unsigned n, path, dir;
};

static bool read_format(struct cur *c, struct format *f)
{
	f->n = (unsigned)fixed(c, 1);
	f->path = f->dir = UINT_MAX;
	if (f->n > sizeof(f->forms) / sizeof(f->forms[0]))
		return false;
	for (unsigned i = 0; i < f->n; i++) {
		uint64_t what = uleb(c);

		f->forms[i] = uleb(c);
		if (what == DW_LNCT_path)
			f->path = i;
		else if (what == DW_LNCT_directory_index)
			f->dir = i;
	}
	return !c->bad;
}

/* One entry of a DWARF 5 table: its path and directory index. */
static bool read_entry(struct cur *c, const struct ks_dwarfline_src *s, const struct format *f,
		       unsigned osize, const char **path, uint64_t *dir)
{
	*path = NULL;
	for (unsigned m = 0; m < f->n; m++) {
		if (m == f->path)
			*path = path_form(c, s, f->forms[m], osize);
		else if (m == f->dir ? !index_form(c, f->forms[m], dir)
				     : !skip_form(c, f->forms[m], osize))
			return false;
	}
	return !c->bad && *path;
}

/* dir + "/" + name, or name if absolute or there is no dir: libdw's
 * joining. */
static char *join(const char *dir, const char *name)
{
	size_t nd = dir ? strlen(dir) : 0, nn = strlen(name);
	char *p;

	if (*name == '/' || !dir)
		return strdup(name);
	if (!(p = malloc(nd + 1 + nn + 1)))
		return NULL;
	memcpy(p, dir, nd);
	p[nd] = '/';
	memcpy(p + nd + 1, name, nn + 1);
	return p;
}

/* File idx: name in dir (NULL: none), joined when first asked for. */
static int add_file(struct ks_dwarfline *l, size_t idx, const char *dir, const char *name)
{
	if (idx >= l->capfiles) {
		size_t cap = idx + 1 > 2 * l->capfiles ? idx + 1 : 2 * l->capfiles;
		struct ks_dwarfline_name *v = realloc(l->files, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->files = v;
		l->capfiles = cap;
	}
	for (; l->nfiles <= idx; l->nfiles++)
		l->files[l->nfiles] = (struct ks_dwarfline_name){ NULL, NULL, NULL };
	free(l->files[idx].joined);
	l->files[idx] = (struct ks_dwarfline_name){ dir, name, NULL };
	return 0;
}

/* DWARF 5: directories, then files, each by its entry format. */
static int read_tables5(struct ks_dwarfline *l, struct cur *c, const struct ks_dwarfline_src *s,
			unsigned osize)
{
	struct format f;
	const char **dirs = NULL;
	uint64_t ndirs, nfiles, dir = 0;
	const char *path;
	int r = -EINVAL;

	if (!read_format(c, &f) || (f.n && f.path == UINT_MAX))
		return -EINVAL;
	ndirs = uleb(c);
	if (c->bad || (!f.n && ndirs) || (f.n && ndirs > (uint64_t)(c->end - c->p) / f.n))
		return -EINVAL;
	if (!(dirs = calloc(ndirs ? ndirs : 1, sizeof(*dirs))))
		return -ENOMEM;
	for (uint64_t i = 0; i < ndirs; i++)
		if (!read_entry(c, s, &f, osize, &dirs[i], &dir))
			goto out;
	if (!read_format(c, &f) || (f.n && (f.path == UINT_MAX || f.dir == UINT_MAX)))
		goto out;
	nfiles = uleb(c);
	if (c->bad || (!f.n && nfiles) || (f.n && nfiles > (uint64_t)(c->end - c->p) / f.n))
		goto out;
	r = 0;
	for (uint64_t i = 0; i < nfiles && !r; i++)
		r = !read_entry(c, s, &f, osize, &path, &dir) || dir >= ndirs
			    ? -EINVAL
			    : add_file(l, (size_t)i, dirs[dir], path);
out:
	free(dirs);
	return r;
}

/* Before DWARF 5: directory 0 is the unit's, then NUL-terminated lists. */
static int read_tables4(struct ks_dwarfline *l, struct cur *c, const char *comp_dir)
{
	const char **dirs = NULL;
	size_t ndirs = 1, nfiles = 1;
	int r = 0;

	for (const unsigned char *p = c->p; p < c->end && *p; ndirs++) {
		const unsigned char *nul = memchr(p, '\0', (size_t)(c->end - p));

		if (!nul)
			return -EINVAL;
		p = nul + 1;
	}
	if (!(dirs = calloc(ndirs, sizeof(*dirs))))
		return -ENOMEM;
	dirs[0] = comp_dir;
	for (size_t i = 1; i < ndirs; i++) {
		dirs[i] = (const char *)c->p;
		c->p += strlen(dirs[i]) + 1;
	}
	c->p++; /* the list's NUL, there: counted above */
	while (!r && c->p < c->end && *c->p) {
		const char *name = (const char *)c->p;
		const unsigned char *nul = memchr(c->p, '\0', (size_t)(c->end - c->p));
		uint64_t dir;

		if (!nul) {
			r = -EINVAL;
			break;
		}
		c->p = nul + 1;
		dir = uleb(c);
		uleb(c), uleb(c); /* modification time, length */
		r = c->bad || dir >= ndirs ? -EINVAL : add_file(l, nfiles++, dirs[dir], name);
	}
	if (!r && (c->p >= c->end || *c->p++))
		r = -EINVAL;
	free(dirs);
	return r;
}

int ks_dwarfline_read(struct ks_dwarfline *l, const struct ks_dwarfline_src *s, uint64_t off,
		      const char *comp_dir, unsigned address_size)
{
	struct cur c = { .msb = s->msb };
	struct head h;
	int r;

	memset(l, 0, sizeof(*l));
	l->msb = s->msb;
	if (!s->line || !s->line->d_buf || off >= s->line->d_size)
		return -EINVAL;
	c.p = (const unsigned char *)s->line->d_buf + off;
	c.end = (const unsigned char *)s->line->d_buf + s->line->d_size;
	if ((r = read_fixed(l, &c, address_size, &h)) < 0)
		return r;
	r = l->version >= 5 ? read_tables5(l, &c, s, h.osize) : read_tables4(l, &c, comp_dir);
	if (!r && l->nfiles == 0)
		r = add_file(l, 0, NULL, "???");
	if (!r && l->version < 5 && !l->files[0].name)
		l->files[0].name = "???";
	if (!r && c.p == h.hend - 4)
		c.p += 4; /* a CUBIN's string offset */
	if (!r && (c.bad || c.p != h.hend))
		r = -EINVAL;
	l->prog = c.p;
	l->end = c.end;
	if (r)
		ks_dwarfline_free(l);
	return r;
}

/* A row of the program. */
struct row {
	uint64_t addr;
	unsigned file;
	int line;
	unsigned seq; /* the row's place as written */
	unsigned short col;
	bool end; /* of a sequence */
};

/* The state machine's registers, and what becomes of its rows: checked,
 * the last in libdw's order found, and, given pcs (sorted), each row
 * taken as a candidate for the first pc at or after it (cand[i], if
 * has[i]): the row for pcs[j] is then the last in libdw's order of
 * cand[0..j]. */
struct state {
	uint64_t addr;
	unsigned op_index, file, col, isa, discr;
	int64_t line;
	size_t n; /* rows so far */
	struct row last;
	const uint64_t *pcs;
	size_t npcs;
	struct row *cand;
	bool *has;
};

static void reset(struct state *s)
{
	s->addr = 0;
	s->op_index = s->isa = s->discr = s->col = 0;
	s->file = 1;
	s->line = 1;
}

/* libdw's order of rows: by address, an end of sequence before other rows
 * at the same address, then as written. */
static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->end != y->end)
		return x->end ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* A row: libdw refuses a table whose values do not fit its fields. */
static bool new_row(struct state *s, bool end)
{
	struct row r;

	if (s->line < INT_MIN || s->line > INT_MAX || s->col > USHRT_MAX || s->op_index > 255 ||
	    s->isa > 255 || s->discr > 0xffffff || s->n >= UINT_MAX)
		return false;
	r = (struct row){ s->addr, s->file, (int)s->line, (unsigned)s->n, (unsigned short)s->col,
			  end };
	if (!s->n++ || row_cmp(&r, &s->last) > 0)
		s->last = r;
	if (s->npcs && r.addr <= s->pcs[s->npcs - 1]) {
		size_t lo = 0, hi = s->npcs - 1;

		while (lo < hi) { /* the first pc at or after the row */
			size_t mid = lo + (hi - lo) / 2;

			if (s->pcs[mid] < r.addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (!s->has[lo] || row_cmp(&r, &s->cand[lo]) > 0)
			s->cand[lo] = r, s->has[lo] = true;
	}
	return true;
}

static void advance(const struct ks_dwarfline *l, struct state *s, uint64_t ops)
{
	if (l->max_ops == 1) { /* all but VLIW: no division */
		s->addr += l->min_inst * ops;
		return;
	}
	s->addr += l->min_inst * ((s->op_index + ops) / l->max_ops);
	s->op_index = (unsigned)((s->op_index + ops) % l->max_ops);
}

/* An extended opcode (after its 0). */
static bool extended(const struct ks_dwarfline *l, struct cur *c, struct state *s)
{
	uint64_t len = fixed(c, 1);
	unsigned op;

	if (c->bad || len < 1 || len > (uint64_t)(c->end - c->p))
		return false;
	op = (unsigned)fixed(c, 1);
	switch (op) {
	case DW_LNE_end_sequence:
		if (!new_row(s, true))
			return false;
		reset(s);
		return true;
	case DW_LNE_set_address:
		s->op_index = 0;
		s->addr = fixed(c, l->address_size);
		return !c->bad;
	case DW_LNE_define_file:
		return false; /* files named in the program: left to libdw */
	case DW_LNE_set_discriminator:
		if (l->opcode_base <= DW_LNE_set_discriminator ||
		    l->lengths[DW_LNE_set_discriminator] != 1)
			return false;
		s->discr = (unsigned)uleb(c);
		return !c->bad;
	}
	c->p += len - 1;
	return true;
}

/* The operands a standard opcode must have, as libdw checks them. */
static const signed char std_operands[] = {
	[DW_LNS_copy] = 0,
	[DW_LNS_advance_pc] = 1,
	[DW_LNS_advance_line] = 1,
	[DW_LNS_set_file] = 1,
	[DW_LNS_set_column] = 1,
	[DW_LNS_negate_stmt] = 0,
	[DW_LNS_set_basic_block] = 0,
	[DW_LNS_const_add_pc] = 0,
	[DW_LNS_fixed_advance_pc] = 1,
	[DW_LNS_set_prologue_end] = 0,
	[DW_LNS_set_epilogue_begin] = 0,
	[DW_LNS_set_isa] = 1,
};

static bool standard(const struct ks_dwarfline *l, struct cur *c, struct state *s, unsigned op)
{
	if (op > DW_LNS_set_isa) { /* not known: its operands skipped */
		for (unsigned n = l->lengths[op]; n > 0; n--)
			uleb(c);
		return !c->bad;
	}
	if (l->lengths[op] != (unsigned)std_operands[op])
		return false;
	switch (op) {
	case DW_LNS_copy:
		if (!new_row(s, false))
			return false;
		s->discr = 0;
		return true;
	case DW_LNS_advance_pc:
		advance(l, s, (unsigned)uleb(c));
		break;
	case DW_LNS_advance_line:
		s->line += (int)sleb(c);
		break;
	case DW_LNS_set_file:
		s->file = (unsigned)uleb(c);
		break;
	case DW_LNS_set_column:
		s->col = (unsigned)uleb(c);
		break;
	case DW_LNS_const_add_pc:
		if (!l->line_range)
			return false;
		advance(l, s, (255 - l->opcode_base) / l->line_range);
		break;
	case DW_LNS_fixed_advance_pc:
		s->addr += fixed(c, 2);
		s->op_index = 0;
		break;
	case DW_LNS_set_isa:
		s->isa = (unsigned)uleb(c);
		break;
	}
	return !c->bad;
}

/* Runs the program for s->mode; -EINVAL where libdw would refuse it. */
static int run(const struct ks_dwarfline *l, struct state *s)
{
	struct cur c = { l->prog, l->end, false, l->msb };
	bool ok = true;

	reset(s);
	while (ok && c.p < c.end) {
		unsigned op = *c.p++;

		if (op >= l->opcode_base) { /* a special opcode, its advances worked out once */
			if (!l->line_range)
				return -EINVAL;
			s->line += l->special[op].line;
			advance(l, s, l->special[op].ops);
			ok = new_row(s, false);
			s->discr = 0;
		} else if (op == 0) {
			ok = extended(l, &c, s);
		} else {
			ok = standard(l, &c, s, op);
		}
	}
	return !ok || c.bad ? -EINVAL : 0;
}

int ks_dwarfline_check(struct ks_dwarfline *l)
{
	return ks_dwarfline_find_all(l, NULL, 0, NULL, NULL);
}

static int pc_order(const void *a, const void *b)
{
	const uint64_t *x = *(const uint64_t *const *)a, *y = *(const uint64_t *const *)b;

	return (*x > *y) - (*x < *y);
}

int ks_dwarfline_find_all(struct ks_dwarfline *l, const uint64_t *pcs, size_t n,
			  struct ks_dwarfline_row *rows, int *found)
{
	struct state s = { .npcs = n };
	const uint64_t **by = n ? calloc(n, sizeof(*by)) : NULL;
	uint64_t *sorted = n ? calloc(n, sizeof(*sorted)) : NULL;
	int r = -ENOMEM;

	if (l->checked && !n)
		return 0;
	s.cand = n ? calloc(n, sizeof(*s.cand)) : NULL;
	s.has = n ? calloc(n, sizeof(*s.has)) : NULL;
	if (n && (!by || !sorted || !s.cand || !s.has))
		goto out;
	for (size_t i = 0; i < n; i++)
		by[i] = &pcs[i];
	if (n)
		qsort(by, n, sizeof(*by), pc_order);
	for (size_t i = 0; i < n; i++)
		sorted[i] = *by[i];
	s.pcs = sorted;
	if ((r = run(l, &s)) < 0)
		goto out;
	l->checked = true;
	for (size_t j = 0, best = SIZE_MAX; j < n; j++) {
		size_t i = (size_t)(by[j] - pcs);
		const struct row *b;

		if (s.has[j] && (best == SIZE_MAX || row_cmp(&s.cand[j], &s.cand[best]) > 0))
			best = j;
		b = best == SIZE_MAX ? NULL : &s.cand[best];
		/* the last row of all is taken to end a sequence */
		found[i] = b && !b->end && b->seq != s.last.seq;
		if (found[i])
			rows[i] = (struct ks_dwarfline_row){ b->file, b->line, b->col };
	}
out:
	free(by);
	free(sorted);
	free(s.cand);
	free(s.has);
	return r;
}

const char *ks_dwarfline_file(struct ks_dwarfline *l, unsigned idx)
{
	struct ks_dwarfline_name *f = idx < l->nfiles ? &l->files[idx] : NULL;

	if (f && f->name && !f->joined)
		f->joined = join(f->dir, f->name);
	return f ? f->joined : NULL;
}

void ks_dwarfline_free(struct ks_dwarfline *l)
{
	for (size_t i = 0; i < l->nfiles; i++)
		free(l->files[i].joined);
	free(l->files);
	memset(l, 0, sizeof(*l));
}
