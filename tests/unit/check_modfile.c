/* Decompressing module files: an .xz of one stream goes straight into a
 * buffer of the size its index records; padding, several streams and
 * damage take the streaming path or fail, with a kept decoder or without. */
#include <errno.h>
#include <lzma.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "module/modfile.h"
#include "suites.h"

/* The test image: not ELF, but decompression does not care. */
static char plain[300000];

static void fill(void)
{
	for (size_t i = 0; i < sizeof(plain); i++)
		plain[i] = (char)("ksunset"[i % 7] + (char)(i / 4096));
}

/* One .xz stream of plain[0..n), appended at out + *len. */
static void xz_stream(uint8_t *out, size_t *len, size_t cap, size_t n)
{
	ck_assert_int_eq(lzma_easy_buffer_encode(1, LZMA_CHECK_CRC32, NULL, (const uint8_t *)plain,
						 n, out, len, cap),
			 LZMA_OK);
}

enum shape { ONE, TWO_STREAMS, PADDED, TRUNCATED, FLIPPED };

struct xz_case {
	const char *what;
	enum shape shape;
	int want;		/* ks_modfile_decompress()'s result */
	size_t size;		/* decompressed size when it succeeds */
};

static const struct xz_case xz_cases[] = {
	{ "one stream: decoded at its recorded size", ONE, 0, sizeof(plain) },
	{ "two streams: decoded one after the other", TWO_STREAMS, 0, sizeof(plain) + 1000 },
	{ "stream padding: decoded", PADDED, 0, sizeof(plain) },
	{ "truncated: refused", TRUNCATED, -EINVAL, 0 },
	{ "a byte of the data flipped: refused", FLIPPED, -EINVAL, 0 },
};

static size_t make_xz(enum shape shape, uint8_t *out, size_t cap)
{
	size_t len = 0;

	xz_stream(out, &len, cap, sizeof(plain));
	if (shape == TWO_STREAMS)
		xz_stream(out, &len, cap, 1000);
	if (shape == PADDED) {
		memset(out + len, 0, 8);
		len += 8;
	}
	if (shape == TRUNCATED)
		len -= 100;
	if (shape == FLIPPED)
		out[len / 2] ^= 0x55;
	return len;
}

/* The image from ks_modfile_slurp() with a kept decoder, from a file. */
static int slurp_kept(const uint8_t *xz, size_t len, struct ks_modfile_keep *k, struct ks_modfile *f)
{
	char path[] = "/tmp/ks-modfile-XXXXXX";
	const char *why = "";
	int fd = mkstemp(path), r;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, xz, len), (ssize_t)len);
	close(fd);
	r = ks_modfile_open(path, f, &why);
	if (r == 0)
		r = ks_modfile_slurp(f, k, &why);
	unlink(path);
	return r;
}

static void check_image(const struct xz_case *c, int r, const char *data, size_t size)
{
	ck_assert_msg(r == c->want, "%s: got %d, want %d", c->what, r, c->want);
	if (r < 0)
		return;
	ck_assert_msg(size == c->size, "%s: %zu bytes, want %zu", c->what, size, c->size);
	ck_assert_msg(!memcmp(data, plain, sizeof(plain)), "%s: wrong bytes", c->what);
}

START_TEST(test_xz_shapes)
{
	static uint8_t xz[sizeof(plain) * 2];
	const struct xz_case *c = &xz_cases[_i];
	struct ks_modfile_keep *k = ks_modfile_keep_new();
	struct ks_modfile f;
	size_t len, size;
	const char *why = "";
	char *data;
	int r;

	fill();
	len = make_xz(c->shape, xz, sizeof(xz));
	data = malloc(len);
	memcpy(data, xz, len);
	size = len;
	r = ks_modfile_decompress(&data, &size, &why);
	check_image(c, r, data, size);
	free(data);
	/* twice with the same kept decoder: the second reuses it */
	for (int i = 0; i < 2; i++) {
		r = slurp_kept(xz, len, k, &f);
		check_image(c, r, f.data, f.size);
		ks_modfile_close(&f);
	}
	ks_modfile_keep_free(k);
}
END_TEST

/* A kept buffer grows to a larger image and serves a smaller one after. */
START_TEST(test_keep_sizes)
{
	static uint8_t xz[sizeof(plain) * 2];
	static const size_t sizes[] = { 1000, sizeof(plain), 5000 };
	struct ks_modfile_keep *k = ks_modfile_keep_new();
	struct ks_modfile f;

	fill();
	for (int i = 0; i < KS_NCASES(sizes); i++) {
		size_t len = 0;

		xz_stream(xz, &len, sizeof(xz), sizes[i]);
		ck_assert_int_eq(slurp_kept(xz, len, k, &f), 0);
		ck_assert_msg(f.size == sizes[i] && !memcmp(f.data, plain, sizes[i]),
			      "image of %zu bytes after a larger one", sizes[i]);
		ck_assert(f.kept);
		ks_modfile_close(&f);
	}
	ks_modfile_keep_free(k);
}
END_TEST

static Suite *suite_modfile(void)
{
	Suite *s = suite_create("modfile");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_xz_shapes, 0, KS_NCASES(xz_cases));
	tcase_add_test(tc, test_keep_sizes);
	suite_add_tcase(s, tc);
	return s;
}
KS_SUITE(suite_modfile)
