/* Walking a module's ELF with libelf: the symbol table for imports,
 * .modinfo, and .note.ksunset. Every count and offset from the file is
 * checked before use: the section header table and every section's
 * contents by ks_in_range() against the file, as the kernel's module loader
 * does; symbol name offsets against the string table read; note sizes
 * by ks_in_range() against the section. Symbol section indexes,
 * SHN_XINDEX included, are never followed: only SHN_UNDEF matters. */
#include <errno.h>
#include <gelf.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array.h"
#include "module/elfmod.h"
#include "module/modfile.h"
#include "module/policy.h"
#include "module/section.h"

int ks_elf_init(void)
{
	return elf_version(EV_CURRENT) == EV_NONE ? -EINVAL : 0;
}

int ks_elf_problem(struct ks_diags *d, const char *path, const char *what)
{
	ks_diag_add(d, KS_ERROR, path, 0, 0, "%s: %s", what, elf_errmsg(-1));
	return -EINVAL;
}

static int bad_file(struct ks_diags *d, const char *path, const char *why)
{
	ks_diag_add(d, KS_ERROR, path, 0, 0, "%s", why);
	return -EINVAL;
}

/* Collects a name that points into the ELF image, for copy_names(). */
static void push_ptr(struct ks_module *m, const char *name)
{
	ks_array_room((void **)&m->undef, &m->capundef, m->nundef + 1, sizeof(*m->undef));
	m->undef[m->nundef++] = (char *)name;
}

/* Copies the imported names out of the image into one block: a module has
 * hundreds, and one allocation instead of one each halves the time of a
 * whole-distribution check. */
static void copy_names(struct ks_module *m)
{
	size_t total = 0, off = 0;

	for (size_t i = 0; i < m->nundef; i++)
		total += strlen(m->undef[i]) + 1;
	m->undef_names = ks_xmalloc(total);
	for (size_t i = 0; i < m->nundef; i++) {
		size_t n = strlen(m->undef[i]) + 1;

		memcpy(m->undef_names + off, m->undef[i], n);
		m->undef[i] = m->undef_names + off;
		off += n;
	}
}

/* A symbol's binding, section index and name offset, whatever the class
 * (memcpy: the table may be unaligned). */
struct sym {
	unsigned bind, shndx;
	size_t name;
};

static struct sym sym_at(const char *tab, size_t i, bool is64)
{
	if (is64) {
		Elf64_Sym s;

		memcpy(&s, tab + i * sizeof(s), sizeof(s));
		return (struct sym){ ELF64_ST_BIND(s.st_info), s.st_shndx, s.st_name };
	} else {
		Elf32_Sym s;

		memcpy(&s, tab + i * sizeof(s), sizeof(s));
		return (struct sym){ ELF32_ST_BIND(s.st_info), s.st_shndx, s.st_name };
	}
}

/* An import: undefined, global or weak, named. */
static bool is_import(const struct sym *s)
{
	return s->shndx == SHN_UNDEF && (s->bind == STB_GLOBAL || s->bind == STB_WEAK) && s->name;
}

/* The part of the string table from offset from on, which must end the
 * table with a NUL so that any offset below its size names a string. */
static int string_tail(struct ks_module *m, Elf *elf, size_t link, size_t from,
		       const char **str, size_t *nstr, struct ks_diags *d)
{
	Elf_Scn *scn = elf_getscn(elf, link);
	Elf_Data *data;
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_STRTAB)
		return bad_file(d, m->path, "symbol table without a string table");
	if (from >= sh.sh_size)
		return bad_file(d, m->path, "symbol name beyond the string table");
	data = elf_getdata_rawchunk(elf, (int64_t)(sh.sh_offset + from), sh.sh_size - from,
				    ELF_T_BYTE);
	if (!data || !data->d_buf)
		return ks_elf_problem(d, m->path, "cannot read the symbol names");
	*str = data->d_buf;
	*nstr = data->d_size;
	if ((*str)[*nstr - 1] != '\0')
		return bad_file(d, m->path, "symbol string table not NUL-terminated");
	return 0;
}

/* Keeps an import's name (at name in str, nstr bytes) unless the linker
 * or the architecture provides it. */
static int take(struct ks_module *m, const char *str, size_t nstr, size_t name,
		struct ks_diags *d)
{
	if (name >= nstr)
		return bad_file(d, m->path, "symbol name beyond the string table");
	if (!str[name] || ks_undef_ignored(str + name))
		return 0;
	push_ptr(m, str + name);
	return 0;
}

/* Imports are global, and the gABI puts every local symbol before sh_info,
 * so only the table's tail is read, as ld reads objects, and of the string
 * table only from the first import's name on: most of a module's symbols
 * and names are local. The symbols come converted to this machine's byte
 * order; reading them straight is several times faster than gelf_getsym()
 * and elf_strptr() per symbol. */
