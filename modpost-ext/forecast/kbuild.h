/* Compiling the forecast's probes with the target's Kbuild, and their
 * cache (forecast/kbuild.c). */
#ifndef KS_KBUILD_H
#define KS_KBUILD_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "compiler.h"

struct ks_kbuild {
	char *dir;		/* the scratch folder (M=) */
	size_t n;		/* probes p0.c ... */
	int status;		/* make's exit status; -1: none */
};

/* The key of the target kdir's results, with plugin as the answerer. */
uint64_t ks_kbuild_key(const char *kdir, const char *plugin);
/* The cached results of a probe whose source hashes to hash, into out:
 * 0, 1 (none) or -ENOMEM. cache NULL: no cache. */
int ks_kbuild_cached(const char *cache, uint64_t key, uint64_t hash, struct ks_buf *out)
	KS_MUST_CHECK;
void ks_kbuild_keep(const char *cache, uint64_t key, uint64_t hash, const struct ks_buf *res);
/* A scratch folder holding the n sources and their Kbuild. 0 or -errno. */
int ks_kbuild_prepare(struct ks_kbuild *kb, struct ks_buf *const *sources, size_t n)
	KS_MUST_CHECK;
/* make -C kdir M=... -k -jJOBS p0.o ... with the plugin's probe mode;
 * kb->status is make's. 0 or -errno (make could not be run). */
int ks_kbuild_make(struct ks_kbuild *kb, const char *kdir, const char *plugin, long jobs)
	KS_MUST_CHECK;
/* Probe i's results: 0, or -errno when it left none. */
int ks_kbuild_result(const struct ks_kbuild *kb, size_t i, struct ks_buf *out) KS_MUST_CHECK;
/* The line of make's output that says what went wrong (always a string,
 * NULL only without memory). */
char *ks_kbuild_failure(const struct ks_kbuild *kb);
void ks_kbuild_free(struct ks_kbuild *kb);

#endif
