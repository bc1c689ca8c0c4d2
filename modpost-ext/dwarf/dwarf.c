/* The module's DWARF as a location source (doc/HACKING.md: location
 * sources). Every section of a .ko starts at address 0, so the sections
 * are laid out and the DWARF relocated first (dwarf/dwarfrel.c), then
 * read with libdw; each relocation against a wanted import is
 * then looked up at its section's laid-out address: in code, the innermost
 * inline frame outside the kernel's trees (dwarf/dwarfpath.c); in data,
 * the variable and member the address falls in. Each CU's ranges are
 * indexed once, variables once; libdw caches each CU's line table. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "array.h"
#include "buf.h"
#include "strmap.h"
#include "dwarf/debugfile.h"
#include "dwarf/dwarf.h"
#include "dwarf/dwarfpath.h"
#include "dwarf/dwarfpick.h"
#include "dwarf/dwarfrel.h"
#include "module/modfile.h"
#include "module/policy.h"
#include "module/section.h"

struct dw {
	struct ks_module *m;
	Elf *elf;		 /* the module, laid out (dwarf/dwarfrel.h) */
	struct ks_modfile debug; /* a separate debug file, if the DWARF is there */
	Elf *debug_elf;
	struct ks_dwarfrel rel; /* the relocated DWARF sections */
	char *image; /* the module's, and its size */
	size_t size;
	bool libdw;  /* KSUNSET_DWARF_READER=libdw: libdwfl and libdw read it all */
	Dwfl *dwfl;  /* then: the DWARF's reader, and the file it reads */
	int memfd;
	Dwarf *dw;
	bool partial;		/* dw's DIEs are elsewhere, and not read: no lines */
	struct ks_modfile alt;	/* its dwz alternate file, if it has one */
	Elf *alt_elf;
	Dwarf *alt_dw;
	struct ks_spans cus, fns, vars; /* CUs' ranges, functions', variables' (their DIEs) */
	int vars_read;		     /* 1: the units' own variables in vars; 2: the nested too */
	struct ks_dwarfpath paths;
	/* The uses' addresses, gathered before the DWARF is read, so that
	 * only the units holding them are relocated and read; with each, its
	 * symbol and kind. */
	struct ks_dwarfpick_addr *addrs;
	struct site {
		const char *sym;
		enum ks_use_kind kind;
	} * sites;
	size_t naddrs, addrs_cap, sites_cap;
};

static int want_addr(struct dw *x, const struct ks_dwarfpick_addr *a, const char *sym,
		     enum ks_use_kind kind)
{
	if (ks_array_room((void **)&x->addrs, &x->addrs_cap, x->naddrs + 1, sizeof(*x->addrs)) < 0 ||
	    ks_array_room((void **)&x->sites, &x->sites_cap, x->naddrs + 1, sizeof(*x->sites)) < 0)
		return -ENOMEM;
	x->addrs[x->naddrs] = *a;
	x->sites[x->naddrs++] = (struct site){ sym, kind };
	return 0;
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
	for (size_t i = 0; i < sizeof(table_sections) / sizeof(table_sections[0]); i++)
		if (!strcmp(name, table_sections[i]))
			return true;
	return !strncmp(name, ".discard", 8);
}

/* The ranges of a CU's functions: a relocation's scopes are then searched
 * from its function down, not through every function of the CU. */
static int index_fn(struct dw *x, Dwarf_Die *c)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t r = 0;

	while ((r = dwarf_ranges(c, r, &base, &lo, &hi)) > 0)
		if (hi > lo && ks_spans_add(&x->fns, lo, hi, dwarf_dieoffset(c)) < 0)
			return -ENOMEM;
	return 0;
}

static int index_fns(struct dw *x, Dwarf_Die *cu)
{
	Dwarf_Die c;

	if (dwarf_child(cu, &c) != 0)
		return 0;
	do {
		if (dwarf_tag(&c) == DW_TAG_subprogram && index_fn(x, &c) < 0)
			return -ENOMEM;
	} while (dwarf_siblingof(&c, &c) == 0);
	return 0;
}

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
	return n ? strndup(n, ks_function_name_len(n)) : NULL;
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