static int read_symtab(struct ks_module *m, Elf *elf, const GElf_Shdr *sh, struct ks_diags *d)
{
	bool is64 = gelf_getclass(elf) == ELFCLASS64;
	size_t ent = is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym), n, first, from = SIZE_MAX;
	const char *str = NULL, *tab;
	size_t nstr = 0;
	Elf_Data *data;
	int r = 0;

	if (sh->sh_entsize != ent)
		return bad_file(d, m->path, "symbol table with a bad entry size");
	n = sh->sh_size / ent;
	first = sh->sh_info ? sh->sh_info : 1;
	if (first > n)
		return bad_file(d, m->path, "symbol table's first global symbol beyond its end");
	if (first == n) {
		copy_names(m);
		return 0;
	}
	data = elf_getdata_rawchunk(elf, (int64_t)(sh->sh_offset + first * ent), (n - first) * ent,
				    ELF_T_SYM);
	if (!data || !data->d_buf)
		return ks_elf_problem(d, m->path, "cannot read the symbol table");
	tab = data->d_buf;
	n -= first;
	for (size_t i = 0; i < n; i++) {
		struct sym s = sym_at(tab, i, is64);

		if (is_import(&s) && s.name < from)
			from = s.name;
	}
	if (from != SIZE_MAX)
		r = string_tail(m, elf, sh->sh_link, from, &str, &nstr, d);
	for (size_t i = 0; !r && from != SIZE_MAX && i < n; i++) {
		struct sym s = sym_at(tab, i, is64);

		if (is_import(&s))
			r = take(m, str, nstr, s.name - from, d);
	}
	if (!r)
		copy_names(m);
	return r;
}

static const char *section_name(Elf *elf, size_t shstrndx, const GElf_Shdr *sh)
{
	const char *n = elf_strptr(elf, shstrndx, sh->sh_name);

	return n ? n : "";
}

/* As the kernel's module loader: the section header table, and each
 * section's contents, lie inside the file. */
static int check_layout(struct ks_module *m, Elf *elf, const GElf_Ehdr *eh, size_t size,
			struct ks_diags *d)
{
	size_t n, bytes;

	if (elf_getshdrnum(elf, &n) < 0)
		return ks_elf_problem(d, m->path, "cannot count the sections");
	if (n && eh->e_shentsize != gelf_fsize(elf, ELF_T_SHDR, 1, EV_CURRENT))
		return bad_file(d, m->path, "bad section header size");
	if (__builtin_mul_overflow(n, (size_t)eh->e_shentsize, &bytes) ||
	    !ks_in_range(eh->e_shoff, bytes, size))
		return bad_file(d, m->path, "section header table beyond the end of the file");
	return 0;
}

static int section_in_file(struct ks_module *m, Elf_Scn *scn, const GElf_Shdr *sh,
			   size_t size, struct ks_diags *d)
{
	if (sh->sh_type == SHT_NOBITS || ks_in_range(sh->sh_offset, sh->sh_size, size))
		return 0;
	ks_diag_add(d, KS_ERROR, m->path, 0, 0, "section %zu lies beyond the end of the file",
		    elf_ndxscn(scn));
	return -EINVAL;
}

/* The sections read besides the symbol table, one row each (name NULL:
 * every section of the type). A location source that lives in sections of
 * its own is one more row. */
static const struct {
	unsigned type;
	const char *name;
	ks_section_fn read;
} readers[] = {
	/* name, license, vermagic, import_ns */
	{ SHT_PROGBITS, ".modinfo", ks_modinfo_read },
	/* the plugin's records: uses with their source lines */
	{ SHT_NOTE, KS_NOTE_SECTION, ks_records_read },
	/* whether DWARF can be had without reading the module again */
	{ SHT_PROGBITS, ".debug_info", ks_debug_info_seen },
	{ SHT_MIPS_DWARF, ".debug_info", ks_debug_info_seen },
	{ SHT_PROGBITS, ".zdebug_info", ks_debug_info_seen },
	{ SHT_PROGBITS, ".gnu_debuglink", ks_debuglink_read },
	{ SHT_NOTE, ".note.gnu.build-id", ks_build_id_read },
};

static ks_section_fn reader_for(Elf *elf, size_t shstrndx, const GElf_Shdr *sh)
{
	const char *name = NULL;

	for (size_t i = 0; i < KS_ARRAY_SIZE(readers); i++) {
		if (sh->sh_type != readers[i].type)
			continue;
		if (!readers[i].name)
			return readers[i].read;
		if (!name)
			name = section_name(elf, shstrndx, sh);
		if (!strcmp(name, readers[i].name))
			return readers[i].read;
	}
	return NULL;
}

