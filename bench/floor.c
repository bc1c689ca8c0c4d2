/* floor: the least work any checker of built modules must do, as the
 * bench's baseline (bench/bench.sh): read every module's undefined
 * symbols with libelf, single-threaded, and nothing else.
 *
 *   floor [-p] PATH...   PATH: a module, or a directory searched for *.ko
 *   -p   print "MODULE SYMBOL" per undefined symbol (the bench's cross-check)
 *
 * Exit status: 0, or 1 if a file could not be read (reported, then the
 * next one is read, as nm does). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct floor_ctx {
	bool print;
	unsigned long modules, undefs, bad;
};

/* nftw() passes no user pointer; this is the only mutable global. */
static struct floor_ctx *ctx;

static void problem(const char *path, const char *what)
{
	fprintf(stderr, "floor: %s: %s: %s\n", path, what, elf_errmsg(-1));
	ctx->bad++;
}

static void scan_symtab(Elf *e, const char *path, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	GElf_Sym sym;
	const char *name;

	if (!data) {
		problem(path, "symbol table");
		return;
	}
	for (size_t i = 1; i < n; i++) {
		if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx != SHN_UNDEF ||
		    !sym.st_name)
			continue;
		if (GELF_ST_BIND(sym.st_info) != STB_GLOBAL &&
		    GELF_ST_BIND(sym.st_info) != STB_WEAK)
			continue;
		name = elf_strptr(e, sh->sh_link, sym.st_name);
		if (!name)
			continue;
		ctx->undefs++;
		if (ctx->print)
			printf("%s %s\n", path, name);
	}
}

static void scan_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf *e;

	if (fd < 0) {
		fprintf(stderr, "floor: %s: %s\n", path, strerror(errno));
		ctx->bad++;
		return;
	}
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		problem(path, "not an ELF object");
		goto out;
	}
	ctx->modules++;
	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &sh)) {
			problem(path, "section header");
			break;
		}
		if (sh.sh_type == SHT_SYMTAB) {
			scan_symtab(e, path, scn, &sh);
			break;
		}
	}
out:
	elf_end(e);
	close(fd);
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	size_t n = strlen(path);

	(void)st;
	(void)ftw;
	if (type == FTW_F && n > 3 && strcmp(path + n - 3, ".ko") == 0)
		scan_file(path);
	return 0;
}

int main(int argc, char **argv)
{
	struct floor_ctx c = { 0 };
	struct stat st;
	int first = 1;

	ctx = &c;
	if (argc > 1 && strcmp(argv[1], "-p") == 0) {
		c.print = true;
		first = 2;
	}
	if (first >= argc || elf_version(EV_CURRENT) == EV_NONE) {
		fprintf(stderr, "usage: floor [-p] PATH...\n");
		return 2;
	}
	for (int i = first; i < argc; i++) {
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
			nftw(argv[i], visit, 64, FTW_PHYS);
		else
			scan_file(argv[i]);
	}
	if (!c.print)
		printf("%lu modules, %lu undefined symbols\n", c.modules, c.undefs);
	return c.bad ? 1 : 0;
}