static int add_use(struct dw *x, const char *sym, enum ks_use_kind kind, Dwarf_Die *cu,
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
	int r = -ENOMEM;

	u.symbol = strdup(sym);
	u.file = ks_dwarfpath_absolute(&x->paths, cu, f->file);
	if (!u.function)
		u.function = strdup("");
	if (u.symbol && u.file && u.function &&
	    ks_dwarfpath_display_col(&x->paths, u.file, u.line, &u.col) == 0 &&
	    ks_uses_add(&x->m->uses, &u) == 0)
		r = 0;
	free(u.symbol);
	free(u.file);
	free(u.function);
	free(u.var);
	free(u.member);
	free(u.written_as);
	return r;
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
	while (s->n < (int)(sizeof(s->v) / sizeof(s->v[0])) && dwarf_child(&parent, &c) == 0) {
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

/* The line table's row for pc: its file, line and column into f. 1, or
 * 0 if there is none. */
static int row_at(Dwarf_Die *cu, Dwarf_Addr pc, struct frame *f)
{
	Dwarf_Line *row;
	int col = 0, line = 0;

	if (!(row = dwarf_getsrc_die(cu, pc)) || !(f->file = dwarf_linesrc(row, NULL, NULL)) ||
	    dwarf_lineno(row, &line))
		return 0;
	dwarf_linecol(row, &col);
	if (line <= 0)
		return 0;
	f->line = (unsigned)line;
	f->col = col > 0 ? (unsigned)col : 0;
	return 1;
}

static int off_cmp(const void *a, const void *b)
{
	Dwarf_Off x = *(const Dwarf_Off *)a, y = *(const Dwarf_Off *)b;

	return (x > y) - (x < y);
}

/* The functions of every unit that holds a code use, indexed: a use's
 * scopes are then searched from its function down, not through all of
 * its unit's (amdgpu.ko's check with every export scheduled: 1.24 s, and
 * 5.6 s without this index; bench/results.md). */
static int per_unit(struct dw *x)
{
	Dwarf_Off *v = malloc((x->naddrs ? x->naddrs : 1) * sizeof(*v));
	size_t n = 0;
	int r = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < x->naddrs; i++) {
		const struct ks_span *s = x->addrs[i].code ? ks_spans_find(&x->cus, x->addrs[i].addr)
							: NULL;

		if (s)
			v[n++] = s->what;
	}
	qsort(v, n, sizeof(*v), off_cmp);
	for (size_t i = 0; r == 0 && i < n; i++) {
		Dwarf_Die die;

		if ((!i || v[i] != v[i - 1]) && dwarf_offdie(x->dw, v[i], &die))
			r = index_fns(x, &die);
	}
	free(v);
	ks_spans_sort(&x->fns);
	return r;
}

/* Every CU's ranges, walking the CUs: Clang writes no .debug_aranges, so
 * they are not asked for. Then what per_unit() does. */
static int index_cus(struct dw *x)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dwarf_nextcu(x->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Addr base, lo, hi;
		ptrdiff_t r = 0;

		if (dwarf_offdie(x->dw, off + hsize, &cu)) {
			while ((r = dwarf_ranges(&cu, r, &base, &lo, &hi)) > 0)
				if (hi > lo && ks_spans_add(&x->cus, lo, hi, dwarf_dieoffset(&cu)) < 0)
					return -ENOMEM;
		}
		off = next;
	}
	ks_spans_sort(&x->cus);
	return per_unit(x);
}

/* Walks the chain of scopes around pc from the line table's row outwards
 * through each inlined call site, and stops at the first frame in the
 * module's own sources; if there is none, the outermost. */
