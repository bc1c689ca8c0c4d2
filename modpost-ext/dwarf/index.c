/* The DWARF's indexes (dwarf/dw.h): each CU's ranges once, the functions
 * of the units that hold a code use, the variables once (the units' own,
 * then function-local statics when those are not enough). */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dwarf/dw.h"

/* The ranges of a CU's functions: a relocation's scopes are then searched
 * from its function down, not through every function of the CU. */
static void index_fn(struct dw *x, Dwarf_Die *c)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t r = 0;

	while ((r = dwarf_ranges(c, r, &base, &lo, &hi)) > 0)
		if (hi > lo)
			ks_spans_add(&x->fns, lo, hi, dwarf_dieoffset(c));
}

static void index_fns(struct dw *x, Dwarf_Die *cu)
{
	Dwarf_Die c;

	if (dwarf_child(cu, &c) != 0)
		return;
	do {
		if (dwarf_tag(&c) == DW_TAG_subprogram)
			index_fn(x, &c);
	} while (dwarf_siblingof(&c, &c) == 0);
}

static int off_cmp(const void *a, const void *b)
{
	Dwarf_Off x = *(const Dwarf_Off *)a, y = *(const Dwarf_Off *)b;

	return (x > y) - (x < y);
}

/* The functions of every unit that holds a code use, indexed: a use's
 * scopes are then searched from its function down, not through all of
 * its unit's (amdgpu.ko's check with every export scheduled, with and
 * without this index: bench/results.md, "DWARF lines"). */
static void per_unit(struct dw *x)
{
	Dwarf_Off *v = ks_xmalloc(x->naddrs * sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; i < x->naddrs; i++) {
		const struct ks_span *s = x->addrs[i].code ? ks_spans_find(&x->cus, x->addrs[i].addr)
							: NULL;

		if (s)
			v[n++] = s->what;
	}
	qsort(v, n, sizeof(*v), off_cmp);
	for (size_t i = 0; i < n; i++) {
		Dwarf_Die die;

		if ((!i || v[i] != v[i - 1]) && dwarf_offdie(x->dw, v[i], &die))
			index_fns(x, &die);
	}
	free(v);
	ks_spans_sort(&x->fns);
}

/* Every CU's ranges, walking the CUs: Clang writes no .debug_aranges, so
 * they are not asked for. Then what per_unit() does. */
void ks_dw_index_cus(struct dw *x)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dwarf_nextcu(x->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Addr base, lo, hi;
		ptrdiff_t r = 0;

		if (dwarf_offdie(x->dw, off + hsize, &cu)) {
			while ((r = dwarf_ranges(&cu, r, &base, &lo, &hi)) > 0)
				if (hi > lo)
					ks_spans_add(&x->cus, lo, hi, dwarf_dieoffset(&cu));
		}
		off = next;
	}
	ks_spans_sort(&x->cus);
	per_unit(x);
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
static void index_vars_in(struct dw *x, Dwarf_Die *parent, int depth, bool nested);

/* One child of a unit's or a function's, as index_vars_in() takes it. */
static void index_var(struct dw *x, Dwarf_Die *c, int tag, int depth, bool nested)
{
	Dwarf_Addr a;

	if (tag == DW_TAG_variable) {
		if ((depth > 0) == nested && var_address(c, &a))
			ks_spans_add(&x->vars, a, a + type_size(c), dwarf_dieoffset(c));
	} else if (nested && (tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block)) {
		index_vars_in(x, c, depth + 1, nested);
	}
}

static void index_vars_in(struct dw *x, Dwarf_Die *parent, int depth, bool nested)
{
	Dwarf_Die c;
	int more;

	if (depth > 8 || dwarf_child(parent, &c) != 0)
		return;
	for (more = 0; more == 0; more = dwarf_siblingof(&c, &c))
		index_var(x, &c, dwarf_tag(&c), depth, nested);
}

/* The units' variables, nested or not, added to x->vars: a variable that
 * holds a use is most often the unit's own (a table of operations), and
 * walking every function for its statics costs more than all the rest. */
void ks_dw_index_vars(struct dw *x, bool nested)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	x->vars_read = nested ? 2 : 1;
	while (dwarf_nextcu(x->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(x->dw, off + hsize, &cu))
			index_vars_in(x, &cu, 0, nested);
		off = next;
	}
	ks_spans_sort(&x->vars);
}
