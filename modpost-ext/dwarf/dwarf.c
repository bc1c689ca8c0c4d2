/* The module's DWARF as a location source (doc/HACKING.md: location
 * sources), opened: the module or its separate debug file, a dwz
 * alternate file, split DWARF refused. Every section of a .ko starts at
 * address 0, so the sections are laid out and the DWARF relocated first
 * (dwarf/dwarfrel.c), only the units that hold the uses' relocations
 * (gathered first: dwarf/sites.c), then read with libdw, indexed
 * (dwarf/index.c) and each use placed (dwarf/place.c). */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dwarf/debugfile.h"
#include "dwarf/dw.h"
#include "dwarf/dwarf.h"

void ks_dw_problem(struct ks_module *m, struct ks_diags *d, const char *what, const char *why)
{
	ks_diag_add(d, KS_NOTE, m->path, 0, 0, "no source lines from DWARF: %s: %s", what, why);
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
	if (!(x->elf = elf_memory(image, size))) {
		ks_dw_problem(x->m, d, "cannot read the module", elf_errmsg(-1));
		return 0;
	}
	if (!x->libdw && ks_dwarfrel_layout(x->elf, &why) < 0) {
		ks_dw_problem(x->m, d, "cannot lay out the module", why);
		return 0;
	}
	if (has_debug_info(x->elf)) {
		*delf = x->elf;
		return 0;
	}
	r = ks_debugfile_find(x->m->path, x->elf, debug_dir(o), &x->debug, &x->debug_elf, &refused);
	if (r == 0 && refused)
		ks_dw_problem(x->m, d, refused, ".gnu_debuglink CRC mismatch");
	else if (r == 0)
		r = -ENOENT;
	free(refused);
	if (r <= 0)
		return r;
	if (!x->libdw && ks_dwarfrel_layout(x->debug_elf, &why) < 0) {
		ks_dw_problem(x->m, d, "cannot lay out the debug file", why);
		return 0;
	}
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
static void open_dwarf(struct dw *x, Elf *delf, struct ks_diags *d)
{
	const char *why = "";
	int r = ks_dwarfrel_begin(delf, &x->rel, &why);

	if (r == 1)
		r = ks_dwarfrel_apply(delf, &x->rel, &why);
	else if (r == 0)
		r = relocate_units(x, delf, &why);
	if (r < 0)
		ks_dw_problem(x->m, d, "cannot relocate", why);
	else if (!(x->dw = dwarf_begin_elf(delf, DWARF_C_READ, NULL)))
		ks_dw_problem(x->m, d, "cannot read", dwarf_errmsg(-1));
}

/* DW_AT_GNU_dwo_name, GCC's DWARF 4 split-unit attribute. */
#define GNU_DWO_NAME 0x2130

/* The dwz alternate file of x->dw (.gnu_debugaltlink: name and
 * build-id), by its build-id under the debug directory, as Debian ships
 * them: given to libdw (dwarf_setalt()). Whether it was found. */
static bool find_alt(struct dw *x, const char *dir, const unsigned char *id, size_t n)
{
	if (ks_debugfile_by_build_id(dir, id, n, &x->alt, &x->alt_elf) <= 0 ||
	    !(x->alt_dw = dwarf_begin_elf(x->alt_elf, DWARF_C_READ, NULL)))
		return false;
	dwarf_setalt(x->dw, x->alt_dw);
	return true;
}

/* Whether x->dw holds its DIEs itself. Split units keep theirs in .dwo
 * files (-gsplit-dwarf, CONFIG_DEBUG_INFO_SPLIT), which are not read; a
 * dwz-compressed file shares some with an alternate file, looked for
 * under the debug directory. Where they cannot be had: one note, and no
 * lines (x->partial), rather than lines without their functions. */
static void whole(struct dw *x, const struct ks_locate_opts *o, struct ks_diags *d)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die die;
	Dwarf_Attribute a;
	uint8_t type;
	const char *name;
	const void *id;
	ssize_t n;

	if (dwarf_get_units(x->dw, NULL, &cu, NULL, &type, &die, NULL) == 0 &&
	    (type == DW_UT_skeleton || dwarf_attr(&die, DW_AT_dwo_name, &a) ||
	     dwarf_attr(&die, GNU_DWO_NAME, &a))) {
		x->partial = true;
		ks_dw_problem(x->m, d, "split DWARF",
			      "its DIEs are in .dwo files, which are not read (build without "
			      "CONFIG_DEBUG_INFO_SPLIT or -gsplit-dwarf)");
		return;
	}
	n = dwelf_dwarf_gnu_debugaltlink(x->dw, &name, &id);
	if (n <= 0 || find_alt(x, debug_dir(o), id, (size_t)n))
		return;
	x->partial = true;
	ks_dw_problem(x->m, d, name, "its dwz alternate file is not under the debug directory");
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
		r = ks_dw_open_libdw(&x, delf, d);
	if (r == 0 && delf && (!x.libdw || x.dw))
		ks_dw_sites(&x, x.elf, syms, nsyms);
	if (r == 0 && x.naddrs && !x.libdw)
		open_dwarf(&x, delf, d);
	if (r == 0 && x.dw)
		whole(&x, o, d);
	if (r == 0 && x.dw && !x.partial) {
		ks_dw_index_cus(&x);
		for (size_t i = 0; i < x.naddrs; i++)
			ks_dw_place(&x, i);
	}
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
	if (r == 0) {
		r = ks_dwarf_locate_image(m, f.data, f.size, syms, nsyms, o, d);
	} else {
		ks_diag_add(d, KS_NOTE, m->path, 0, 0, "no source lines from DWARF: %s", why);
		r = 0;
	}
	ks_modfile_close(&f);
	return r;
}