static int place_code(struct dw *x, Dwarf_Die *cu, size_t i)
{
	Dwarf_Addr pc = x->addrs[i].addr;
	const char *sym = x->sites[i].sym;
	enum ks_use_kind kind = x->sites[i].kind;
	struct scopes s;
	struct frame f = { 0 };
	int r = row_at(cu, pc, &f);

	if (r <= 0)
		return r;
	scopes_of(x, cu, pc, &s);
	for (int i = s.n - 1; i >= 0; i--) {
		if (!is_frame(&s.v[i]))
			continue;
		f.fn = &s.v[i];
		r = ks_dwarfpath_foreign(&x->paths, cu, f.file);
		if (r <= 0 || dwarf_tag(&s.v[i]) == DW_TAG_subprogram)
			break;
		f.file = file_at(cu, attr_udata(&s.v[i], DW_AT_call_file));
		f.line = attr_udata(&s.v[i], DW_AT_call_line);
		f.col = attr_udata(&s.v[i], DW_AT_call_column);
		f.called = &s.v[i];
		if (!f.file || !f.line)
			break;
	}
	if (r >= 0 && f.line)
		r = add_use(x, sym, kind, cu, &f, f.fn ? die_name(f.fn) : NULL, NULL, NULL);
	return r < 0 ? r : 0;
}

/* A variable's address from its location: DW_OP_addr, or Clang's
 * DW_OP_addrx (an index into .debug_addr). */
static bool var_address(Dwarf_Die *die, Dwarf_Addr *addr)
{
	Dwarf_Attribute a, res;
	Dwarf_Op *ops;
	size_t nops;

	if (!dwarf_attr(die, DW_AT_location, &a) || dwarf_getlocation(&a, &ops, &nops) != 0 ||
	    nops != 1)
		return false;
	if (ops[0].atom == DW_OP_addr) {
		*addr = ops[0].number;
		return true;
	}
	if (ops[0].atom != DW_OP_addrx && ops[0].atom != DW_OP_GNU_addr_index)
		return false;
	return dwarf_getlocation_attr(&a, &ops[0], &res) == 0 && dwarf_formaddr(&res, addr) == 0;
}

static Dwarf_Word type_size(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Die type;
	Dwarf_Word size;

	if (!dwarf_formref_die(dwarf_attr_integrate(die, DW_AT_type, &a), &type) ||
	    dwarf_aggregate_size(&type, &size) != 0)
		return 1;
	return size ? size : 1;
}

/* The variables among die's children (the unit's own: not nested), or
 * those of the functions and blocks among them (function-local statics:
 * nested). */
static int index_vars_in(struct dw *x, Dwarf_Die *parent, int depth, bool nested);

/* One child of a unit's or a function's, as index_vars_in() takes it. */
static int index_var(struct dw *x, Dwarf_Die *c, int tag, int depth, bool nested)
{
	Dwarf_Addr a;

	if (tag == DW_TAG_variable) {
		if ((depth > 0) == nested && var_address(c, &a) &&
		    ks_spans_add(&x->vars, a, a + type_size(c), dwarf_dieoffset(c)) < 0)
			return -ENOMEM;
	} else if (nested && (tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block)) {
		return index_vars_in(x, c, depth + 1, nested);
	}
	return 0;
}

static int index_vars_in(struct dw *x, Dwarf_Die *parent, int depth, bool nested)
{
	Dwarf_Die c;
	int more;

	if (depth > 8 || dwarf_child(parent, &c) != 0)
		return 0;
	for (more = 0; more == 0; more = dwarf_siblingof(&c, &c))
		if (index_var(x, &c, dwarf_tag(&c), depth, nested) < 0)
			return -ENOMEM;
	return 0;
}

/* The units' variables, nested or not, added to x->vars: a variable that
 * holds a use is most often the unit's own (a table of operations), and
 * walking every function for its statics costs more than all the rest. */
static int index_vars(struct dw *x, bool nested)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	x->vars_read = nested ? 2 : 1;
	while (dwarf_nextcu(x->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(x->dw, off + hsize, &cu) && index_vars_in(x, &cu, 0, nested) < 0)
			return -ENOMEM;
		off = next;
	}
	ks_spans_sort(&x->vars);
	return 0;
}

