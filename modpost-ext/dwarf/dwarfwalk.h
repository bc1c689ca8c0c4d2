/* The children of a DIE, read straight from .debug_info: their offsets
 * and tags, each subtree stepped over by its DW_AT_sibling or by reading
 * it through. dwarf/dwarf.c looks through a unit's top-level DIEs (most
 * of them types and declarations) for its functions and variables; libdw
 * takes a lock to look up each DIE's abbreviation, twice per DIE, which
 * costs more than the reading itself. */
#ifndef KS_DWARFWALK_H
#define KS_DWARFWALK_H

#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>

#include "compiler.h"

/* One unit: its bytes in info, its abbreviations. */
struct ks_dwarfwalk {
	const unsigned char *info;	/* .debug_info */
	uint64_t unit, end;		/* the unit's offset and end in it */
	unsigned version, asize, osize; /* address and offset sizes */
	bool msb;
	struct ks_dwarfwalk_abbrev {
		unsigned tag;
		bool children, known;
		uint32_t first, n; /* its attributes: specs[first..first+n) */
		/* the bytes of its attributes when all their forms have a fixed
		 * size, else -1; where DW_AT_sibling's value is among them
		 * (-1: not there) and its size */
		int32_t fixed, sib_at;
		uint8_t sib_size;
	} * abbrevs; /* by code */
	size_t nabbrevs;
	struct ks_dwarfwalk_spec {
		uint16_t at, form;
	} * specs;
	size_t nspecs, capspecs;
};

/* A child: its offset in .debug_info and its tag. */
struct ks_dwarfwalk_die {
	uint64_t off;
	unsigned tag;
};

/* The unit at offset unit of info (its header relocated), with the
 * abbreviations of abbrev. 0; -EINVAL: a unit or a table this reader
 * does not take (a form it does not know, codes it will not index), for
 * the caller to read otherwise; -ENOMEM. */
int ks_dwarfwalk_open(struct ks_dwarfwalk *w, const Elf_Data *info, uint64_t unit,
		      const Elf_Data *abbrev, bool msb) KS_MUST_CHECK;

/* The children of the DIE at offset die (of w's unit) whose tag want
 * takes, in order, into *v (*n of them; the caller frees *v). 0; -EINVAL
 * if the DIEs cannot be read through (nothing is given then); -ENOMEM. */
int ks_dwarfwalk_children(const struct ks_dwarfwalk *w, uint64_t die, bool (*want)(unsigned tag),
			  struct ks_dwarfwalk_die **v, size_t *n) KS_MUST_CHECK;

void ks_dwarfwalk_close(struct ks_dwarfwalk *w);

#endif
