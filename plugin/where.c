/* Whose source a location is: the module's, or the kernel's (its source and
 * build trees, found from the include paths and kernel-dir=) or the
 * system's. Uses are reported at the innermost location that is the
 * module's own. Also places as records give them, and whether the unit
 * defines a symbol. */
/* lib/ first: GCC's options.h defines warn_unused_result as a macro */
#include "buf.h"
#include "path.h"
#include "schedule.h"
#include <ksunset/record.h>

#include "gcc-plugin.h"
#include "tree.h"
#include "diagnostic.h"
#include "toplev.h"
#include "opts.h"
#include "options.h"
#include "stringpool.h"
#include "cgraph.h"
#include "cpplib.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ksunset.h"

static bool is_dir(const char *dir, const char *sub)
{
	struct stat st;
	char *path = concat(dir, "/", sub, NULL);
	bool r = stat(path, &st) == 0 && S_ISDIR(st.st_mode);

	free(path);
	return r;
}

static void add_dir(struct ks_plugin *p, const char *dir)
{
	char *real = lrealpath(dir);

	for (size_t i = 0; i < p->nkdirs; i++) {
		if (!strcmp(p->kdirs[i], real)) {
			free(real);
			return;
		}
	}
	p->kdirs = XRESIZEVEC(char *, p->kdirs, p->nkdirs + 1);
	p->kdirs[p->nkdirs++] = real;
}

/* Looks for a kernel tree at dir and up to five levels above it
 * (include/, arch/x86/include/generated/uapi/ ...). */
static void probe(struct ks_plugin *p, const char *dir)
{
	char *d = lrealpath(dir);

	for (int up = 0; up < 6 && strcmp(d, "/"); up++) {
		char *slash;

		if (ks_path_kernel_tree(d)) {
			add_dir(p, d);
			break;
		}
		slash = strrchr(d, '/');
		if (!slash)
			break;
		*slash = '\0';
		if (!*d)
			break;
	}
	free(d);
}

/* A kernel-dir= that is no directory is an error: a typo there would
 * silently move every use into the kernel's headers. */
bool ks_where_init(struct ks_plugin *p, const char *explicit_dirs)
{
	bool ok = true;

	if (explicit_dirs) {
		char *list = xstrdup(explicit_dirs), *save = NULL;

		for (char *d = strtok_r(list, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
			if (is_dir(d, ".")) {
				add_dir(p, d);
			} else {
				error("%s: kernel-dir %qs is not a directory", p->name, d);
				ok = false;
			}
		}
		free(list);
	}
	/* Kbuild compiles in the kernel's build tree with -I./include and
	 * friends, and -I$(srctree)/include for a separate source tree. */
	if (ks_path_kernel_tree("."))
		add_dir(p, ".");
	for (unsigned i = 0; i < save_decoded_options_count; i++) {
		const struct cl_decoded_option *o = &save_decoded_options[i];

		if ((o->opt_index == OPT_I || o->opt_index == OPT_isystem ||
		     o->opt_index == OPT_idirafter || o->opt_index == OPT_iquote) && o->arg)
			probe(p, o->arg);
	}
	return ok;
}

location_t ks_where_resolve(location_t loc)
{
	loc = linemap_resolve_location(line_table, loc, LRK_MACRO_EXPANSION_POINT, NULL);
	return LOCATION_LOCUS(loc);
}

static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || (n == 1 && dir[0] == '/'));
}

/* The directory of the file being compiled is the module's even inside a
 * kernel tree (an in-tree module built with M=), unless a kernel tree lies
 * within it: the most specific directory decides. */
