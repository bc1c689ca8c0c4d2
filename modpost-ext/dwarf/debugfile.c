/* A stripped module's separate debug file: what the module's sections say
 * of it (its build-id, its .gnu_debuglink), whether one may be there, and
 * finding it under the debug directory. */
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "dwarf/debugfile.h"
#include "dwarf/dwarfrel.h"
#include "module/section.h"

/* The file at path, if it is ELF with the module's build-id: mapped (or
 * read and decompressed) into *f, opened as *delf. */
static bool try_debug_file(const char *path, const void *id, int idlen, struct ks_modfile *f,
			   Elf **delf)
{
	const char *why;
	const void *got;

	bool ok = ks_modfile_open(path, f, &why) == 0 && ks_modfile_map(f, &why) == 0;

	if (ok)
		ks_dwarfrel_prewrite(f->data, f->size);
	if (!ok || !(*delf = elf_memory(f->data, f->size)) ||
	    dwelf_elf_gnu_build_id(*delf, &got) != idlen || memcmp(id, got, (size_t)idlen)) {
		elf_end(*delf);
		*delf = NULL;
		ks_modfile_close(f);
		return false;
	}
	return true;
}

/* DIR/.build-id/xx/rest.debug, as libdwfl looks for it. */
static int find_by_build_id(const char *dir, const unsigned char *id, int n, struct ks_modfile *f,
			    Elf **delf)
{
	struct ks_buf path = KS_BUF_INIT;
	int r = ks_buf_addf(&path, "%s/.build-id/", dir);

	for (int i = 0; i < n && r == 0; i++)
		r = ks_buf_addf(&path, i == 1 ? "/%02x" : "%02x", id[i]);
	if (r == 0)
		r = ks_buf_adds(&path, ".debug");
	if (r == 0)
		r = try_debug_file(path.p, id, n, f, delf) ? 1 : 0;
	ks_buf_free(&path);
	return r;
}

/* DIR/<the module's absolute path>, without .xz/.zst/.gz: where Debian's
 * -dbg packages put in-tree modules (DIR/lib/modules/<release>/...).
 * NULL if the path cannot be resolved or there is no memory. */
static char *path_under(const char *dir, const char *module)
{
	char real[PATH_MAX], *path, *dot;

	if (!realpath(module, real) || asprintf(&path, "%s%s", dir, real) < 0)
		return NULL;
	dot = strrchr(path, '.');
	if (dot && (!strcmp(dot, ".xz") || !strcmp(dot, ".zst") || !strcmp(dot, ".gz")))
		*dot = '\0';
	return path;
}

static int find_by_path(const char *module, const char *dir, const unsigned char *id, int n,
			struct ks_modfile *f, Elf **delf)
{
	char *path = path_under(dir, module);
	int r;

	if (!path)
		return 0;
	r = try_debug_file(path, id, n, f, delf) ? 1 : 0;
	free(path);
	return r;
}

int ks_debugfile_find(const char *path, Elf *elf, const char *dir, struct ks_modfile *file,
		      Elf **delf, char **refused)
{
	const void *id;
	int n = dwelf_elf_gnu_build_id(elf, &id), r;

	*delf = NULL;
	*refused = NULL;
	if (n <= 0)
		return 0;
	r = find_by_build_id(dir, id, n, file, delf);
	return r ? r : find_by_path(path, dir, id, n, file, delf);
}

int ks_debugfile_link_read(struct ks_module *m, Elf *elf, Elf_Scn *scn, struct ks_diags *d,
			   struct ks_diags *late)
{
	(void)elf, (void)scn, (void)d, (void)late;
	m->debug.search = true;
	return 0;
}

/* The GNU build-id note; one that cannot be read or kept only means that
 * separate debug files are searched for as before. */
int ks_debugfile_build_id_read(struct ks_module *m, Elf *elf, Elf_Scn *scn, struct ks_diags *d,
			       struct ks_diags *late)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t name_off, desc_off;
	GElf_Nhdr nh;

	(void)elf, (void)d, (void)late;
	if (data && gelf_getnote(data, 0, &nh, &name_off, &desc_off) > 0 &&
	    nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == sizeof("GNU") &&
	    !memcmp((const char *)data->d_buf + name_off, "GNU", sizeof("GNU")) &&
	    nh.n_descsz > 0 && nh.n_descsz <= sizeof(m->debug.build_id) &&
	    ks_in_range(desc_off, nh.n_descsz, data->d_size)) {
		memcpy(m->debug.build_id, (const char *)data->d_buf + desc_off, nh.n_descsz);
		m->debug.build_id_len = nh.n_descsz;
	} else {
		m->debug.search = true;
	}
	return 0;
}

/* Whether the file the format names exists; true when it cannot be told. */
static bool exists(const char *fmt, ...) KS_PRINTF(1, 2);

static bool exists(const char *fmt, ...)
{
	va_list ap;
	char *path;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&path, fmt, ap);
	va_end(ap);
	if (n < 0)
		return true;
	n = access(path, F_OK);
	free(path);
	return n == 0;
}

/* Looking where ks_debugfile_find() looks: DIR/.build-id/xx/rest.debug,
 * then path_under(). When in doubt (a build-id too long to keep), yes. */
bool ks_debugfile_possible(const struct ks_module *m, const char *dir)
{
	char hex[2 * sizeof(m->debug.build_id) + 1] = "";
	char *path;
	bool r;

	if (m->debug.search)
		return true;
	if (!m->debug.build_id_len)
		return false;
	for (size_t i = 0; i < m->debug.build_id_len; i++)
		snprintf(hex + 2 * i, 3, "%02x", m->debug.build_id[i]);
	if (exists("%s/.build-id/%.2s/%s.debug", dir, hex, hex + 2))
		return true;
	path = path_under(dir, m->path);
	r = !path || exists("%s", path);
	free(path);
	return r;
}
