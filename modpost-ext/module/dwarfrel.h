/* An ET_REL module (a .ko, an object) made readable for libdw without
 * libdwfl: its allocated sections given distinct addresses, and the
 * relocations of the DWARF sections that libdw reads applied in place. */
#ifndef KS_DWARFREL_H
#define KS_DWARFREL_H

#include <gelf.h>

#include "compiler.h"

/* Gives each SHF_ALLOC section its own address (sh_addr), in section
 * order: a module and its separate debug file, whose allocated sections
 * are the same, get the same addresses. 0 or -EINVAL (*why says why). */
int ks_dwarfrel_layout(Elf *elf, const char **why) KS_MUST_CHECK;

/* The relocated copies of DWARF sections, which their Elf_Data point to
 * until ks_dwarfrel_free(), after elf_end(). */
struct ks_dwarfrel {
	void **bufs;
	size_t n, cap;
};

/* Applies the relocations of .debug_info, .debug_line and the other DWARF
 * sections libdw reads for us (not .debug_frame) against symbols defined
 * in a section or absolute, at the addresses ks_dwarfrel_layout() gave;
 * those against undefined symbols are left as they are, as libdwfl leaves
 * them. Each such section is relocated in a copy (kept in rel) that its
 * Elf_Data then points to: writing into a mapped image page by page costs
 * more than copying. 0, -ENOMEM, or -EINVAL when they cannot be applied
 * (a machine without a row in the type table, a relocation outside its
 * section): *why says why. */
int ks_dwarfrel_apply(Elf *elf, struct ks_dwarfrel *rel, const char **why) KS_MUST_CHECK;
void ks_dwarfrel_free(struct ks_dwarfrel *rel);

#endif
