/* An ET_REL module (a .ko, an object) made readable for libdw without
 * libdwfl: its allocated sections given distinct addresses, and the
 * relocations of the DWARF sections that libdw reads applied in place. */
#ifndef KS_DWARFREL_H
#define KS_DWARFREL_H

#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>

#include "compiler.h"

/* An unsigned field of n (at most 8) bytes in an object's byte order. */
static inline uint64_t ks_dwarfrel_field(const unsigned char *p, unsigned n, bool msb)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[msb ? n - 1 - i : i] << (8 * i);
	return v;
}

/* DWARF's initial length at p, of which avail bytes can be read: the
 * bytes it takes (4, or 12 in 64-bit DWARF) into *head, the length that
 * follows into *len; false if either runs past avail. */
static inline bool ks_dwarfrel_length(const unsigned char *p, uint64_t avail, bool msb,
				      uint64_t *head, uint64_t *len)
{
	if (avail < 4)
		return false;
	*head = 4;
	*len = ks_dwarfrel_field(p, 4, msb);
	if (*len == 0xffffffff) {
		if (avail < 12)
			return false;
		*head = 12;
		*len = ks_dwarfrel_field(p + 4, 8, msb);
	}
	return *len <= avail - *head;
}

/* A ULEB128 at *p, before end, which *p passes; false if it runs off. */
static inline bool ks_dwarfrel_uleb(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	unsigned shift = 0;

	*v = 0;
	while (*p < end) {
		unsigned char b = *(*p)++;

		if (shift < 64)
			*v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return true;
	}
	return false;
}

/* Maps the pages of the section headers of image (a private mapping of a
 * module, or memory) for writing before libelf reads them: a page of a
 * file written after it was read costs a copy and a flush of every
 * thread's TLB, which ks_dwarfrel_layout() would pay. */
void ks_dwarfrel_prewrite(char *image, size_t size);

/* Gives each SHF_ALLOC section its own address (sh_addr), in section
 * order: a module and its separate debug file, whose allocated sections
 * are the same, get the same addresses. 0 or -EINVAL (*why says why). */
int ks_dwarfrel_layout(Elf *elf, const char **why) KS_MUST_CHECK;

struct ks_dwarfrel_part;

/* The relocated copies of DWARF sections, which their Elf_Data point to
 * until ks_dwarfrel_free(), after elf_end(); or what relocating
 * .debug_info a range at a time needs. */
struct ks_dwarfrel_buf {
	void *p;
	size_t len;
	bool mapped; /* by mmap(), else by calloc() */
};

struct ks_dwarfrel {
	struct ks_dwarfrel_buf *bufs;
	size_t n, cap;
	struct ks_dwarfrel_part *part;
	struct { /* the file the object's image maps, if it does */
		const char *image;
		size_t size;
		int fd;
	} src;
};

/* Before ks_dwarfrel_begin(): the object's image (what libelf reads) is a
 * private mapping of the file open as fd, from its start, and the
 * relocations that are looked up here and there are read from fd rather
 * than paged in. fd -1 (the default): an image in memory. */
void ks_dwarfrel_source(struct ks_dwarfrel *rel, const char *image, size_t size, int fd);

/* Applies the relocations of .debug_info, .debug_line and the other DWARF
 * sections libdw reads for us (not .debug_frame, not location lists)
 * against symbols defined in a section or absolute, at the addresses
 * ks_dwarfrel_layout() gave; those against undefined symbols are left as
 * they are, as libdwfl leaves them. Each such section is relocated in a
 * copy (kept in rel) that its Elf_Data then points to: writing into a
 * mapped image page by page costs more than copying. 0, -ENOMEM, or
 * -EINVAL when they cannot be applied (a machine without a row in the
 * type table, a relocation outside its section): *why says why. */
int ks_dwarfrel_apply(Elf *elf, struct ks_dwarfrel *rel, const char **why) KS_MUST_CHECK;