/* The member at byte off of type: ".ops", ".a.b", "[3].open". */
static int member_path(struct dw *x, struct ks_buf *b, Dwarf_Die *type, Dwarf_Word off, int depth)
{
	Dwarf_Die t, c;
	Dwarf_Word size;
	int tag;

	if (depth > 8 || dwarf_peel_type(type, &t) != 0)
		return 0;
	tag = dwarf_tag(&t);
	if (tag == DW_TAG_array_type) {
		Dwarf_Attribute a;
		Dwarf_Die et;

		if (!dwarf_formref_die(dwarf_attr_integrate(&t, DW_AT_type, &a), &et) ||
		    dwarf_aggregate_size(&et, &size) != 0 || !size)
			return 0;
		if (ks_buf_addf(b, "[%llu]", (unsigned long long)(off / size)) < 0)
			return -ENOMEM;
		return member_path(x, b, &et, off % size, depth + 1);
	}
	if ((tag != DW_TAG_structure_type && tag != DW_TAG_union_type) || dwarf_child(&t, &c))
		return 0;
	do {
		Dwarf_Word at = attr_udata(&c, DW_AT_data_member_location);
		Dwarf_Attribute a;
		Dwarf_Die mt;
		const char *name = name_of(&c);

		if (dwarf_tag(&c) != DW_TAG_member || off < at ||
		    !dwarf_formref_die(dwarf_attr_integrate(&c, DW_AT_type, &a), &mt) ||
		    dwarf_aggregate_size(&mt, &size) != 0 || off - at >= size)
			continue;
		if (name && ks_buf_addf(b, ".%s", name) < 0)
			return -ENOMEM;
		return member_path(x, b, &mt, off - at, depth + 1);
	} while (dwarf_siblingof(&c, &c) == 0);
	return 0;
}

/* A relocation in data: "in the initializer of VAR (.member)" at the
 * variable's declaration. None if the address is in no variable. */
static int place_data(struct dw *x, Dwarf_Addr pc, const char *sym)
{
	const struct ks_span *v;
	struct ks_buf member = KS_BUF_INIT;
	struct frame f = { 0 };
	Dwarf_Die die, cu, type;
	Dwarf_Attribute a;
	int line = 0, col = 0;
	char *name;

	if (!x->vars_read && index_vars(x, false) < 0)
		return -ENOMEM;
	if (!(v = ks_spans_find(&x->vars, pc)) && x->vars_read == 1) {
		if (index_vars(x, true) < 0)
			return -ENOMEM;
		v = ks_spans_find(&x->vars, pc);
	}
	if (!v || !dwarf_offdie(x->dw, v->what, &die) || !dwarf_diecu(&die, &cu, NULL, NULL) ||
	    !(f.file = decl_file(&cu, &die)) || dwarf_decl_line(&die, &line) != 0 || line <= 0)
		return 0;
	dwarf_decl_column(&die, &col);
	f.line = (unsigned)line;
	f.col = col > 0 ? (unsigned)col : 0;
	if (dwarf_formref_die(dwarf_attr_integrate(&die, DW_AT_type, &a), &type) &&
	    member_path(x, &member, &type, pc - v->lo, 0) < 0)
		return -ENOMEM;
	name = die_name(&die);
	if (!name || ks_buf_addc(&member, '\0') < 0) {
		free(name);
		ks_buf_free(&member);
		return -ENOMEM;
	}
	return add_use(x, sym, KS_USE_ADDR, &cu, &f, NULL, name, ks_buf_steal(&member));
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
	for (size_t i = 0; i < sizeof(call_types) / sizeof(call_types[0]); i++)
		if (call_types[i].machine == machine && call_types[i].type == type)
			return KS_USE_CALL;
	return KS_USE_DATA;
}

/* One relocation of type at offset off of section target (laid out):
 * gathered, to be placed once the DWARF is read. */
