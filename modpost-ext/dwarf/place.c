/* A gathered use placed (dwarf/dw.h): in code, the innermost inline
 * frame outside the kernel's trees (dwarf/dwarfpath.c); in data, the
 * variable and member the address falls in. libdw caches each CU's line
 * table. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "dwarf/dw.h"
#include "module/policy.h"

/* dwarf_diename() of a DIE or its abstract origin. */
static const char *name_of(Dwarf_Die *die)
{
	Dwarf_Attribute a;

	return dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &a));
}

/* A DIE's name as written: the abstract origin's for an inlined or cloned
 * function, without a clone suffix. NULL: none. */
static char *die_name(Dwarf_Die *die)
{
	const char *n = name_of(die);

	if (!n) {
		Dwarf_Attribute a;

		n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &a));
	}
	return n ? ks_xstrndup(n, ks_function_name_len(n)) : NULL;
}

static bool is_frame(Dwarf_Die *die)
{
	int tag = dwarf_tag(die);

	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine;
}

static unsigned attr_udata(Dwarf_Die *die, unsigned name)
{
	Dwarf_Attribute a;
	Dwarf_Word w;

	if (!dwarf_attr(die, name, &a) || dwarf_formudata(&a, &w) != 0 || w > UINT32_MAX)
		return 0;
	return (unsigned)w;
}

/* A file of cu's line table by index. DWARF 5 numbers the CU's own file
 * 0; before DWARF 5, 0 meant none. */
static const char *file_at(Dwarf_Die *cu, unsigned idx)
{
	Dwarf_Files *files;
	size_t n;
	const char *f = NULL;

	if (dwarf_getsrcfiles(cu, &files, &n) == 0 && idx < n)
		f = dwarf_filesrc(files, idx, NULL, NULL);
	if ((!f || !strcmp(f, "???")) && idx == 0)
		f = name_of(cu);
	return f;
}

/* A declaration's file; dwarf_decl_file() knows no file 0. */
static const char *decl_file(Dwarf_Die *cu, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Word idx;

	if (dwarf_formudata(dwarf_attr_integrate(die, DW_AT_decl_file, &a), &idx) != 0 ||
	    idx > UINT32_MAX)
		return NULL;
	return file_at(cu, (unsigned)idx);
}

/* One frame of the inline chain: where it is, and whose code. */
struct frame {
	const char *file;
	unsigned line, col;
	Dwarf_Die *fn;
	Dwarf_Die *called;	/* the kernel's inline function called there; NULL */
};

static void add_use(struct dw *x, const char *sym, enum ks_use_kind kind, Dwarf_Die *cu,
		    const struct frame *f, char *fn, char *var, char *member)
{
	struct ks_use u = { .kind = kind,
			    .line = f->line,
			    .col = f->col,
			    .function = fn,
			    .source = KS_SOURCE_DWARF,
			    .var = var,
			    .member = member,
			    .written_as = f->called ? die_name(f->called) : NULL };

	u.symbol = ks_xstrdup(sym);
	u.file = ks_dwarfpath_absolute(&x->paths, cu, f->file);
	if (!u.function)
		u.function = ks_xstrdup("");
	ks_dwarfpath_display_col(&x->paths, u.file, u.line, &u.col);
	ks_uses_add(&x->m->uses, &u);
}

/* The scopes (function, inlined calls, blocks) that hold pc, outermost
 * first: its function's DIE (else the CU's children), then the child that
 * holds pc at each level down. Descending keeps the path, so no
 * dwarf_getscopes_die(), which walks the CU's DIEs from its start for each
 * address (most of the time on big modules) and leaks on some corrupt
 * DWARF; nor dwarf_getscopes(), which follows an inlined call into the
 * inlined function's abstract scopes and skips its caller. */
struct scopes {
	Dwarf_Die v[64];
	int n;
};

static bool scope_tag(int tag)
{
	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
	       tag == DW_TAG_lexical_block;
}

static void scopes_of(struct dw *x, Dwarf_Die *cu, Dwarf_Addr pc, struct scopes *s)
{
	const struct ks_span *fn = ks_spans_find(&x->fns, pc);
	Dwarf_Die parent = *cu, c;

	s->n = 0;
	if (fn && dwarf_offdie(x->dw, fn->what, &parent))
		s->v[s->n++] = parent;
	else
		parent = *cu;
	while (s->n < (int)(KS_ARRAY_SIZE(s->v)) && dwarf_child(&parent, &c) == 0) {
		bool down = false;

		do {
			if (scope_tag(dwarf_tag(&c)) && dwarf_haspc(&c, pc) > 0) {
				s->v[s->n++] = parent = c;
				down = true;
				break;
			}
		} while (dwarf_siblingof(&c, &c) == 0);
		if (!down)
			break;
	}
}

/* The line table's row for pc: its file, line and column into f; false
 * if there is none. */
static bool row_at(Dwarf_Die *cu, Dwarf_Addr pc, struct frame *f)
{
	Dwarf_Line *row;
	int col = 0, line = 0;

	if (!(row = dwarf_getsrc_die(cu, pc)) || !(f->file = dwarf_linesrc(row, NULL, NULL)) ||
	    dwarf_lineno(row, &line))
		return false;
	dwarf_linecol(row, &col);
	if (line <= 0)
		return false;
	f->line = (unsigned)line;
	f->col = col > 0 ? (unsigned)col : 0;
	return true;
}

