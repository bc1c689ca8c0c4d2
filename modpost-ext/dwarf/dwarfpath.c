/* Whose source a DWARF file name is (dwarf/dwarfpath.h). A kernel tree is
 * recognised as the plugin recognises one (ks_path_kernel_tree(): arch/,
 * scripts/ and include/linux/kernel.h or include/generated/), or, when it
 * is not on this machine, by its name (linux-headers-*, linux-6.1.90,
 * linux) or as the directory Kbuild compiled the unit in (Debian's
 * /debian/build/build_amd64_none_amd64 of its -dbg modules): modules are
 * often checked far from the tree they were built in. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "path.h"
#include "dwarf/dwarfpath.h"

/* Directories of the compiler's own headers (stdarg.h and friends). */
static const char *const system_dirs[] = { "/usr/include/", "/usr/lib/gcc/", "/usr/lib/llvm-",
					   "/usr/local/include/" };

/* Distribution header packages and release tarballs: linux,
 * linux-headers-*, linux-source-*, linux-6.1.90. */
static bool tree_by_name(const char *dir)
{
	const char *base = strrchr(dir, '/');

	base = base ? base + 1 : dir;
	if (strncmp(base, "linux", 5))
		return false;
	base += 5;
	return !*base || !strncmp(base, "-headers-", 9) || !strncmp(base, "-source-", 8) ||
	       (base[0] == '-' && base[1] >= '0' && base[1] <= '9');
}

/* Whether dir is a kernel tree, asked once per directory. */
static bool is_tree_cached(void *ctx, const char *dir)
{
	struct ks_dwarfpath *p = ctx;
	intptr_t known = (intptr_t)ks_strmap_get(&p->trees, dir);
	void **slot;
	bool r;

	if (known)
		return known == 2;
	r = tree_by_name(dir) || (p->kbuild && p->comp_dir && !strcmp(dir, p->comp_dir)) ||
	    ks_path_kernel_tree(dir);
	ks_strmap_put(&p->trees, ks_xstrdup(dir), &slot);
	*slot = (void *)(intptr_t)(r ? 2 : 1);
	return r;
}

/* Whether the part of path before rest (a "/include/" or "/arch/X/include/"
 * inside it) is a kernel tree. */
static bool tree_before(const char *path, const char *rest,
			bool (*is_tree)(void *ctx, const char *dir), void *ctx)
{
	char *dir = ks_xstrndup(path, (size_t)(rest - path));
	bool r = dir[0] && is_tree(ctx, dir);

	free(dir);
	return r;
}

bool ks_dwarfpath_classify(const char *path, bool (*is_tree)(void *ctx, const char *dir),
			   void *ctx)
{
	if (path[0] != '/')
		return path[0] == '<'; /* <built-in> */
	for (size_t i = 0; i < KS_ARRAY_SIZE(system_dirs); i++)
		if (!strncmp(path, system_dirs[i], strlen(system_dirs[i])))
			return true;
	for (const char *s = path; (s = strchr(s, '/')); s++) {
		const char *sub = NULL;

		if (!strncmp(s, "/include/", 9))
			sub = s;
		else if (!strncmp(s, "/arch/", 6) && (sub = strchr(s + 6, '/')) &&
			 strncmp(sub, "/include/", 9))
			sub = NULL;
		if (sub && tree_before(path, s, is_tree, ctx))
			return true;
	}
	return false;
}

/* file after dir (NULL: none), made absolute with "." and ".." resolved. */
static char *joined(const char *dir, const char *file)
{
	char *abs = *file == '/' ? ks_xstrdup(file)
		    : ks_strdupf("%s%s/%s", dir && *dir == '/' ? "" : "/", dir ? dir : "", file);
	char *r = ks_path_clean(NULL, abs);

	free(abs);
	return r;
}

char *ks_dwarfpath_absolute(struct ks_dwarfpath *p, Dwarf_Die *cu, const char *file)
{
	Dwarf_Attribute a;

	(void)p;
	if (file[0] == '<')
		return ks_xstrdup(file);
	return joined(file[0] != '/' ? dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &a)) : NULL,
		      file);
}

bool ks_dwarfpath_foreign(struct ks_dwarfpath *p, Dwarf_Die *cu, const char *file)
{
	Dwarf_Attribute a;
	const char *dir;
	void **slot;
	char *abs;
	bool r;

	if (!ks_strmap_put(&p->files, file, &slot))
		return (intptr_t)*slot == 2;
	abs = ks_dwarfpath_absolute(p, cu, file);
	dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &a));
	if (dir)
		p->comp_dir = joined(NULL, dir);
	r = ks_dwarfpath_classify(abs, is_tree_cached, p);
	free(p->comp_dir);
	p->comp_dir = NULL;
	free(abs);
	*slot = (void *)(intptr_t)(r ? 2 : 1);
	return r;
}

/* The source at path, read once while uses stay in it. */
static void load_source(struct ks_dwarfpath *p, const char *path)
{
	if (p->src_path && !strcmp(p->src_path, path))
		return;
	free(p->src_path);
	ks_buf_reset(&p->src);
	p->src_path = ks_xstrdup(path);
	p->src_ok = ks_buf_read_file(&p->src, path) == 0;
}

void ks_dwarfpath_display_col(struct ks_dwarfpath *p, const char *path, unsigned line,
			      unsigned *col)
{
	const char *s, *end;
	unsigned dcol = 1;

	if (!*col)
		return;
	load_source(p, path);
	if (!p->src_ok)
		return;
	s = p->src.p;
	end = s + p->src.len;
	for (unsigned n = 1; n < line && s < end; n++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));

		s = nl ? nl + 1 : end;
	}
	if (s == end || (size_t)(end - s) < *col - 1)
		return;
	for (const char *c = s; c < s + *col - 1; c++) {
		if (*c == '\n')
			return;
		if (*c == '\t')
			dcol = ((dcol - 1) / 8 + 1) * 8 + 1;
		else if (((unsigned char)*c & 0xc0) != 0x80) /* not a UTF-8 continuation */
			dcol++;
	}
	*col = dcol;
}

void ks_dwarfpath_free(struct ks_dwarfpath *p)
{
	free(p->src_path);
	ks_buf_free(&p->src);
	for (size_t i = 0; i < p->trees.cap; i++)
		free((char *)p->trees.slots[i].key);
	ks_strmap_free(&p->files);
	ks_strmap_free(&p->trees);
}