static int place(struct dw *x, Elf *elf, Elf_Scn *target, const GElf_Shdr *tsh, GElf_Addr off,
		 uint32_t type, const char *sym)
{
	struct ks_dwarfpick_addr a = { tsh->sh_addr + off, elf_ndxscn(target), off,
				       tsh->sh_flags & SHF_EXECINSTR };
	GElf_Ehdr eh;

	if (!a.code)
		return want_addr(x, &a, sym, KS_USE_ADDR);
	return want_addr(x, &a, sym,
			 code_kind(gelf_getehdr(elf, &eh) ? eh.e_machine : EM_NONE, type));
}

/* A gathered use, placed. */
static int place_site(struct dw *x, size_t i)
{
	const struct ks_dwarfpick_addr *a = &x->addrs[i];
	const struct ks_span *s;
	Dwarf_Die cu;

	if (!a->code)
		return place_data(x, a->addr, x->sites[i].sym);
	if (!(s = ks_spans_find(&x->cus, a->addr)) || !dwarf_offdie(x->dw, s->what, &cu))
		return 0;
	return place_code(x, &cu, i);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* For each symbol of the symbol table: its name among syms, or NULL. */
static int wanted_symbols(Elf *elf, char *const *syms, size_t nsyms, const char ***want, size_t *nwant)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			break;
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;

	*nwant = data && sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
	*want = calloc(*nwant ? *nwant : 1, sizeof(**want));
	if (!*want)
		return -ENOMEM;
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
	return 0;
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
static int place_jump(struct dw *x, Elf *elf, Elf_Data *data, size_t i, const GElf_Rela *key,
		      const char *sym)
{
	GElf_Rela code;
	struct ks_dwarfpick_addr a = { .code = true };
	GElf_Ehdr eh;

	if (!gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64 || i < 2 ||
	    !gelf_getrela(data, (int)(i - 2), &code) || code.r_offset + 8 != key->r_offset ||
	    !reloc_target(elf, &code, &a.addr))
		return 0;
	return want_addr(x, &a, sym, KS_USE_DATA);
}

/* The relocations of one section against wanted symbols. */
static int place_section(struct dw *x, Elf *elf, Elf_Scn *rel, const GElf_Shdr *rsh,
			 const char **want, size_t nwant)
{
	Elf_Scn *target = elf_getscn(elf, rsh->sh_info);
	Elf_Data *data = elf_getdata(rel, NULL);
	size_t shstrndx, n;
	GElf_Shdr tsh;
	const char *tname;
	bool jump;
	int r = 0;

	if (!target || !data || !gelf_getshdr(target, &tsh) || !(tsh.sh_flags & SHF_ALLOC) ||
	    elf_getshdrstrndx(elf, &shstrndx) < 0 || !rsh->sh_entsize)
		return 0;
	tname = elf_strptr(elf, shstrndx, tsh.sh_name);
	if (!tname || (table_section(tname) && strcmp(tname, "__jump_table")))
		return 0;
	jump = !strcmp(tname, "__jump_table") && rsh->sh_type == SHT_RELA;
	n = rsh->sh_size / rsh->sh_entsize;
	for (size_t i = 0; !r && i < n; i++) {
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
			r = place_jump(x, elf, data, i, &ra, want[sym]);
		else if (!table_section(tname))
			r = place(x, elf, target, &tsh, ra.r_offset, (uint32_t)GELF_R_TYPE(ra.r_info),
				  want[sym]);
	}
	return r;
}

static int place_all(struct dw *x, Elf *elf, char *const *syms, size_t nsyms)
{
	const char **want;
	size_t nwant;
	Elf_Scn *scn = NULL;
	int r = wanted_symbols(elf, syms, nsyms, &want, &nwant);

	while (!r && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL))
			r = place_section(x, elf, scn, &sh, want, nwant);
	}
	free(want);
	return r;
}

static int dwarf_problem(struct ks_module *m, struct ks_diags *d, const char *what, const char *why)
{
	return ks_diag_add(d, KS_NOTE, m->path, 0, 0, "no source lines from DWARF: %s: %s", what,
			   why) < 0
		       ? -ENOMEM
		       : 0;
}

