/* Module files, compressed or not. Distributions ship modules as .ko.xz,
 * .ko.zst or .ko.gz; the format is told by magic bytes, not the name. */
#include <errno.h>
#include <elf.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "alloc.h"
#include "array.h"
#include "buf.h"
#include "module/modfile.h"

/* Room for at least one more byte after len bytes; a file may not grow
 * past KS_MODFILE_MAX. 0 or -errno. */
static int room(char **p, size_t len, size_t *cap)
{
	if (len < *cap)
		return 0;
	if (len > KS_MODFILE_MAX)
		return -EFBIG;
	ks_array_room((void **)p, cap, len + 1, 1);
	return 0;
}

/* The whole file, read straight into one buffer of the size fstat gave
 * (hint) and one spare byte to see the end: no growing and no copying
 * through a chunk, unless the file grew since. */
static int read_all(int fd, size_t hint, char **data, size_t *size, const char **why)
{
	size_t cap = (hint < KS_MODFILE_MAX ? hint : KS_MODFILE_MAX) + 1, len = 0;
	char *p = ks_xmalloc(cap);
	ssize_t n = 1;
	int r = 0;

	while (!r && n && !(r = room(&p, len, &cap))) {
		n = read(fd, p + len, cap - len);
		if (n > 0)
			len += (size_t)n;
		else if (n < 0 && errno == EINTR)
			n = 1; /* interrupted: read again */
		else if (n < 0)
			r = -errno;
	}
	if (r < 0) {
		*why = strerror(-r);
		free(p);
		return r;
	}
	*data = p;
	*size = len;
	return 0;
}

/* Decompressed output, and how much of it is allowed. */
struct sink {
	struct ks_buf buf;
	size_t limit;
};

/* The most that n compressed bytes may decompress to: real modules shrink
 * about 4 times, so a much larger ratio is a decompression bomb. */
static size_t sink_limit(size_t n)
{
	size_t lim = n > KS_MODFILE_MAX / KS_MODFILE_RATIO ? KS_MODFILE_MAX : n * KS_MODFILE_RATIO;

	return lim < KS_MODFILE_MIN_LIMIT ? KS_MODFILE_MIN_LIMIT : lim;
}

/* Appends produced output, enforcing the size limit. */
static int sink(struct sink *out, const void *p, size_t n, const char **why)
{
	if (n > out->limit - out->buf.len) {
		*why = "decompressed size too large (a decompression bomb?)";
		return -EFBIG;
	}
	ks_buf_add(&out->buf, p, n);
	return 0;
}