/* Finds what we read in one pass over the section headers. */
static int walk_sections(struct ks_module *m, Elf *elf, size_t size, struct ks_diags *d,
			 struct ks_diags *late)
{
	Elf_Scn *scn = NULL, *symtab = NULL;
	GElf_Shdr sh, symsh = { 0 };
	size_t shstrndx;
	int r = 0;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return ks_elf_problem(d, m->path, "cannot read section names");
	while (!r && (scn = elf_nextscn(elf, scn)) != NULL) {
		ks_section_fn read;

		if (!gelf_getshdr(scn, &sh))
			return ks_elf_problem(d, m->path, "bad section header");
		if ((r = section_in_file(m, scn, &sh, size, d)) < 0)
			return r;
		if (sh.sh_type == SHT_SYMTAB && !symtab) {
			symtab = scn;
			symsh = sh;
		} else if ((read = reader_for(elf, shstrndx, &sh))) {
			r = read(m, elf, scn, d, late);
		}
	}
	if (!r && elf_errno())
		return ks_elf_problem(d, m->path, "bad section table");
	if (!r && !symtab)
		return bad_file(d, m->path, "no symbol table (stripped?)");
	return r ? r : read_symtab(m, elf, &symsh, d);
}

static void name_from_path(struct ks_module *m)
{
	const char *base = strrchr(m->path, '/');

	base = base ? base + 1 : m->path;
	m->name = ks_xstrndup(base, strcspn(base, "."));
}

/* Everything after opening: the checks and the sections. elf may be NULL. */
static int parse_elf(struct ks_module *m, const char *path, Elf *elf, size_t size,
		     struct ks_diags *d)
{
	struct ks_diags recd = { 0 };
	GElf_Ehdr eh;
	int r;

	memset(m, 0, sizeof(*m));
	m->path = ks_xstrdup(path);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		r = bad_file(d, path, size < EI_NIDENT ? "file too short to be an ELF object"
						      : "not an ELF object");
	} else if (!gelf_getehdr(elf, &eh)) {
		r = ks_elf_problem(d, path, "bad ELF header");
	} else if (eh.e_type != ET_REL) {
		r = bad_file(d, path, "not a relocatable object (a kernel module is ET_REL)");
	} else if (!(r = check_layout(m, elf, &eh, size, d))) {
		r = walk_sections(m, elf, size, d, &recd);
	}
	/* a malformed record is reported only for an otherwise usable module,
	 * so an unusable file gets one message */
	if (!r && recd.n)
		ks_diag_add(d, KS_ERROR, path, 0, 0, "%s", recd.v[0].msg);
	ks_diags_free(&recd);
	m->gpl_compatible = ks_license_gpl_compatible(m->license);
	if (!r && !m->name)
		name_from_path(m);
	if (r < 0)
		ks_module_free(m);
	return r;
}

int ks_module_parse(struct ks_module *m, const char *path, char *image, size_t size,
		    struct ks_diags *d)
{
	Elf *elf;
	int r;

	(void)elf_errno();
	elf = elf_memory(image, size);
	r = parse_elf(m, path, elf, size, d);
	elf_end(elf);
	return r;
}

int ks_module_load(struct ks_module *m, const char *path, struct ks_modfile_keep *k,
		   struct ks_diags *d)
{
	const char *why = "";
	struct ks_modfile f;
	Elf *elf = NULL;
	int r = ks_modfile_open(path, &f, &why);

	if (r == 0) {
		(void)elf_errno();
		elf = elf_begin(f.fd, ELF_C_READ, NULL);
	}
	if (elf && elf_kind(elf) == ELF_K_ELF) {
		r = parse_elf(m, path, elf, f.size, d);
	} else if (r == 0 && (r = ks_modfile_slurp(&f, k, &why)) == 0) {
		/* not ELF as it is: compressed, or reported as not ELF */
		r = ks_module_parse(m, path, f.data, f.size, d);
	} else {
		memset(m, 0, sizeof(*m));
		r = bad_file(d, path, why);
	}
	elf_end(elf);
	ks_modfile_close(&f);
	return r;
}

bool ks_module_imports(const struct ks_module *m, const char *sym)
{
	for (size_t i = 0; i < m->nundef; i++)
		if (strcmp(m->undef[i], sym) == 0)
			return true;
	return false;
}

bool ks_module_imports_ns(const struct ks_module *m, const char *ns)
{
	for (size_t i = 0; i < m->nimport_ns; i++)
		if (strcmp(m->import_ns[i], ns) == 0)
			return true;
	return false;
}

void ks_module_free(struct ks_module *m)
{
	free(m->path);
	free(m->name);
	free(m->license);
	free(m->vermagic);
	for (size_t i = 0; i < m->nimport_ns; i++)
		free(m->import_ns[i]);
	free(m->import_ns);
	free(m->undef_names);
	free(m->undef);
	ks_uses_free(&m->uses);
	ks_units_free(&m->units);
	free(m->debug.link);
	memset(m, 0, sizeof(*m));
}