/* Walks the chain of scopes around pc from the line table's row outwards
 * through each inlined call site, and stops at the first frame in the
 * module's own sources; if there is none, the outermost. */
static void place_code(struct dw *x, Dwarf_Die *cu, size_t i)
{
	Dwarf_Addr pc = x->addrs[i].addr;
	const char *sym = x->sites[i].sym;
	enum ks_use_kind kind = x->sites[i].kind;
	struct scopes s;
	struct frame f = { 0 };

	if (!row_at(cu, pc, &f))
		return;
	scopes_of(x, cu, pc, &s);
	for (int i = s.n - 1; i >= 0; i--) {
		if (!is_frame(&s.v[i]))
			continue;
		f.fn = &s.v[i];
		if (!ks_dwarfpath_foreign(&x->paths, cu, f.file) ||
		    dwarf_tag(&s.v[i]) == DW_TAG_subprogram)
			break;
		f.file = file_at(cu, attr_udata(&s.v[i], DW_AT_call_file));
		f.line = attr_udata(&s.v[i], DW_AT_call_line);
		f.col = attr_udata(&s.v[i], DW_AT_call_column);
		f.called = &s.v[i];
		if (!f.file || !f.line)
			break;
	}
	if (f.line)
		add_use(x, sym, kind, cu, &f, f.fn ? die_name(f.fn) : NULL, NULL, NULL);
}

/* The member at byte off of type: ".ops", ".a.b", "[3].open". */
static void member_path(struct dw *x, struct ks_buf *b, Dwarf_Die *type, Dwarf_Word off, int depth)
{
	Dwarf_Die t, c;
	Dwarf_Word size;
	int tag;

	if (depth > 8 || dwarf_peel_type(type, &t) != 0)
		return;
	tag = dwarf_tag(&t);
	if (tag == DW_TAG_array_type) {
		Dwarf_Attribute a;
		Dwarf_Die et;

		if (!dwarf_formref_die(dwarf_attr_integrate(&t, DW_AT_type, &a), &et) ||
		    dwarf_aggregate_size(&et, &size) != 0 || !size)
			return;
		ks_buf_addf(b, "[%llu]", (unsigned long long)(off / size));
		member_path(x, b, &et, off % size, depth + 1);
		return;
	}
	if ((tag != DW_TAG_structure_type && tag != DW_TAG_union_type) || dwarf_child(&t, &c))
		return;
	do {
		Dwarf_Word at = attr_udata(&c, DW_AT_data_member_location);
		Dwarf_Attribute a;
		Dwarf_Die mt;
		const char *name = name_of(&c);

		if (dwarf_tag(&c) != DW_TAG_member || off < at ||
		    !dwarf_formref_die(dwarf_attr_integrate(&c, DW_AT_type, &a), &mt) ||
		    dwarf_aggregate_size(&mt, &size) != 0 || off - at >= size)
			continue;
		if (name)
			ks_buf_addf(b, ".%s", name);
		member_path(x, b, &mt, off - at, depth + 1);
		return;
	} while (dwarf_siblingof(&c, &c) == 0);
}

/* A relocation in data: "in the initializer of VAR (.member)" at the
 * variable's declaration. None if the address is in no variable, or in
 * one without a name. */
static void place_data(struct dw *x, Dwarf_Addr pc, const char *sym)
{
	const struct ks_span *v;
	struct ks_buf member = KS_BUF_INIT;
	struct frame f = { 0 };
	Dwarf_Die die, cu, type;
	Dwarf_Attribute a;
	int line = 0, col = 0;
	char *name;

	if (!x->vars_read)
		ks_dw_index_vars(x, false);
	if (!(v = ks_spans_find(&x->vars, pc)) && x->vars_read == 1) {
		ks_dw_index_vars(x, true);
		v = ks_spans_find(&x->vars, pc);
	}
	if (!v || !dwarf_offdie(x->dw, v->what, &die) || !dwarf_diecu(&die, &cu, NULL, NULL) ||
	    !(f.file = decl_file(&cu, &die)) || dwarf_decl_line(&die, &line) != 0 || line <= 0 ||
	    !(name = die_name(&die)))
		return;
	dwarf_decl_column(&die, &col);
	f.line = (unsigned)line;
	f.col = col > 0 ? (unsigned)col : 0;
	if (dwarf_formref_die(dwarf_attr_integrate(&die, DW_AT_type, &a), &type))
		member_path(x, &member, &type, pc - v->lo, 0);
	add_use(x, sym, KS_USE_ADDR, &cu, &f, NULL, name, ks_buf_steal(&member));
}

/* A gathered use, placed. */
void ks_dw_place(struct dw *x, size_t i)
{
	const struct ks_dwarfpick_addr *a = &x->addrs[i];
	const struct ks_span *s;
	Dwarf_Die cu;

	if (!a->code)
		place_data(x, a->addr, x->sites[i].sym);
	else if ((s = ks_spans_find(&x->cus, a->addr)) && dwarf_offdie(x->dw, s->what, &cu))
		place_code(x, &cu, i);
}
