/* An ET_REL module (a .ko, an object) made readable for libdw without
 * libdwfl: its allocated sections given distinct addresses, and the
 * relocations of the DWARF sections that libdw reads applied in place. */
#ifndef KS_DWARFREL_H
#define KS_DWARFREL_H

#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>

#include "compiler.h"
#include "dwarf/bytes.h"

/* Gives each SHF_ALLOC section its own address (sh_addr), in section
 * order: a module and its separate debug file, whose allocated sections
 * are the same, get the same addresses. 0 or -EINVAL (*why says why). */
int ks_dwarfrel_layout(Elf *elf, const char **why) KS_MUST_CHECK;

struct ks_dwarfrel_part;

/* The relocated copies of DWARF sections, which their Elf_Data point to
 * until ks_dwarfrel_free(), after elf_end(); and what relocating
 * .debug_info a unit at a time needs. */
struct ks_dwarfrel {
	void **bufs;
	size_t n, cap;
	struct ks_dwarfrel_part *part;
};

/* Applies the relocations of .debug_info, .debug_line and the other DWARF
 * sections libdw reads for us (not .debug_frame, not location lists)
 * against symbols defined in a section or absolute, at the addresses
 * ks_dwarfrel_layout() gave; those against undefined symbols are left as
 * they are, as libdwfl leaves them. Each such section is relocated in a
 * copy (kept in rel) that its Elf_Data then points to. 0, or -EINVAL
 * when they cannot be applied (a machine without a row in the type
 * table, a relocation outside its section): *why says why. */
int ks_dwarfrel_apply(Elf *elf, struct ks_dwarfrel *rel, const char **why) KS_MUST_CHECK;

/* For reading only the units that hold a use: applies the relocations of
 * the same sections as ks_dwarfrel_apply() but .debug_info, each in a
 * copy, and makes ready to build a .debug_info of some of its units with
 * ks_dwarfrel_units(). 0; 1 when that cannot be done safely and nothing
 * was changed (REL entries, relocation types that add to the field):
 * ks_dwarfrel_apply() is then the way; or -EINVAL as there. */
int ks_dwarfrel_begin(Elf *elf, struct ks_dwarfrel *rel, const char **why) KS_MUST_CHECK;

/* Bytes [lo, hi) of a section. */
struct ks_dwarfrel_range {
	uint64_t lo, hi;
};

/* After ks_dwarfrel_begin(): .debug_info's data becomes a copy of the
 * units u (whole units, sorted, not overlapping; hi is cut to the
 * section's end), one after the other, relocated. Offsets within a unit
 * stay right; offsets across units (DW_FORM_ref_addr) do not, so a
 * caller that finds such forms calls it again with every unit. Again
 * replaces the copy. The relocations of a unit are found by bisection;
 * one found out of order turns that into a scan. 0, or -EINVAL as
 * ks_dwarfrel_apply(). */
int ks_dwarfrel_units(struct ks_dwarfrel *rel, const struct ks_dwarfrel_range *u, size_t n,
		      const char **why) KS_MUST_CHECK;

/* The data of the section called name, unless it has no bytes in the
 * file (SHT_NOBITS) or is still compressed; NULL if there is none. */
Elf_Data *ks_dwarfrel_data(Elf *elf, const char *name);

void ks_dwarfrel_free(struct ks_dwarfrel *rel);

#endif
