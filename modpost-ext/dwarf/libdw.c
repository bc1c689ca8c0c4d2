/* KSUNSET_DWARF_READER=libdw (dwarf/dw.h): libdwfl reads the module. */
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dwarf/dw.h"

/* KSUNSET_DWARF_READER=libdw: the oracle that t-dwarf-libdw holds
 * dwarf/dwarfrel.c and dwarfpick.c to. libdwfl lays the sections out and
 * relocates the whole DWARF, every unit. The file given is the one with
 * the DWARF: no other is looked for. */
static int no_debuginfo(Dwfl_Module *mod, void **user, const char *name, Dwarf_Addr base,
			const char *file, const char *debuglink, GElf_Word crc, char **path)
{
	(void)mod, (void)user, (void)name, (void)base, (void)file, (void)debuglink, (void)crc;
	(void)path;
	return -1;
}

static const Dwfl_Callbacks offline = {
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* libdwfl's section addresses, given to to's sections (the module's). */
static bool take_layout(Elf *from, Elf *to)
{
	Elf_Scn *a = NULL, *b;
	GElf_Shdr sa, sb;

	while ((a = elf_nextscn(from, a))) {
		if (!gelf_getshdr(a, &sa) || !(sa.sh_flags & SHF_ALLOC))
			continue;
		if (!(b = elf_getscn(to, elf_ndxscn(a))) || !gelf_getshdr(b, &sb))
			return false;
		sb.sh_addr = sa.sh_addr;
		if (!gelf_update_shdr(b, &sb))
			return false;
	}
	return true;
}

int ks_dw_open_libdw(struct dw *x, Elf *delf, struct ks_diags *d)
{
	const char *data = delf == x->elf ? x->image : x->debug.data;
	size_t size = delf == x->elf ? x->size : x->debug.size, done = 0;
	char path[64];
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	Elf *lelf;

	x->memfd = memfd_create("ksunset-dwarf", MFD_CLOEXEC);
	while (x->memfd >= 0 && done < size) {
		ssize_t n = write(x->memfd, data + done, size - done);

		if (n <= 0) {
			ks_dw_problem(x->m, d, "libdw", "cannot copy the DWARF's file");
			return 0;
		}
		done += (size_t)n;
	}
	if (x->memfd < 0) {
		ks_dw_problem(x->m, d, "libdw", "no memory file");
		return 0;
	}
	if (!(x->dwfl = dwfl_begin(&offline))) {
		ks_dw_problem(x->m, d, "libdwfl", dwfl_errmsg(-1));
		return 0;
	}
	/* by name: libdwfl closes a descriptor it is given */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", x->memfd);
	mod = dwfl_report_offline(x->dwfl, "module", path, -1);
	if (!mod || dwfl_report_end(x->dwfl, NULL, NULL) != 0)
		ks_dw_problem(x->m, d, "libdwfl", dwfl_errmsg(-1));
	else if (!(x->dw = dwfl_module_getdwarf(mod, &bias)) ||
		 !(lelf = dwfl_module_getelf(mod, &bias)))
		ks_dw_problem(x->m, d, "libdwfl", dwfl_errmsg(-1));
	else if (bias || !take_layout(lelf, x->elf))
		ks_dw_problem(x->m, d, "libdwfl", "cannot take its section layout");
	return 0;
}
