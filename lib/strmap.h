/* A string-keyed hash map (open addressing). Keys are borrowed: they must
 * outlive the map. Used for every symbol lookup, so it is O(1). */
#ifndef KS_STRMAP_H
#define KS_STRMAP_H

#include <stddef.h>
#include <stdint.h>

#include "compiler.h"

KS_BEGIN_DECLS

struct ks_strmap_slot {
	const char *key;
	void *val;
	uint32_t hash;
};

struct ks_strmap {
	struct ks_strmap_slot *slots;
	size_t cap;		/* a power of two, or 0 */
	size_t n;
};

uint64_t ks_hash_bytes(const void *p, size_t n, uint64_t seed);
/* Inserts key, or finds it: *slot is its value slot either way. Returns 1 if
 * the key was new, 0 if it was there. */
int ks_strmap_put(struct ks_strmap *m, const char *key, void ***slot);
/* Makes room for n keys in all, so that filling the map never rehashes. */
void ks_strmap_reserve(struct ks_strmap *m, size_t n);
void *ks_strmap_get(const struct ks_strmap *m, const char *key);
void ks_strmap_free(struct ks_strmap *m);

KS_END_DECLS

#endif