/* For reading only the units that hold a use: applies the relocations of
 * the same sections as ks_dwarfrel_apply() except .debug_info and
 * .debug_line, each in a copy, and makes ready to build a .debug_info of
 * some of its units with ks_dwarfrel_units(), and a .debug_line of their
 * line programs with ks_dwarfrel_line(). 0; 1 when that cannot be done
 * safely and nothing was changed (REL entries, relocation types that add
 * to the field): ks_dwarfrel_apply() is then the way; -ENOMEM or -EINVAL
 * as there. */
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
 * ks_dwarfrel_apply().
 *
 * Not all of a unit's relocations are applied then: most of a kernel
 * unit's are its names' and its types', and few of its fields are read.
 * Those against strings (.debug_str) and location lists wait; if wait,
 * all but the unit header's do, and the caller applies those of each
 * field before libdw reads it, which only a unit that refers to no other
 * allows (libdw follows a DW_FORM_ref_addr by itself). */
int ks_dwarfrel_units(struct ks_dwarfrel *rel, const struct ks_dwarfrel_range *u, size_t n,
		      bool wait, const char **why) KS_MUST_CHECK;

/* ks_dwarfrel_complete() applies all the relocations in [lo, hi) of the
 * units' copy (a unit's own DIE, before libdw reads it);
 * ks_dwarfrel_complete_field() those of the len bytes at field, a pointer
 * into the copy (an attribute's value), and does nothing for a pointer
 * elsewhere. ks_dwarfrel_value() gives the value a field of the copy (a
 * DW_FORM_strp) is relocated to: false if no relocation applies to it, or
 * not after ks_dwarfrel_units(). */
int ks_dwarfrel_complete(struct ks_dwarfrel *rel, uint64_t lo, uint64_t hi,
			 const char **why) KS_MUST_CHECK;
int ks_dwarfrel_complete_field(struct ks_dwarfrel *rel, const void *field, size_t len,
			       const char **why) KS_MUST_CHECK;
bool ks_dwarfrel_value(struct ks_dwarfrel *rel, const void *field, uint64_t *v);

/* After ks_dwarfrel_begin(): the line program at offset off of
 * .debug_line (a unit's DW_AT_stmt_list) copied and relocated, before
 * libdw reads it; the rest of that copy stays zeros. Nothing to do after
 * ks_dwarfrel_apply(), or for an offset that is no program's. 0, or
 * -EINVAL as ks_dwarfrel_apply(). */
int ks_dwarfrel_line(struct ks_dwarfrel *rel, uint64_t off, const char **why) KS_MUST_CHECK;
/* After ks_dwarfrel_begin(): the DWARF 5 range list at offset off of
 * .debug_rnglists (a DW_AT_ranges of DW_FORM_sec_offset, relocated)
 * copied and relocated, before libdw reads it; the rest of that copy
 * stays zeros. off ~0 (or a list this reader cannot follow, as for
 * DW_FORM_rnglistx, whose offsets are read from the section): every list.
 * Nothing to do after ks_dwarfrel_apply(). 0, or -EINVAL as
 * ks_dwarfrel_apply(). */
int ks_dwarfrel_rnglist(struct ks_dwarfrel *rel, uint64_t off, unsigned address_size,
			const char **why) KS_MUST_CHECK;

/* Entry i of a relocation section's data (ELF_T_RELA if rela, else
 * ELF_T_REL, in host order as libelf hands it out) as a GElf_Rela, REL's
 * addend 0; false past its end. gelf_getrela() without its lock. */
bool ks_dwarfrel_entry(const Elf_Data *d, bool is64, bool rela, size_t i, GElf_Rela *out);

/* The data of the section called name, unless it has no bytes in the
 * file (SHT_NOBITS) or is still compressed; NULL if there is none. */
Elf_Data *ks_dwarfrel_data(Elf *elf, const char *name);

/* The NUL-terminated string at off of a string section's data d (NULL:
 * none there). */
const char *ks_dwarfrel_string(const Elf_Data *d, uint64_t off);

void ks_dwarfrel_free(struct ks_dwarfrel *rel);

#endif
