/* Which units of a module's .debug_info hold the addresses of its uses,
 * so that only those are relocated and read (dwarf/dwarf.c): code
 * through .debug_aranges, data through the ELF symbol table. */
#ifndef KS_DWARFPICK_H
#define KS_DWARFPICK_H

#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>

#include "compiler.h"
#include "dwarf/dwarfrel.h"

/* Address ranges [lo, hi), each with what it is of (a unit's or a DIE's
 * offset): .debug_aranges here, functions, units and variables in
 * dwarf/index.c. */
struct ks_span {
	uint64_t lo, hi, what;
};

struct ks_spans {
	struct ks_span *v;
	size_t n, cap;
};

void ks_spans_add(struct ks_spans *s, uint64_t lo, uint64_t hi, uint64_t what);
/* By lo, before ks_spans_find(). */
void ks_spans_sort(struct ks_spans *s);
/* The span holding addr: the last one starting at or before it, or one of
 * the few before that (ranges may nest: those of comdat code); NULL if
 * none. */
const struct ks_span *ks_spans_find(const struct ks_spans *s, uint64_t addr);

/* A use's address as ks_dwarfrel_layout() laid the sections out; for data
 * also its section (index) and offset there. */
struct ks_dwarfpick_addr {
	uint64_t addr;
	size_t scn;
	uint64_t off;
	bool code;
};

/* The units (their bytes in .debug_info, header included; sorted, each
 * once) that hold the addresses: a code
 * address is looked up in .debug_aranges; a data address's variable is
 * found in elf's symbol table, then a function of the same source file
 * (the file symbol before a local variable), which .debug_aranges knows. delf: the object with
 * the DWARF, its .debug_aranges relocated (ks_dwarfrel_begin()). 0; 1
 * when some address cannot be placed so (Clang writes no
 * .debug_aranges; a global variable, whose file is not known), and
 * every unit must be read. */
int ks_dwarfpick_units(Elf *elf, Elf *delf, const struct ks_dwarfpick_addr *a, size_t n,
		       struct ks_dwarfrel_range **units, size_t *nunits) KS_MUST_CHECK;

/* Whether every unit of delf's .debug_info refers only to itself: its
 * abbreviations use no form that refers across units (DW_FORM_ref_addr,
 * which GCC writes only with LTO; references to supplementary files).
 * false also when a unit or its abbreviations cannot be read. */
bool ks_dwarfpick_self_contained(Elf *delf);

#endif
