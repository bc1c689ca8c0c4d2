/* A target kernel's headers, as far as `check --target` needs them for
 * its hints (the compiler, in the forecast's probe, judges): which header
 * spells a name as a function, a macro or an inline, and which headers
 * there are. A textual scan of include/ and arch/x86/include/ (of the
 * directory and, for Debian's split packages, of the -common tree its
 * Makefile includes), done once on first use and kept in a cache file
 * for the next run. */
#ifndef KS_HEADERS_H
#define KS_HEADERS_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler.h"
#include "strmap.h"

struct ks_headers {
	char **roots;		/* folders holding include/ */
	size_t nroots;
	bool complete;		/* some root has include/linux/module.h */
	bool scanned;
	size_t files;		/* headers read */
	struct ks_strmap names;	/* declared name -> KS_DECL_* bits | (file + 1) << 3 */
	char **keys;		/* the names' storage */
	size_t nkeys, capkeys;
	char **incs;		/* headers as included: "linux/fs.h" */
	size_t nincs, capincs;
	long cur_file;		/* the file being scanned; -1: none */
};

/* Finds the header trees of kernel directory dir (NULL: none); no roots
 * when dir has no include/ folder. */
void ks_headers_open(struct ks_headers *h, const char *dir);
/* Whether the kernel's own headers were found (not only the generated
 * ones of Debian's -ARCH package without its -common tree). */
bool ks_headers_present(const struct ks_headers *h);
/* How the headers declare a name (or'ed, 0: nowhere). */
enum {
	KS_DECL_MACRO = 1,	/* #define NAME */
	KS_DECL_PROTO = 2,	/* TYPE NAME(...); */
	KS_DECL_INLINE = 4,	/* TYPE NAME(...) { ... }: an inline's definition;
				 * "struct NAME" (or union): its definition */
};

/* How the headers declare name (KS_DECL_*; "struct NAME" or "union
 * NAME": whether they define it), scanning them on the first call. */
unsigned ks_headers_declares(struct ks_headers *h, const char *name);
/* The header that declares name first ("linux/vmalloc.h"; for "struct
 * NAME", the one that defines it), or NULL. */
const char *ks_headers_where(struct ks_headers *h, const char *name);
/* A header named base (as "unaligned.h") in another folder than written
 * ("<asm/unaligned.h>"), freshly allocated ("linux/unaligned.h"; NULL:
 * none), scanning the headers on the first call. */
char *ks_headers_find_file(struct ks_headers *h, const char *base, const char *written);
/* Scans text (a header's contents) for declared names. */
void ks_headers_scan_text(struct ks_headers *h, const char *text, size_t len);
void ks_headers_free(struct ks_headers *h);

/* ksunset's cache folder sub: $KSUNSET_CACHE/SUB, else under
 * $XDG_CACHE_HOME/ksunset or ~/.cache/ksunset, made if missing. NULL:
 * none. */
char *ks_cache_dir(const char *sub);

#endif
