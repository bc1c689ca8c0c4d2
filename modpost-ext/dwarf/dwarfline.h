/* A compilation unit's line table read straight from .debug_line, for
 * the few addresses of a unit's uses: libdw decodes, stores and sorts
 * every row of a unit's table to answer one address, which for a kernel unit (thousands
 * of rows, mostly from headers) costs more than all the rest of placing
 * its uses. Rows and file names come out as libdw gives them
 * (dwarf_getsrc_die(), dwarf_filesrc()); a table this reader does not
 * take is left to libdw. */
#ifndef KS_DWARFLINE_H
#define KS_DWARFLINE_H

#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>

#include "compiler.h"

struct ks_dwarfline {
	bool msb;
	unsigned version, address_size;
	unsigned min_inst, max_ops, line_range, opcode_base;
	int line_base;
	const unsigned char *lengths; /* lengths[op]: operands of standard opcode op */
	struct ks_dwarfline_special { /* what special opcode op adds */
		int line;
		unsigned ops;
	} special[256];
	const unsigned char *prog, *end;
	struct ks_dwarfline_name { /* by index: the directory's name and the file's, joined once asked for */
		const char *dir, *name;
		char *joined;
	} * files;
	size_t nfiles, capfiles;
	bool checked; /* the program run once, and taken */
};

/* What a unit's table is read with: .debug_line (relocated), the
 * string sections its header may point into, the byte order. */
struct ks_dwarfline_src {
	const Elf_Data *line, *str, *line_str;
	bool msb;
};

struct ks_dwarfline_row {
	unsigned file;
	int line;
	unsigned col;
};

/* The header and file names of the table at offset off. comp_dir: the
 * unit's (directory 0 before DWARF 5; may be NULL); address_size: the
 * unit's. The data of s->line must outlive l. 0; -EINVAL: not a table
 * this reader takes (DW_LNE_define_file, a form it does not know, a
 * header that does not add up, one libdw would refuse), for libdw to
 * read; -ENOMEM.
 *
 * libdw takes or refuses a table whole, program included, before it gives
 * a row or a file name: so does this reader, but the program is not run
 * until ks_dwarfline_check() or ks_dwarfline_find_all(), which return
 * -EINVAL for a program libdw would refuse, and then the table is
 * libdw's to read. */
int ks_dwarfline_read(struct ks_dwarfline *l, const struct ks_dwarfline_src *s, uint64_t off,
		      const char *comp_dir, unsigned address_size) KS_MUST_CHECK;

/* The program run, its rows not kept. 0 or -EINVAL. */
int ks_dwarfline_check(struct ks_dwarfline *l) KS_MUST_CHECK;

/* The row dwarf_getsrc_die() gives for pc: of the rows at or before pc,
 * ordered by address, end of sequence before other rows at the same
 * address, then as written, the last, unless it ends a sequence or is
 * the last of all. ks_dwarfline_find_all() answers for each of pcs[0..n)
 * (in any order; found[i] 1 and rows[i], or found[i] 0) with one run of
 * the program and no row kept: a unit's uses are asked for together.
 * 0; -EINVAL as ks_dwarfline_check(); -ENOMEM. */
int ks_dwarfline_find_all(struct ks_dwarfline *l, const uint64_t *pcs, size_t n,
			  struct ks_dwarfline_row *rows, int *found) KS_MUST_CHECK;

/* The name of file idx as dwarf_filesrc() gives it (after a check), or
 * NULL. */
const char *ks_dwarfline_file(struct ks_dwarfline *l, unsigned idx);

void ks_dwarfline_free(struct ks_dwarfline *l);

#endif
