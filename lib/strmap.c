/* Open-addressing hash map from strings to pointers, kept at most half
 * full. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "strmap.h"

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

uint64_t ks_hash_bytes(const void *p, size_t n, uint64_t seed)
{
	const unsigned char *s = p;
	uint64_t h = seed ? seed : FNV_OFFSET;

	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * FNV_PRIME;
	return h;
}

/* Eight bytes at a time, then a final mix so that the low bits, which
 * pick the slot, depend on every byte: lookups of every import of every
 * module go through here. Internal only: the value may differ between
 * machines of another byte order. */
static uint32_t hash_str(const char *s)
{
	size_t n = strlen(s);
	uint64_t h = FNV_OFFSET ^ n, w;

	for (; n >= 8; n -= 8, s += 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * FNV_PRIME;
		h ^= h >> 32;
	}
	if (n) {
		w = 0;
		memcpy(&w, s, n);
		h = (h ^ w) * FNV_PRIME;
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return (uint32_t)h;
}

static struct ks_strmap_slot *find(struct ks_strmap_slot *slots, size_t cap,
				   const char *key, uint32_t h)
{
	size_t i = h & (cap - 1);

	while (slots[i].key) {
		if (slots[i].hash == h && strcmp(slots[i].key, key) == 0)
			return &slots[i];
		i = (i + 1) & (cap - 1);
	}
	return &slots[i];
}

static void rehash_to(struct ks_strmap *m, size_t cap)
{
	struct ks_strmap_slot *slots = ks_xcalloc(cap, sizeof(*slots));

	for (size_t i = 0; i < m->cap; i++) {
		struct ks_strmap_slot *o = &m->slots[i];

		if (o->key)
			*find(slots, cap, o->key, o->hash) = *o;
	}
	free(m->slots);
	m->slots = slots;
	m->cap = cap;
}

static void rehash(struct ks_strmap *m)
{
	rehash_to(m, m->cap ? m->cap * 2 : 16);
}

void ks_strmap_reserve(struct ks_strmap *m, size_t n)
{
	size_t cap = m->cap ? m->cap : 16;

	while (cap / 2 < n) {
		if (cap > SIZE_MAX / 4)
			ks_nomem();
		cap *= 2;
	}
	if (cap > m->cap)
		rehash_to(m, cap);
}

int ks_strmap_put(struct ks_strmap *m, const char *key, void ***slot)
{
	uint32_t h = hash_str(key);
	struct ks_strmap_slot *s;

	if ((m->n + 1) * 2 > m->cap)
		rehash(m);
	s = find(m->slots, m->cap, key, h);
	*slot = &s->val;
	if (s->key)
		return 0;
	s->key = key;
	s->hash = h;
	s->val = NULL;
	m->n++;
	return 1;
}

void *ks_strmap_get(const struct ks_strmap *m, const char *key)
{
	if (!m->n)
		return NULL;
	return find(m->slots, m->cap, key, hash_str(key))->val;
}

void ks_strmap_free(struct ks_strmap *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}
