/* Compiling the forecast's probes with the target's Kbuild, and their
 * cache (forecast/kbuild.c). */
#ifndef KS_KBUILD_H
#define KS_KBUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "compiler.h"
#include "strmap.h"

struct ks_kbuild {
	char *dir;		/* the scratch folder (M=) */
	size_t n;		/* probes p0.c ... */
	int status;		/* make's exit status; -1: none */
};

/* The cache of probe results of one target: under its key (the target's
 * folder, configuration and exports, and the plugin that answers), each
 * probe source's results with the files it read, whose size and time
 * must be unchanged for the results to hold. */
struct ks_kcache {
	char *dir;			/* CACHE/KEY; NULL: no cache */
	struct ks_strmap stamps;	/* file -> "SIZE MTIME" as stat(2) says now */
};

/* Opens the cache folder cache (NULL: none) for kdir's probes answered
 * by plugin. */
void ks_kcache_open(struct ks_kcache *c, const char *cache, const char *kdir, const char *plugin);
/* The cached results of a probe whose source hashes to hash, into out:
 * whether there are any (none, or a file it read changed since: false). */
bool ks_kcache_get(struct ks_kcache *c, uint64_t hash, struct ks_buf *out);
/* Keeps results res (with the files they name as read) for hash. Best
 * effort: a cache that cannot be written only costs the next run. */
void ks_kcache_put(struct ks_kcache *c, uint64_t hash, const struct ks_buf *res);
void ks_kcache_close(struct ks_kcache *c);
/* A scratch folder holding the n sources and their Kbuild. 0 or -errno. */
int ks_kbuild_prepare(struct ks_kbuild *kb, struct ks_buf *const *sources, size_t n)
	KS_MUST_CHECK;
/* make -C kdir M=... -k -jJOBS p0.o ... with the plugin's probe mode;
 * kb->status is make's. 0 or -errno (make could not be run). */
int ks_kbuild_make(struct ks_kbuild *kb, const char *kdir, const char *plugin, long jobs)
	KS_MUST_CHECK;
/* Probe i's results: 0, or -errno when it left none. */
int ks_kbuild_result(const struct ks_kbuild *kb, size_t i, struct ks_buf *out) KS_MUST_CHECK;
/* The line of make's output that says what went wrong (always a string). */
char *ks_kbuild_failure(const struct ks_kbuild *kb);
void ks_kbuild_free(struct ks_kbuild *kb);

#endif