static bool has_debug_info(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (gelf_getshdr(scn, &sh) && sh.sh_size &&
		    (sh.sh_type == SHT_PROGBITS || sh.sh_type == SHT_MIPS_DWARF) &&
		    (name = elf_strptr(elf, shstrndx, sh.sh_name)) && !strcmp(name, ".debug_info"))
			return true;
	}
	return false;
}

static const char *debug_dir(const struct ks_locate_opts *o)
{
	return o->debug_dir ? o->debug_dir : "/usr/lib/debug";
}

/* The module from memory (decompressed), its sections laid out, and the
 * object whose DWARF is read (*delf): the module, else a separate debug
 * file. -ENOENT: no DWARF; a note in d and 0 with *delf NULL: unusable. */
static int open_module(struct dw *x, char *image, size_t size, const struct ks_locate_opts *o,
		       struct ks_diags *d, Elf **delf)
{
	const char *why = "";
	char *refused;
	int r;

	*delf = NULL;
	if (!(x->elf = elf_memory(image, size)))
		return dwarf_problem(x->m, d, "cannot read the module", elf_errmsg(-1));
	if (!x->libdw && ks_dwarfrel_layout(x->elf, &why) < 0)
		return dwarf_problem(x->m, d, "cannot lay out the module", why);
	if (has_debug_info(x->elf)) {
		*delf = x->elf;
		return 0;
	}
	r = ks_debugfile_find(x->m->path, x->elf, debug_dir(o), &x->debug, &x->debug_elf, &refused);
	if (r == 0 && refused)
		r = dwarf_problem(x->m, d, refused, ".gnu_debuglink CRC mismatch");
	else if (r == 0)
		r = -ENOENT;
	free(refused);
	if (r <= 0)
		return r;
	if (!x->libdw && ks_dwarfrel_layout(x->debug_elf, &why) < 0)
		return dwarf_problem(x->m, d, "cannot lay out the debug file", why);
	*delf = x->debug_elf;
	return 0;
}

/* .debug_info made of the units that hold the uses' addresses (planned)
 * when they can be told and refer only to themselves, else of them all;
 * libdw sees no other. */
static int relocate_units(struct dw *x, Elf *delf, const char **why)
{
	static const struct ks_dwarfrel_range all = { 0, UINT64_MAX };
	struct ks_dwarfrel_range *units;
	size_t n;
	int r = ks_dwarfpick_units(x->elf, delf, x->addrs, x->naddrs, &units, &n);

	/* every unit where libdw follows references across units by itself */
	if (r == 0)
		r = ks_dwarfrel_units(&x->rel, units, n, why);
	else if (r == 1)
		r = ks_dwarfrel_units(&x->rel, &all, 1, why);
	if (r == 0 && !ks_dwarfpick_self_contained(delf))
		r = ks_dwarfrel_units(&x->rel, &all, 1, why);
	free(units);
	return r;
}

/* delf's DWARF relocated, a unit at a time where that can be done
 * (dwarf/dwarfrel.h), and opened with libdw. */
static int open_dwarf(struct dw *x, Elf *delf, struct ks_diags *d)
{
	const char *why = "";
	int r = ks_dwarfrel_begin(delf, &x->rel, &why);

	if (r == 1)
		r = ks_dwarfrel_apply(delf, &x->rel, &why);
	else if (r == 0)
		r = relocate_units(x, delf, &why);
	if (r < 0)
		return r == -ENOMEM ? r : dwarf_problem(x->m, d, "cannot relocate", why);
	if (!(x->dw = dwarf_begin_elf(delf, DWARF_C_READ, NULL)))
		return dwarf_problem(x->m, d, "cannot read", dwarf_errmsg(-1));
	return 0;
}

/* KSUNSET_DWARF_READER=libdw: the oracle that t-dwarf-libdw holds
 * dwarf/dwarfrel.c and dwarfpick.c to. libdwfl lays the sections out and
 * relocates the whole DWARF, every unit. The file given is the one with
 * the DWARF: no other is looked for. */
