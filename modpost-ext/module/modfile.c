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

#include "buf.h"
#include "module/modfile.h"

static int read_all(int fd, char **data, size_t *size, const char **why)
{
	struct ks_buf b = KS_BUF_INIT;
	char chunk[65536];
	ssize_t n;

	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || b.len > KS_MODFILE_MAX || ks_buf_add(&b, chunk, (size_t)n) < 0) {
			int e = n < 0 ? errno : b.len > KS_MODFILE_MAX ? EFBIG : ENOMEM;

			*why = strerror(e);
			ks_buf_free(&b);
			return -e;
		}
	}
	*size = b.len;
	*data = ks_buf_steal(&b);
	return *data ? 0 : -ENOMEM;
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
	if (ks_buf_add(&out->buf, p, n) < 0) {
		*why = strerror(ENOMEM);
		return -ENOMEM;
	}
	return 0;
}

static int unxz(const char *in, size_t n, struct sink *out, const char **why)
{
	lzma_stream s = LZMA_STREAM_INIT;
	uint8_t chunk[65536];
	lzma_ret lr;
	int r = 0;

	if (lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
		*why = "cannot start the xz decoder";
		return -ENOMEM;
	}
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

static int unzstd(const char *in, size_t n, struct sink *out, const char **why)
{
	ZSTD_DStream *s = ZSTD_createDStream();
	ZSTD_inBuffer ib = { in, n, 0 };
	char chunk[65536];
	size_t zr = 1;
	int r = 0;

	if (!s) {
		*why = strerror(ENOMEM);
		return -ENOMEM;
	}
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

	if (inflateInit2(&s, 15 + 32) != Z_OK) {
		*why = "cannot start the gzip decoder";
		return -ENOMEM;
	}
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

/* Decompresses in[0..n) into a fresh buffer: 1 if it was compressed, 0 if
 * it is not (nothing allocated), or -errno. */
static int decompress(const char *in, size_t n, char **out, size_t *outn, const char **why)
{
	static const unsigned char xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
	static const unsigned char zst[] = { 0x28, 0xb5, 0x2f, 0xfd };
	static const unsigned char gz[] = { 0x1f, 0x8b };
	int (*fn)(const char *, size_t, struct sink *, const char **) = NULL;
	struct sink sk = { KS_BUF_INIT, sink_limit(n) };
	int r;

	if (n >= sizeof(xz) && !memcmp(in, xz, sizeof(xz)))
		fn = unxz;
	else if (n >= sizeof(zst) && !memcmp(in, zst, sizeof(zst)))
		fn = unzstd;
	else if (n >= sizeof(gz) && !memcmp(in, gz, sizeof(gz)))
		fn = ungzip;
	if (!fn)
		return 0;
	r = fn(in, n, &sk, why);
	if (r < 0) {
		ks_buf_free(&sk.buf);
		return r;
	}
	*outn = sk.buf.len;
	*out = ks_buf_steal(&sk.buf);
	return *out ? 1 : -ENOMEM;
}

int ks_modfile_decompress(char **data, size_t *size, const char **why)
{
	char *out;
	size_t n;
	int r = decompress(*data, *size, &out, &n, why);

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

int ks_modfile_slurp(struct ks_modfile *f, const char **why)
{
	int r;

	if (lseek(f->fd, 0, SEEK_SET) < 0) {
		*why = strerror(errno);
		return -errno;
	}
	r = read_all(f->fd, &f->data, &f->size, why);
	close(f->fd);
	f->fd = -1;
	return r < 0 ? r : ks_modfile_decompress(&f->data, &f->size, why);
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
		return ks_modfile_slurp(f, why);
	p = mmap(NULL, f->size, PROT_READ | PROT_WRITE, MAP_PRIVATE, f->fd, 0);
	if (p == MAP_FAILED)
		return ks_modfile_slurp(f, why);
	close(f->fd);
	f->fd = -1;
	f->data = p;
	f->mapped = true;
	return 0;
}

void ks_modfile_close(struct ks_modfile *f)
{
	if (f->mapped)
		munmap(f->data, f->size);
	else
		free(f->data);
	if (f->fd >= 0)
		close(f->fd);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}
