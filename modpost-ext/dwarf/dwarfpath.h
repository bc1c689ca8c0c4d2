/* Whose source a file named by DWARF is: the module's, or the kernel's
 * (its trees' include/ and arch/ARCH/include/) or the compiler's. The
 * plugin's rule (plugin/where.c), applied to the paths DWARF records. */
#ifndef KS_DWARFPATH_H
#define KS_DWARFPATH_H

#include <dwarf.h>
#include <elfutils/libdw.h>

#include "buf.h"
#include "compiler.h"
#include "strmap.h"

/* The answers so far, per file and per candidate kernel tree. */
struct ks_dwarfpath {
	/* set by the caller: the module was built by Kbuild (it has a
	 * vermagic), which compiles every unit in the kernel's top directory:
	 * a unit's DW_AT_comp_dir is a kernel tree, here or not */
	bool kbuild;
	char *comp_dir;		/* the unit's, absolute, while its file is classified */
	struct ks_strmap files; /* file (libdw's string) -> 1 module's, 2 foreign */
	struct ks_strmap trees; /* directory (owned) -> 1 not a kernel tree, 2 one */
	char *src_path;		/* the source last read for columns, and its text */
	struct ks_buf src;
	bool src_ok;
};

/* file made absolute against cu's DW_AT_comp_dir, with "." and ".."
 * components resolved. */
char *ks_dwarfpath_absolute(struct ks_dwarfpath *p, Dwarf_Die *cu, const char *file);
/* Whether file (as in cu) is outside the module's sources. */
bool ks_dwarfpath_foreign(struct ks_dwarfpath *p, Dwarf_Die *cu, const char *file);
/* The same for an absolute, normalised path, given the kernel-tree test
 * (is_tree(dir): whether dir is a kernel tree). */
bool ks_dwarfpath_classify(const char *path, bool (*is_tree)(void *ctx, const char *dir),
			   void *ctx);
/* DWARF's column (bytes, 1-based) of line of the source at path as GCC's
 * display column (tabs to the next multiple of 8), as the plugin records
 * it; unchanged when the source cannot be read here. */
void ks_dwarfpath_display_col(struct ks_dwarfpath *p, const char *path, unsigned line,
			      unsigned *col);
void ks_dwarfpath_free(struct ks_dwarfpath *p);

#endif
