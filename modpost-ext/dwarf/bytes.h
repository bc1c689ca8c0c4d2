/* Reading DWARF's bytes: fixed-size fields in an object's byte order,
 * initial lengths and LEB128 numbers, each checked against the end of
 * what may be read (dwarf/dwarfpick.c). */
#ifndef KS_DWARF_BYTES_H
#define KS_DWARF_BYTES_H

#include <stdbool.h>
#include <stdint.h>

/* An unsigned field of n (at most 8) bytes in an object's byte order. */
static inline uint64_t ks_bytes_field(const unsigned char *p, unsigned n, bool msb)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[msb ? n - 1 - i : i] << (8 * i);
	return v;
}

/* DWARF's initial length at p, of which avail bytes can be read: the
 * bytes it takes (4, or 12 in 64-bit DWARF) into *head, the length that
 * follows into *len; false if either runs past avail. */
static inline bool ks_bytes_length(const unsigned char *p, uint64_t avail, bool msb,
				      uint64_t *head, uint64_t *len)
{
	if (avail < 4)
		return false;
	*head = 4;
	*len = ks_bytes_field(p, 4, msb);
	if (*len == 0xffffffff) {
		if (avail < 12)
			return false;
		*head = 12;
		*len = ks_bytes_field(p + 4, 8, msb);
	}
	return *len <= avail - *head;
}

/* A ULEB128 at *p, before end, which *p passes; false if it runs off. */
static inline bool ks_bytes_uleb(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	unsigned shift = 0;

	*v = 0;
	while (*p < end) {
		unsigned char b = *(*p)++;

		if (shift < 64)
			*v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return true;
	}
	return false;
}

#endif