static int no_debuginfo(Dwfl_Module *mod, void **user, const char *name, Dwarf_Addr base,
			const char *file, const char *debuglink, GElf_Word crc, char **path)
{
	(void)mod, (void)user, (void)name, (void)base, (void)file, (void)debuglink, (void)crc;
	(void)path;
	return -1;
}

static const Dwfl_Callbacks offline = {
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* libdwfl's section addresses, given to to's sections (the module's). */
static bool take_layout(Elf *from, Elf *to)
{
	Elf_Scn *a = NULL, *b;
	GElf_Shdr sa, sb;

	while ((a = elf_nextscn(from, a))) {
		if (!gelf_getshdr(a, &sa) || !(sa.sh_flags & SHF_ALLOC))
			continue;
		if (!(b = elf_getscn(to, elf_ndxscn(a))) || !gelf_getshdr(b, &sb))
			return false;
		sb.sh_addr = sa.sh_addr;
		if (!gelf_update_shdr(b, &sb))
			return false;
	}
	return true;
}

static int open_dwfl(struct dw *x, Elf *delf, struct ks_diags *d)
{
	const char *data = delf == x->elf ? x->image : x->debug.data;
	size_t size = delf == x->elf ? x->size : x->debug.size, done = 0;
	char path[64];
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	Elf *lelf;

	x->memfd = memfd_create("ksunset-dwarf", MFD_CLOEXEC);
	while (x->memfd >= 0 && done < size) {
		ssize_t n = write(x->memfd, data + done, size - done);

		if (n <= 0)
			return dwarf_problem(x->m, d, "libdw", "cannot copy the DWARF's file");
		done += (size_t)n;
	}
	if (x->memfd < 0 || !(x->dwfl = dwfl_begin(&offline)))
		return x->memfd < 0 ? dwarf_problem(x->m, d, "libdw", "no memory file")
				    : dwarf_problem(x->m, d, "libdwfl", dwfl_errmsg(-1));
	/* by name: libdwfl closes a descriptor it is given */
	if (snprintf(path, sizeof(path), "/proc/self/fd/%d", x->memfd) >= (int)sizeof(path))
		return -ENOMEM;
	mod = dwfl_report_offline(x->dwfl, "module", path, -1);
	if (!mod || dwfl_report_end(x->dwfl, NULL, NULL) != 0)
		return dwarf_problem(x->m, d, "libdwfl", dwfl_errmsg(-1));
	if (!(x->dw = dwfl_module_getdwarf(mod, &bias)) || !(lelf = dwfl_module_getelf(mod, &bias)))
		return dwarf_problem(x->m, d, "libdwfl", dwfl_errmsg(-1));
	if (bias || !take_layout(lelf, x->elf))
		return dwarf_problem(x->m, d, "libdwfl", "cannot take its section layout");
	return 0;
}

/* DW_AT_GNU_dwo_name, GCC's DWARF 4 split-unit attribute. */
#define GNU_DWO_NAME 0x2130

/* The dwz alternate file of x->dw (.gnu_debugaltlink: name and
 * build-id), by its build-id under the debug directory, as Debian ships
 * them: given to libdw (dwarf_setalt()). 1 found, 0 not, -ENOMEM. */
static int find_alt(struct dw *x, const char *dir, const unsigned char *id, size_t n)
{
	int r = ks_debugfile_by_build_id(dir, id, n, &x->alt, &x->alt_elf);

	if (r <= 0 || !(x->alt_dw = dwarf_begin_elf(x->alt_elf, DWARF_C_READ, NULL)))
		return r < 0 ? r : 0;
	dwarf_setalt(x->dw, x->alt_dw);
	return 1;
}

/* Whether x->dw holds its DIEs itself. Split units keep theirs in .dwo
 * files (-gsplit-dwarf, CONFIG_DEBUG_INFO_SPLIT), which are not read; a
 * dwz-compressed file shares some with an alternate file, looked for
 * under the debug directory. Where they cannot be had: one note, and no
 * lines (x->partial), rather than lines without their functions. */
static int whole(struct dw *x, const struct ks_locate_opts *o, struct ks_diags *d)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die die;
	Dwarf_Attribute a;
	uint8_t type;
	const char *name;
	const void *id;
	ssize_t n;
	int r;

	if (dwarf_get_units(x->dw, NULL, &cu, NULL, &type, &die, NULL) == 0 &&
	    (type == DW_UT_skeleton || dwarf_attr(&die, DW_AT_dwo_name, &a) ||
	     dwarf_attr(&die, GNU_DWO_NAME, &a))) {
		x->partial = true;
		return dwarf_problem(x->m, d, "split DWARF",
				     "its DIEs are in .dwo files, which are not read (build without "
				     "CONFIG_DEBUG_INFO_SPLIT or -gsplit-dwarf)");
	}
	n = dwelf_dwarf_gnu_debugaltlink(x->dw, &name, &id);
	if (n <= 0)
		return 0;
	if ((r = find_alt(x, debug_dir(o), id, (size_t)n)) != 0)
		return r < 0 ? r : 0;
	x->partial = true;
	return dwarf_problem(x->m, d, name, "its dwz alternate file is not under the debug directory");
}

int ks_dwarf_locate_image(struct ks_module *m, char *image, size_t size, char *const *syms,
			  size_t nsyms, const struct ks_locate_opts *o, struct ks_diags *d)
{
	struct dw x = { .m = m,
			.debug = { .fd = -1 },
			.alt = { .fd = -1 },
			.image = image,
			.size = size,
			.libdw = o->libdw,
			.memfd = -1,
			.paths = { .kbuild = m->vermagic != NULL } };
	Elf *delf;
	int r = open_module(&x, image, size, o, d, &delf);

	if (r == 0 && delf && x.libdw)
		r = open_dwfl(&x, delf, d);
	if (r == 0 && delf && (!x.libdw || x.dw))
		r = place_all(&x, x.elf, syms, nsyms);
	if (r == 0 && x.naddrs && !x.libdw)
		r = open_dwarf(&x, delf, d);
	if (r == 0 && x.dw)
		r = whole(&x, o, d);
	if (r == 0 && x.dw && !x.partial)
		r = index_cus(&x);
	for (size_t i = 0; r == 0 && x.dw && !x.partial && i < x.naddrs; i++)
		r = place_site(&x, i);
	if (r == -ENOENT)
		m->no_debug_info = true;
	ks_dwarfpath_free(&x.paths);
	free(x.cus.v);
	free(x.fns.v);
	free(x.vars.v);
	free(x.addrs);
	free(x.sites);
	if (x.dwfl)
		dwfl_end(x.dwfl);
	else
		dwarf_end(x.dw);
	if (x.memfd >= 0)
		close(x.memfd);
	dwarf_end(x.alt_dw);
	elf_end(x.alt_elf);
	ks_modfile_close(&x.alt);
	elf_end(x.debug_elf);
	ks_modfile_close(&x.debug);
	elf_end(x.elf);
	ks_dwarfrel_free(&x.rel);
	return r;
}

/* The module is read again, mapped or decompressed: only modules with
 * findings that need a location come here, and of those only the ones
 * whose DWARF is in the module or may be in a separate file. */
int ks_dwarf_locate(struct ks_module *m, char *const *syms, size_t nsyms,
		    const struct ks_locate_opts *o, struct ks_diags *d)
{
	struct ks_modfile f;
	const char *why = "";
	int r;

	if (!m->debug.info && !ks_debugfile_possible(m, debug_dir(o))) {
		m->no_debug_info = true;
		return -ENOENT;
	}
	r = ks_modfile_open(m->path, &f, &why);
	if (r == 0)
		r = ks_modfile_map(&f, &why);
	if (r == 0)
		r = ks_dwarf_locate_image(m, f.data, f.size, syms, nsyms, o, d);
	else if (r != -ENOMEM)
		r = ks_diag_add(d, KS_NOTE, m->path, 0, 0, "no source lines from DWARF: %s", why) < 0
			    ? -ENOMEM
			    : 0;
	ks_modfile_close(&f);
	return r;
}
