/* Bytes written one field at a time, for the unit tests that build DWARF
 * sections by hand (check_dwarfline.c, check_dwarfwalk.c). */
#ifndef KS_TEST_BYTES_H
#define KS_TEST_BYTES_H

#include <check.h>
#include <stdint.h>
#include <string.h>

struct bytes {
	unsigned char b[1024];
	size_t n;
};

static inline void put(struct bytes *t, const void *p, size_t n)
{
	ck_assert_uint_le(t->n + n, sizeof(t->b));
	memcpy(t->b + t->n, p, n);
	t->n += n;
}

static inline void u8(struct bytes *t, unsigned v)
{
	unsigned char c = (unsigned char)v;

	put(t, &c, 1);
}

/* v in n bytes, least significant first. */
static inline void le(struct bytes *t, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		u8(t, (unsigned)(v >> (8 * i)) & 0xff);
}

static inline void uleb(struct bytes *t, uint64_t v)
{
	do {
		u8(t, (unsigned)(v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
}

static inline void sleb(struct bytes *t, int64_t v)
{
	for (;;) {
		unsigned b = (unsigned)v & 0x7f;

		v >>= 7;
		if ((v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40))) {
			u8(t, b);
			return;
		}
		u8(t, b | 0x80);
	}
}

/* s and its NUL. */
static inline void str(struct bytes *t, const char *s)
{
	put(t, s, strlen(s) + 1);
}

#endif