static int unxz(const char *in, size_t n, struct sink *out, const char **why)
{
	lzma_stream s = LZMA_STREAM_INIT;
	uint8_t chunk[65536];
	lzma_ret lr;
	int r = 0;

	if (lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
		ks_nomem();	/* its one failure without input: memory */
	s.next_in = (const uint8_t *)in;
	s.avail_in = n;
	do {
		s.next_out = chunk;
		s.avail_out = sizeof(chunk);
		lr = lzma_code(&s, LZMA_FINISH);
		r = sink(out, chunk, sizeof(chunk) - s.avail_out, why);
	} while (!r && lr == LZMA_OK);
	lzma_end(&s);
	if (!r && lr != LZMA_STREAM_END) {
		*why = "corrupt or truncated xz data";
		r = -EINVAL;
	}
	return r;
}

/* The decompressed size that the index of an .xz file records, if the
 * file is exactly one stream, as the kernel's `xz --check=crc32` writes
 * modules; 0 if not (stream padding, several streams, a bad index). */
static uint64_t xz_size(const uint8_t *in, size_t n)
{
	const size_t h = LZMA_STREAM_HEADER_SIZE;
	lzma_stream_flags fl;
	lzma_index *idx = NULL;
	uint64_t lim = UINT64_MAX, size = 0;
	size_t pos;

	if (n < 2 * h || lzma_stream_footer_decode(&fl, in + n - h) != LZMA_OK ||
	    fl.backward_size > n - 2 * h)
		return 0;
	pos = n - h - fl.backward_size;
	if (lzma_index_buffer_decode(&idx, &lim, NULL, in, &pos, n - h) == LZMA_OK &&
	    lzma_index_stream_size(idx) == n)
		size = lzma_index_uncompressed_size(idx);
	lzma_index_end(idx, NULL);
	return size;
}

/* What a reading thread keeps from one module to the next: the xz decoder,
 * whose 1 MiB dictionary is then allocated once, and the buffer of the
 * largest image so far. Fresh ones for every module of a distribution's
 * .ko.xz cost as much CPU again as decompressing them: each is mapped,
 * faulted in page by page and unmapped (the reading threads fix malloc's
 * mmap threshold, so that memory stays bounded by the largest module). */
struct ks_modfile_keep {
	lzma_stream xz;
	char *image;
	size_t cap;
};

struct ks_modfile_keep *ks_modfile_keep_new(void)
{
	struct ks_modfile_keep *k = ks_xcalloc(1, sizeof(*k));

	k->xz = (lzma_stream)LZMA_STREAM_INIT;
	return k;
}

void ks_modfile_keep_free(struct ks_modfile_keep *k)
{
	if (!k)
		return;
	lzma_end(&k->xz);
	free(k->image);
	free(k);
}

/* A buffer for an image of size bytes: k's, grown if need be, or else a
 * fresh one. */
static char *image_buf(struct ks_modfile_keep *k, size_t size)
{
	if (!k)
		return ks_xmalloc(size);
	if (size > k->cap) {
		k->image = ks_xrealloc(k->image, size);
		k->cap = size;
	}
	return k->image;
}

/* Decodes the one stream in in[0..n) into p[0..size): LZMA_STREAM_END if
 * it fills p exactly and ends the input. */
static lzma_ret xz_decode(lzma_stream *s, const char *in, size_t n, char *p, size_t size)
{
	lzma_ret lr = lzma_stream_decoder(s, UINT64_MAX, 0);

	if (lr != LZMA_OK)
		return lr;
	s->next_in = (const uint8_t *)in;
	s->avail_in = n;
	s->next_out = (uint8_t *)p;
	s->avail_out = size;
	lr = lzma_code(s, LZMA_FINISH);
	return lr == LZMA_STREAM_END && (s->avail_out || s->avail_in) ? LZMA_DATA_ERROR : lr;
}

/* An .xz file of one stream, decoded in one call straight into a buffer of
 * the size its index records (not grown chunk by chunk). The decoder
 * checks that the blocks agree with the index. 1 done (*out is k's image
 * if k is given), 0 size unknown (use unxz()), or -errno. */
static int unxz_sized(const char *in, size_t n, size_t limit, struct ks_modfile_keep *k, char **out,
		      size_t *outn, const char **why)
{
	lzma_stream fresh = LZMA_STREAM_INIT, *s = k ? &k->xz : &fresh;
	uint64_t size = xz_size((const uint8_t *)in, n);
	lzma_ret lr;
	char *p;

	if (!size)
		return 0;
	if (size > limit) {
		*why = "decompressed size too large (a decompression bomb?)";
		return -EFBIG;
	}
	p = image_buf(k, (size_t)size);
	lr = xz_decode(s, in, n, p, (size_t)size);
	if (!k)
		lzma_end(s);
	if (lr == LZMA_STREAM_END) {
		*out = p;
		*outn = (size_t)size;
		return 1;
	}
	if (!k)
		free(p);
	if (lr == LZMA_MEM_ERROR)
		ks_nomem();
	*why = "corrupt or truncated xz data";
	return -EINVAL;
}

static int unzstd(const char *in, size_t n, struct sink *out, const char **why)
{
	ZSTD_DStream *s = ZSTD_createDStream();
	ZSTD_inBuffer ib = { in, n, 0 };
	char chunk[65536];
	size_t zr = 1;
	int r = 0;

	if (!s)
		ks_nomem();
	while (!r && ib.pos < ib.size) {
		ZSTD_outBuffer ob = { chunk, sizeof(chunk), 0 };

		zr = ZSTD_decompressStream(s, &ob, &ib);
		if (ZSTD_isError(zr)) {
			*why = "corrupt zstd data";
			r = -EINVAL;
			break;
		}
		r = sink(out, chunk, ob.pos, why);
		if (!r && ob.pos == 0 && zr != 0 && ib.pos == ib.size)
			break;
	}
	ZSTD_freeDStream(s);
	if (!r && zr != 0) {
		*why = "truncated zstd data";
		r = -EINVAL;
	}
	return r;
}

static int ungzip(const char *in, size_t n, struct sink *out, const char **why)
{
	z_stream s = { 0 };
	unsigned char chunk[65536];
	int zr, r = 0;

	if (inflateInit2(&s, 15 + 32) != Z_OK)
		ks_nomem();	/* its one failure without input: memory */
	s.next_in = (unsigned char *)(uintptr_t)in;
	do {
		size_t take = n > UINT32_MAX ? UINT32_MAX : n;

		s.avail_in = (uInt)take;
		do {
			s.next_out = chunk;
			s.avail_out = sizeof(chunk);
			zr = inflate(&s, Z_NO_FLUSH);
			if (zr != Z_OK && zr != Z_STREAM_END)
				break;
			r = sink(out, chunk, sizeof(chunk) - s.avail_out, why);
		} while (!r && zr == Z_OK && s.avail_out == 0);
		n -= take - s.avail_in;
	} while (!r && zr == Z_OK && s.avail_in == 0 && n);
	inflateEnd(&s);
	if (!r && zr != Z_STREAM_END) {
		*why = "corrupt or truncated gzip data";
		r = -EINVAL;
	}
	return r;
}

/* Decompresses in[0..n) into a fresh buffer, or k's (may be NULL): 1 if
 * it was compressed, 0 if it is not (nothing allocated), or -errno. */
static int decompress(const char *in, size_t n, struct ks_modfile_keep *k, char **out, size_t *outn,
		      const char **why)
{
	static const unsigned char xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
	static const unsigned char zst[] = { 0x28, 0xb5, 0x2f, 0xfd };
	static const unsigned char gz[] = { 0x1f, 0x8b };
	int (*fn)(const char *, size_t, struct sink *, const char **) = NULL;
	struct sink sk = { KS_BUF_INIT, sink_limit(n) };
	int r;

	if (n >= sizeof(xz) && !memcmp(in, xz, sizeof(xz))) {
		r = unxz_sized(in, n, sk.limit, k, out, outn, why);
		if (r != 0)
			return r;
		fn = unxz;
	} else if (n >= sizeof(zst) && !memcmp(in, zst, sizeof(zst))) {
		fn = unzstd;
	} else if (n >= sizeof(gz) && !memcmp(in, gz, sizeof(gz))) {
		fn = ungzip;
	}
	if (!fn)
		return 0;
	r = fn(in, n, &sk, why);
	if (r < 0) {
		ks_buf_free(&sk.buf);
		return r;
	}
	*outn = sk.buf.len;
	*out = ks_buf_steal(&sk.buf);
	return 1;
}

int ks_modfile_decompress(char **data, size_t *size, const char **why)
{
	char *out;
	size_t n;
	int r = decompress(*data, *size, NULL, &out, &n, why);

	if (r <= 0)
		return r;
	free(*data);
	*data = out;
	*size = n;
	return 0;
}

/* A module stays a file descriptor, from which libelf reads just the
 * headers and the few sections needed: cheaper than reading or mapping
 * whole files, and with no page-table work that would serialize the
 * reading threads. Only a file that is not ELF is read whole, in case it
 * is compressed (ks_modfile_slurp). */
int ks_modfile_open(const char *path, struct ks_modfile *f, const char **why)
{
	/* O_NONBLOCK: a FIFO given by mistake must not hang the run */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	int r = 0;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	if (fd < 0 || fstat(fd, &st) < 0) {
		r = -errno;
		*why = strerror(errno);
	} else if (S_ISDIR(st.st_mode)) {
		r = -EISDIR;
		*why = "is a directory";
	} else if (!S_ISREG(st.st_mode)) {
		r = -EINVAL;
		*why = "not a regular file";
	} else {
		f->fd = fd;
		f->size = (size_t)st.st_size;
		return 0;
	}
	if (fd >= 0)
		close(fd);
	return r;
}

int ks_modfile_slurp(struct ks_modfile *f, struct ks_modfile_keep *k, const char **why)
{
	char *out;
	size_t n;
	int r;

	if (lseek(f->fd, 0, SEEK_SET) < 0) {
		*why = strerror(errno);
		return -errno;
	}
	r = read_all(f->fd, f->size, &f->data, &f->size, why);
	close(f->fd);
	f->fd = -1;
	if (r < 0 || (r = decompress(f->data, f->size, k, &out, &n, why)) <= 0)
		return r;
	free(f->data);
	f->data = out;
	f->size = n;
	f->kept = k && out == k->image;
	return 0;
}

/* Whether the open file starts with ELF's magic bytes. */
static bool is_elf(int fd)
{
	char magic[SELFMAG];

	return pread(fd, magic, SELFMAG, 0) == SELFMAG && !memcmp(magic, ELFMAG, SELFMAG);
}

int ks_modfile_map(struct ks_modfile *f, const char **why)
{
	void *p;

	if (!f->size || f->size > KS_MODFILE_MAX || !is_elf(f->fd))
		return ks_modfile_slurp(f, NULL, why);
	p = mmap(NULL, f->size, PROT_READ | PROT_WRITE, MAP_PRIVATE, f->fd, 0);
	if (p == MAP_FAILED)
		return ks_modfile_slurp(f, NULL, why);
	f->data = p; /* the descriptor stays open, for pread() */
	f->mapped = true;
	return 0;
}

void ks_modfile_close(struct ks_modfile *f)
{
	if (f->mapped)
		munmap(f->data, f->size);
	else if (!f->kept)
		free(f->data);
	if (f->fd >= 0)
		close(f->fd);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}
