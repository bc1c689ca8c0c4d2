/* Reading a module file into memory: plain, or xz/zstd/gzip compressed,
 * decompressed in process. */
#ifndef KS_MODFILE_H
#define KS_MODFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler.h"

/* The largest (decompressed) module accepted. */
#define KS_MODFILE_MAX ((size_t)1 << 31)
/* A compressed module may grow at most KS_MODFILE_RATIO times, or to
 * KS_MODFILE_MIN_LIMIT if that is more: a bound for decompression bombs. */
#define KS_MODFILE_RATIO 64
#define KS_MODFILE_MIN_LIMIT ((size_t)64 << 20)

/* A module file: open (fd), or read whole and decompressed into data. */
struct ks_modfile {
	int fd;			/* -1 once data holds the module, unless mapped */
	char *data;
	size_t size;		/* of the file, or of data */
	bool kept;		/* data is a ks_modfile_keep's buffer */
	bool mapped;		/* data is a private mapping of the file */
};

/* Buffers and decoder state that one thread keeps from one module to the
 * next (modfile.c says why). */
struct ks_modfile_keep;

struct ks_modfile_keep *ks_modfile_keep_new(void);
void ks_modfile_keep_free(struct ks_modfile_keep *k);

/* Opens path, which must be a regular file; on error returns -errno and
 * *why names the problem. ks_modfile_close() releases it either way. */
int ks_modfile_open(const char *path, struct ks_modfile *f, const char **why) KS_MUST_CHECK;
/* Reads the open file whole into data, decompressing it if its magic bytes
 * say xz, zstd or gzip; the descriptor is closed. With k (may be NULL),
 * data may be k's buffer, valid until k's next use. */
int ks_modfile_slurp(struct ks_modfile *f, struct ks_modfile_keep *k, const char **why) KS_MUST_CHECK;
/* The same, but a module that is not compressed is mapped copy-on-write
 * instead of read: data is as writable, and a big module costs only the
 * pages that are read or written. The descriptor of a mapped module stays
 * open (fd), for parts better read than mapped. */
int ks_modfile_map(struct ks_modfile *f, const char **why) KS_MUST_CHECK;
void ks_modfile_close(struct ks_modfile *f);
/* Decompresses an in-memory image if it is compressed; returns 0 and
 * leaves *data alone if it is not. */
int ks_modfile_decompress(char **data, size_t *size, const char **why) KS_MUST_CHECK;

#endif
