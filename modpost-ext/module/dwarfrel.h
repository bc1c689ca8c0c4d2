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

/* Applies in place the relocations of .debug_info, .debug_line and the
 * other DWARF sections libdw reads for us (not .debug_frame) against
 * symbols defined in a section or absolute, at the addresses
 * ks_dwarfrel_layout() gave; those against undefined symbols are left as
 * they are, as libdwfl leaves them. The sections' data must be writable
 * (elf_memory() on a private image). 0, -ENOMEM, or -EINVAL when they
 * cannot be applied (a machine without a row in the type table, a
 * relocation outside its section): *why says why. */
int ks_dwarfrel_apply(Elf *elf, const char **why) KS_MUST_CHECK;

#endif
