/* A stripped module's separate debug file: what the module's sections say
 * of it (its build-id, its .gnu_debuglink), and the places where
 * Debian's -dbg packages, libdwfl and GDB put it (places[]), tried in
 * order by ks_debugfile_find() and only looked at by
 * ks_debugfile_possible(), so that the two never disagree. */
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "alloc.h"
#include "buf.h"
#include "dwarf/debugfile.h"
#include "module/section.h"

/* What the places are made of: the debug directory and the module's real
 * path, build-id and .gnu_debuglink. */
struct want {
	const char *dir;
	char *real;		 /* NULL: the path cannot be resolved */
	size_t dirlen;		 /* of the module's folder, in real */
	const char *name;	 /* the module's file name, in real */
	size_t namelen;		 /* without .xz, .zst or .gz */
	const char *rel;	 /* in real: lib/modules/<release>/...; NULL: none */
	const unsigned char *id; /* the build-id */
	size_t idlen;		 /* 0: none */
	const char *link;	 /* .gnu_debuglink's file name; NULL: none */
	GElf_Word crc;		 /* and its CRC (ks_debugfile_find() only) */
};

/* How a place names the file. */
enum how {
	BY_BUILD_ID, /* DIR/.build-id/xx/rest.debug */
	BY_NAME,     /* the module's file name, uncompressed, in a folder */
	BY_LINK,     /* .gnu_debuglink's name in a folder, its CRC checked */
};

/* The folder a place looks in. */
enum folder {
	NOWHERE,	 /* none: the path is the build-id's */
	BESIDE,		 /* the module's own */
	DOT_DEBUG,	 /* its .debug/ */
	LIB_MODULES,	 /* DIR/lib/modules/<release>/..., the module's folder from
			    lib/modules/ on, wherever the module is */
	USR_LIB_MODULES, /* DIR/usr/lib/modules/<release>/... (merged /usr) */
	UNDER_DIR,	 /* DIR + the module's folder, one outside lib/modules */
};

/* Where a debug file is looked for, in order (ksunset(1), --debug-dir). */
static const struct place {
	enum how how;
	enum folder in;
} places[] = {
	/* libdwfl's and GDB's first look; Fedora links every module there */
	{ BY_BUILD_ID, NOWHERE },
	/* Debian's and Ubuntu's -dbg packages: DIR/lib/modules/<release>/
	 * kernel/.../x.ko, for an installed module or an unpacked package */
	{ BY_NAME, LIB_MODULES },
	{ BY_NAME, USR_LIB_MODULES },
	{ BY_NAME, UNDER_DIR },
	/* GDB's places for .gnu_debuglink: beside the module, in its
	 * .debug/, then under DIR (Fedora's DIR/usr/lib/modules/.../x.ko.debug) */
	{ BY_LINK, BESIDE },
	{ BY_LINK, DOT_DEBUG },
	{ BY_LINK, LIB_MODULES },
	{ BY_LINK, USR_LIB_MODULES },
	{ BY_LINK, UNDER_DIR },
};

/* place_path()'s "this module has no such place" (no build-id, no link,
 * no lib/modules/ in its path, a path that cannot be resolved). */
#define NO_PLACE 1

/* The module's file name without the suffix of its compression. */
static size_t name_len(const char *name)
{
	static const char *const suffixes[] = { ".xz", ".zst", ".gz" };
	size_t n = strlen(name);

	for (size_t i = 0; i < KS_ARRAY_SIZE(suffixes); i++) {
		size_t k = strlen(suffixes[i]);

		if (n > k && !strcmp(name + n - k, suffixes[i]))
			return n - k;
	}
	return n;
}

/* In real, the module's path from the last lib/modules/ on that has a
 * release folder after it (usr/lib/modules/ gives lib/modules/ too), or
 * NULL. */
static const char *release_part(const char *real, size_t dirlen)
{
	static const char key[] = "/lib/modules/";
	const char *rel = NULL;

	for (const char *p = real;
	     (p = strstr(p, key)) && (size_t)(p - real) + sizeof(key) - 1 < dirlen; p++)
		rel = p + 1;
	return rel;
}

/* w's parts of the module at path, resolved by realpath(); a path that
 * cannot be resolved leaves w->real NULL. */
static void resolve(struct want *w, const char *path, const char *dir)
{
	const char *slash;

	w->dir = dir;
	if (!(w->real = realpath(path, NULL))) {
		if (errno == ENOMEM)
			ks_nomem();
		return;
	}
	slash = strrchr(w->real, '/');
	w->dirlen = (size_t)(slash - w->real);
	w->name = slash + 1;
	w->namelen = name_len(w->name);
	w->rel = release_part(w->real, w->dirlen);
}