static int classify(struct ks_plugin *p, const char *file)
{
	char *real = lrealpath(file);
	size_t kernel = 0, module = 0;

	for (size_t i = 0; i < p->nkdirs; i++) {
		if (under(real, p->kdirs[i]) && strlen(p->kdirs[i]) > kernel)
			kernel = strlen(p->kdirs[i]);
	}
	if (!p->srcdir && main_input_filename) {
		char *slash;

		p->srcdir = lrealpath(main_input_filename);
		slash = strrchr(p->srcdir, '/');
		if (slash && slash != p->srcdir)
			*slash = '\0';
	}
	if (p->srcdir && under(real, p->srcdir))
		module = strlen(p->srcdir);
	free(real);
	return kernel > module ? 2 : 1;
}

/* Whether loc (already resolved) lies outside the module's own sources.
 * File names are the line map's, which live as long as the compilation, so
 * they can be the keys of the cache. */
static bool foreign_file(struct ks_plugin *p, location_t loc)
{
	const char *file;
	void **slot;

	if (in_system_header_at(loc))
		return true;
	file = LOCATION_FILE(loc);
	if (!file)
		return true;
	/* the line maps of one file share its name: the last one's answer */
	if (file == p->where_file)
		return p->where_file_foreign;
	ks_strmap_put(&p->foreign, file, &slot);
	if (!*slot)
		*slot = (void *)(intptr_t)classify(p, file);
	p->where_file = file;
	p->where_file_foreign = (intptr_t)*slot == 2;
	return p->where_file_foreign;
}

/* The answer depends on loc's line map alone (its file, whether it is a
 * system header): the last map asked about is remembered, as most calls
 * in a row ask about the same one. */
bool ks_where_foreign(struct ks_plugin *p, location_t loc)
{
	const line_map *map;

	if (loc <= BUILTINS_LOCATION)
		return true;
	map = linemap_lookup(line_table, loc);
	if (map && map == p->where_map)
		return p->where_foreign;
	p->where_foreign = foreign_file(p, loc);
	p->where_map = map;
	return p->where_foreign;
}

int ks_cmp_place(location_t la, const char *na, int ka, location_t lb, const char *nb, int kb)
{
	expanded_location ex = expand_location(la), ey = expand_location(lb);
	int r = strcmp(ex.file ? ex.file : "", ey.file ? ey.file : "");

	if (r)
		return r;
	if (ex.line != ey.line)
		return ex.line < ey.line ? -1 : 1;
	if (ex.column != ey.column)
		return ex.column < ey.column ? -1 : 1;
	r = strcmp(na, nb);
	return r ? r : ka - kb;
}

/* A symbol defined later in the unit than an initializer that named it is
 * not an import either. */
bool ks_defined_here(const char *sym)
{
	symtab_node *n = symtab_node::get_for_asmname(get_identifier(sym));

	return n && n->definition && !DECL_EXTERNAL(n->decl);
}

void ks_record_place(struct ks_plugin *p, location_t loc, struct ks_record_use *r)
{
	expanded_location x = expand_location(loc);

	r->file = const_cast<char *>(x.file ? x.file : "");
	r->line = x.line;
	/* GCC's display column as -fdiagnostics-column-unit=display counts
	 * it by default (a tab to the next multiple of 8), whatever the
	 * options: what the checker reads back and turns into SARIF's */
	r->col = x.column > 0 ? ks_text_display_col(p, x) : 0;
}

location_t ks_where_spelling(location_t loc)
{
	return LOCATION_LOCUS(linemap_resolve_location(line_table, loc, LRK_SPELLING_LOCATION,
						       NULL));
}

/* Spelled in the kernel's headers and not made by a macro that the
 * module's sources expand: a function that a kernel macro pastes together
 * in the module's file (BUFFER_FNS(CSUM, csum) in a module's header) is
 * the module's own, though its name is spelled in the kernel's header. */
bool ks_where_kernel(struct ks_plugin *p, location_t loc)
{
	location_t at = LOCATION_LOCUS(
		linemap_resolve_location(line_table, loc, LRK_MACRO_EXPANSION_POINT, NULL));

	loc = ks_where_spelling(loc);
	return loc > BUILTINS_LOCATION && !in_system_header_at(loc) && ks_where_foreign(p, loc) &&
	       ks_where_foreign(p, at);
}
