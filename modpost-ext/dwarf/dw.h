/* The rooms of the DWARF location source (dwarf/dwarf.h), and what they
 * share: struct dw, one module's reading. sites.c gathers the uses'
 * relocations, index.c indexes the DIEs that hold them, place.c places
 * each on a line, a function or a variable, dwarf.c opens the module and
 * its DWARF (a separate debug file, dwz, split DWARF) and runs them in
 * turn; libdw.c is the comparison path (KSUNSET_DWARF_READER=libdw). */
#ifndef KS_DW_H
#define KS_DW_H

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "dwarf/dwarfpath.h"
#include "dwarf/dwarfpick.h"
#include "dwarf/dwarfrel.h"
#include "module/elfmod.h"
#include "module/modfile.h"
#include "module/use.h"

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

/* sites.c: every relocation of the module against one of syms (sorted),
 * gathered in x->addrs and x->sites. */
void ks_dw_sites(struct dw *x, Elf *elf, char *const *syms, size_t nsyms);
/* index.c: every CU's ranges, and the functions of those that hold a
 * code use; the units' variables (nested: function-local statics too). */
void ks_dw_index_cus(struct dw *x);
void ks_dw_index_vars(struct dw *x, bool nested);
/* place.c: gathered use i, placed: a use added to x->m->uses, or none. */
void ks_dw_place(struct dw *x, size_t i);
/* libdw.c: delf's DWARF read by libdwfl, which lays out and relocates it
 * all (the oracle t-dwarf-libdw holds dwarfrel.c and dwarfpick.c to). */
int ks_dw_open_libdw(struct dw *x, Elf *delf, struct ks_diags *d) KS_MUST_CHECK;
/* dwarf.c: "no source lines from DWARF: WHAT: WHY", a note. */
void ks_dw_problem(struct ks_module *m, struct ks_diags *d, const char *what, const char *why);

#endif