static int add_folder(struct ks_buf *b, const struct want *w, enum folder in)
{
	int n = (int)w->dirlen, rn = w->rel ? (int)(w->real + w->dirlen - w->rel) : 0;

	if (!w->real || ((in == LIB_MODULES || in == USR_LIB_MODULES) && !w->rel) ||
	    (in == UNDER_DIR && w->rel))
		return NO_PLACE;
	switch (in) {
	case NOWHERE:
		break;
	case BESIDE:
		ks_buf_addf(b, "%.*s/", n, w->real);
		return 0;
	case DOT_DEBUG:
		ks_buf_addf(b, "%.*s/.debug/", n, w->real);
		return 0;
	case LIB_MODULES:
		ks_buf_addf(b, "%s/%.*s/", w->dir, rn, w->rel);
		return 0;
	case USR_LIB_MODULES:
		ks_buf_addf(b, "%s/usr/%.*s/", w->dir, rn, w->rel);
		return 0;
	case UNDER_DIR:
		ks_buf_addf(b, "%s%.*s/", w->dir, n, w->real);
		return 0;
	}
	return NO_PLACE;
}

/* DIR/.build-id/xx/rest.debug, as libdwfl looks for it. */
static int build_id_path(struct ks_buf *b, const struct want *w)
{
	if (!w->idlen)
		return NO_PLACE;
	ks_buf_addf(b, "%s/.build-id/", w->dir);
	for (size_t i = 0; i < w->idlen; i++)
		ks_buf_addf(b, i == 1 ? "/%02x" : "%02x", w->id[i]);
	ks_buf_adds(b, ".debug");
	return 0;
}

/* The path of place p for w in b (emptied first): 0 or NO_PLACE. */
static int place_path(struct ks_buf *b, const struct want *w, const struct place *p)
{
	int r;

	ks_buf_reset(b);
	switch (p->how) {
	case BY_BUILD_ID:
		return build_id_path(b, w);
	case BY_NAME:
		r = add_folder(b, w, p->in);
		if (!r)
			ks_buf_add(b, w->name, w->namelen);
		return r;
	case BY_LINK:
		if (!w->link)
			return NO_PLACE;
		r = add_folder(b, w, p->in);
		if (!r)
			ks_buf_adds(b, w->link);
		return r;
	}
	return NO_PLACE;
}

/* The file at path, if it is the module's debug file (ks_debugfile_find()
 * says when): mapped into *f and read in *delf. 1 it is, 0 not. The
 * first file that how names by .gnu_debuglink and whose CRC differs
 * goes to *refused (which only BY_LINK needs). */
static int try_file(const struct want *w, enum how how, const char *path, struct ks_modfile *f,
		    Elf **delf, char **refused)
{
	const char *why;
	const void *id;

	if (ks_modfile_open(path, f, &why) != 0 || ks_modfile_map(f, &why) != 0)
		goto not_it;
	if (how == BY_LINK && (uint32_t)crc32_z(0, (const Bytef *)f->data, f->size) != w->crc) {
		if (!*refused)
			*refused = ks_xstrdup(path);
		goto not_it;
	}
	if (!(*delf = elf_memory(f->data, f->size)))
		goto not_it;
	if (!w->idlen || (dwelf_elf_gnu_build_id(*delf, &id) == (ssize_t)w->idlen &&
			  !memcmp(id, w->id, w->idlen)))
		return 1;
not_it:
	elf_end(*delf);
	*delf = NULL;
	ks_modfile_close(f);
	return 0;
}

int ks_debugfile_find(const char *path, Elf *elf, const char *dir, struct ks_modfile *file,
		      Elf **delf, char **refused)
{
	struct want w = { 0 };
	struct ks_buf b = KS_BUF_INIT;
	const void *id;
	ssize_t n = dwelf_elf_gnu_build_id(elf, &id);
	int r = 0;

	resolve(&w, path, dir);
	*delf = NULL;
	*refused = NULL;
	if (n > 0) {
		w.id = id;
		w.idlen = (size_t)n;
	}
	w.link = dwelf_elf_gnu_debuglink(elf, &w.crc);
	for (size_t i = 0; r == 0 && i < KS_ARRAY_SIZE(places); i++) {
		r = place_path(&b, &w, &places[i]);
		if (r == 0)
			r = try_file(&w, places[i].how, b.p, file, delf, refused);
		else if (r == NO_PLACE)
			r = 0;
	}
	if (r != 0) {
		free(*refused);
		*refused = NULL;
	}
	ks_buf_free(&b);
	free(w.real);
	return r;
}

int ks_debugfile_by_build_id(const char *dir, const unsigned char *id, size_t n,
			     struct ks_modfile *file, Elf **elf)
{
	struct want w = { .dir = dir, .id = id, .idlen = n };
	struct ks_buf b = KS_BUF_INIT;
	int r = build_id_path(&b, &w);

	*elf = NULL;
	if (r == 0)
		r = try_file(&w, BY_BUILD_ID, b.p, file, elf, NULL);
	ks_buf_free(&b);
	return r == NO_PLACE ? 0 : r;
}

bool ks_debugfile_possible(const struct ks_module *m, const char *dir)
{
	struct want w = { .id = m->debug.build_id,
			  .idlen = m->debug.build_id_len,
			  .link = m->debug.link };
	struct ks_buf b = KS_BUF_INIT;
	bool yes = m->debug.search;

	if (!yes)
		resolve(&w, m->path, dir);
	for (size_t i = 0; !yes && i < KS_ARRAY_SIZE(places); i++)
		yes = place_path(&b, &w, &places[i]) == 0 && access(b.p, F_OK) == 0;
	ks_buf_free(&b);
	free(w.real);
	return yes;
}
