/* A module's own exports from its symbol table (module/exports.h). Every
 * offset read from the file is checked against the section it points
 * into; symbols whose values do not fit are skipped. */
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "module/exports.h"
#include "module/modfile.h"
#include "module/section.h"

/* The NUL-terminated string at off in section ndx, or NULL. */
static const char *string_at(Elf *elf, size_t ndx, GElf_Addr off)
{
	Elf_Scn *scn = elf_getscn(elf, ndx);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	const char *p;

	if (!d || !d->d_buf || off >= d->d_size)
		return NULL;
	p = (const char *)d->d_buf + off;
	return memchr(p, '\0', d->d_size - off) ? p : NULL;
}

static const char *section_of(Elf *elf, size_t shstrndx, size_t ndx)
{
	Elf_Scn *scn = elf_getscn(elf, ndx);
	GElf_Shdr sh;
	const char *n = scn && gelf_getshdr(scn, &sh) ? elf_strptr(elf, shstrndx, sh.sh_name) : NULL;

	return n ? n : "";
}

/* The namespace of export name: __kstrtabns_NAME's string ("" none). */
static const char *namespace_of(Elf *elf, Elf_Data *syms, size_t n, size_t strndx,
				const char *name)
{
	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		const char *sn;

		if (!gelf_getsym(syms, (int)i, &s) || !(sn = elf_strptr(elf, strndx, s.st_name)))
			continue;
		if (!strncmp(sn, "__kstrtabns_", 12) && !strcmp(sn + 12, name)) {
			const char *ns = string_at(elf, s.st_shndx, s.st_value);

			return ns ? ns : "";
		}
	}
	return "";
}

static void row(struct ks_buf *out, const char *name, const char *path, bool gpl, const char *ns)
{
	ks_buf_addf(out, "0x00000000\t%s\t%s\t%s\t%s\n", name, path,
		    gpl ? "EXPORT_SYMBOL_GPL" : "EXPORT_SYMBOL", ns);
}

/* Where the rows and the defined names go. */
struct exports {
	const char *path;
	struct ks_buf *out, *defined;
};

/* One symbol: an export of either form, or nothing; a defined function
 * or variable's name. */
static void symbol(Elf *elf, Elf_Data *syms, size_t n, size_t strndx, size_t shstrndx,
		   const GElf_Sym *s, const struct exports *x)
{
	const char *sn = elf_strptr(elf, strndx, s->st_name), *path = x->path;
	struct ks_buf *out = x->out;
	int t = GELF_ST_TYPE(s->st_info);

	if (!sn || s->st_shndx == SHN_UNDEF || s->st_shndx >= SHN_LORESERVE)
		return;
	if (x->defined && *sn && (t == STT_FUNC || t == STT_OBJECT))
		ks_buf_add(x->defined, sn, strlen(sn) + 1);
	if (!strncmp(sn, "__ksymtab_", 10) && strcmp(sn, "__ksymtab_gpl") &&
	    strcmp(sn, "__ksymtab_strings")) {
		bool gpl = !strcmp(section_of(elf, shstrndx, s->st_shndx), "__ksymtab_gpl");

		row(out, sn + 10, path, gpl, namespace_of(elf, syms, n, strndx, sn + 10));
	} else if (!strncmp(sn, "__export_symbol_", 16)) {
		const char *lic = string_at(elf, s->st_shndx, s->st_value);
		const char *ns = lic ? string_at(elf, s->st_shndx, s->st_value + strlen(lic) + 1) : NULL;

		row(out, sn + 16, path, lic && !strcmp(lic, "GPL"), ns ? ns : "");
	}
}

static void walk(Elf *elf, const struct exports *x)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx) < 0)
		return;
	while ((scn = elf_nextscn(elf, scn)) && gelf_getshdr(scn, &sh)) {
		Elf_Data *syms;
		size_t n;

		if (sh.sh_type != SHT_SYMTAB || !sh.sh_entsize || !(syms = elf_getdata(scn, NULL)))
			continue;
		n = syms->d_size / sh.sh_entsize;
		for (size_t i = 1; i < n; i++) {
			GElf_Sym s;

			if (gelf_getsym(syms, (int)i, &s))
				symbol(elf, syms, n, sh.sh_link, shstrndx, &s, x);
		}
		break;
	}
}

void ks_exports_read(const char *path, struct ks_buf *out, struct ks_buf *defined)
{
	struct exports x = { path, out, defined };
	const char *why = NULL;
	struct ks_modfile f;
	Elf *elf;
	int r = ks_modfile_open(path, &f, &why);

	if (!r)
		r = ks_modfile_slurp(&f, NULL, &why);
	if (r) {
		ks_modfile_close(&f);
		return;
	}
	elf = elf_memory(f.data, f.size);
	if (elf)
		walk(elf, &x);
	elf_end(elf);
	ks_modfile_close(&f);
}
