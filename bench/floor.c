/* floor: the least work any checker of built modules must do, as the
 * bench's baseline (bench/bench.sh): read every module's undefined
 * symbols with libelf, single-threaded, and nothing else. A .ko.xz is
 * first decompressed into memory with liblzma, in one call into a buffer
 * of the size its xz index records.
 *
 *   floor [-p] PATH...   PATH: a module, or a directory searched for *.ko
 *                        and *.ko.xz
 *   -p   print "MODULE SYMBOL" per undefined symbol (the bench's cross-check)
 *
 * Exit status: 0, or 1 if a file could not be read (reported, then the
 * next one is read, as nm does). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <gelf.h>
#include <lzma.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

static void scan_elf(Elf *e, const char *path)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (!e || elf_kind(e) != ELF_K_ELF) {
		problem(path, "not an ELF object");
		return;
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
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n > t && strcmp(s + n - t, tail) == 0;
}

/* The whole file, in one buffer of its size. */
static uint8_t *read_file(int fd, size_t *size)
{
	struct stat st;
	uint8_t *p;
	size_t got = 0;
	ssize_t n;

	if (fstat(fd, &st) < 0 || !(p = malloc(st.st_size ? (size_t)st.st_size : 1)))
		return NULL;
	while (got < (size_t)st.st_size && (n = read(fd, p + got, (size_t)st.st_size - got)) > 0)
		got += (size_t)n;
	*size = got;
	return p;
}

/* The uncompressed size that the index of a one-stream .xz file records
 * (what the kernel's `xz --check=crc32` writes), or 0. */
static uint64_t xz_size(const uint8_t *in, size_t n)
{
	lzma_stream_flags fl;
	lzma_index *idx = NULL;
	uint64_t lim = UINT64_MAX, size = 0;
	size_t pos, end = n - LZMA_STREAM_HEADER_SIZE;

	if (n < 2 * LZMA_STREAM_HEADER_SIZE || lzma_stream_footer_decode(&fl, in + end) != LZMA_OK ||
	    fl.backward_size > end - LZMA_STREAM_HEADER_SIZE)
		return 0;
	pos = end - fl.backward_size;
	if (lzma_index_buffer_decode(&idx, &lim, NULL, in, &pos, end) == LZMA_OK)
		size = lzma_index_uncompressed_size(idx);
	lzma_index_end(idx, NULL);
	return size;
}

/* A .ko.xz decompressed into memory, checked against its CRC. */
static uint8_t *unxz(const uint8_t *in, size_t n, size_t *size)
{
	uint64_t lim = UINT64_MAX, want = xz_size(in, n);
	size_t inpos = 0, outpos = 0;
	uint8_t *out = want && want < SIZE_MAX ? malloc((size_t)want) : NULL;

	if (out && lzma_stream_buffer_decode(&lim, 0, NULL, in, &inpos, n, out, &outpos,
					     (size_t)want) == LZMA_OK && outpos == want) {
		*size = outpos;
		return out;
	}
	free(out);
	return NULL;
}

static void scan_xz(int fd, const char *path)
{
	size_t n = 0, size = 0;
	uint8_t *in = read_file(fd, &n), *image = in ? unxz(in, n, &size) : NULL;
	Elf *e;

	free(in);
	if (!image) {
		fprintf(stderr, "floor: %s: cannot read or decompress\n", path);
		ctx->bad++;
		return;
	}
	e = elf_memory((char *)image, size);
	scan_elf(e, path);
	elf_end(e);
	free(image);
}

static void scan_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *e;

	if (fd < 0) {
		fprintf(stderr, "floor: %s: %s\n", path, strerror(errno));
		ctx->bad++;
		return;
	}
	if (ends_with(path, ".ko.xz")) {
		scan_xz(fd, path);
	} else {
		e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		scan_elf(e, path);
		elf_end(e);
	}
	close(fd);
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_F && (ends_with(path, ".ko") || ends_with(path, ".ko.xz")))
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
