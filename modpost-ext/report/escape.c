/* Output no input can break, in one place: what ksunset writes to its
 * standard output and error passes through a filter that writes control
 * bytes (but newline and tab), DEL, the C1 controls and bytes that are not
 * UTF-8 as \xHH, so that a name, namespace, record or path read from a
 * file cannot retitle or clear a terminal, nor make the text invalid
 * UTF-8. JSON and SARIF escape the same bytes their own way (json.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/escape.h"

int ks_utf8_len(const unsigned char *p, size_t n)
{
	unsigned c = p[0], need, cp;

	if (c < 0x80)
		return 1;
	need = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
	if (!need)
		return 0;
	cp = c & (0x7fu >> need);
	for (unsigned i = 1; i < need; i++) {
		if (i >= n)
			return -1;
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((need == 3 && cp < 0x800) || (need == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp <= 0x9f)
		return 0;
	return (int)need;
}

bool ks_text_plain(unsigned char c)
{
	return (c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t';
}

/* A filtered stream: the descriptor it writes to, what it has to write,
 * and the bytes of a UTF-8 sequence begun but not ended. */
struct filter {
	int fd;
	char out[4096];
	size_t nout;
	unsigned char seq[4];
	size_t nseq;
	bool failed;
};

static void flush_out(struct filter *f)
{
	for (size_t done = 0; done < f->nout && !f->failed;) {
		ssize_t w = write(f->fd, f->out + done, f->nout - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			f->failed = true;
		else
			done += (size_t)w;
	}
	f->nout = 0;
}

static void put(struct filter *f, const void *p, size_t n)
{
	if (f->nout + n > sizeof(f->out))
		flush_out(f);
	memcpy(f->out + f->nout, p, n);
	f->nout += n;
}

static void put_escaped(struct filter *f, const unsigned char *p, size_t n)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		char e[4] = { '\\', 'x', hex[p[i] >> 4], hex[p[i] & 15] };

		put(f, e, sizeof(e));
	}
}

/* One byte: plain ASCII as it is, a UTF-8 sequence once it is whole and
 * valid, anything else escaped. */
static void byte(struct filter *f, unsigned char c)
{
	int len;

	if (!f->nseq && c < 0x80) {
		if (ks_text_plain(c))
			put(f, &c, 1);
		else
			put_escaped(f, &c, 1);
		return;
	}
	if (f->nseq && (c & 0xc0) != 0x80) {	/* the sequence ends too soon */
		put_escaped(f, f->seq, f->nseq);
		f->nseq = 0;
		byte(f, c);
		return;
	}
	f->seq[f->nseq++] = c;
	len = ks_utf8_len(f->seq, f->nseq);
	if (len == -1 && f->nseq < 4)
		return;
	if (len > 0)
		put(f, f->seq, f->nseq);
	else
		put_escaped(f, f->seq, f->nseq);
	f->nseq = 0;
}

static ssize_t filter_write(void *cookie, const char *buf, size_t size)
{
	struct filter *f = cookie;

	for (size_t i = 0; i < size; i++)
		byte(f, (unsigned char)buf[i]);
	flush_out(f);
	if (f->failed) {
		errno = errno ? errno : EIO;
		return -1;
	}
	return (ssize_t)size;
}

static int filter_close(void *cookie)
{
	struct filter *f = cookie;
	bool failed;

	put_escaped(f, f->seq, f->nseq);
	f->nseq = 0;
	flush_out(f);
	failed = f->failed;
	return failed ? -1 : 0;
}

/* The stream *s, for descriptor fd (standard output or error), made a
 * filtered one, line-buffered as stdio makes a terminal's; its filter
 * lives as long as the program, as the stream does. */
static int filtered(FILE **s, int fd)
{
	static struct filter filters[2];
	cookie_io_functions_t io = { .write = filter_write, .close = filter_close };
	struct filter *f = &filters[fd == STDERR_FILENO];
	FILE *n;

	f->fd = fd;
	if (!(n = fopencookie(f, "w", io)))
		return -errno;
	if (isatty(fd) || fd == STDERR_FILENO)
		setvbuf(n, NULL, fd == STDERR_FILENO ? _IONBF : _IOLBF, 0);
	*s = n;
	return 0;
}

int ks_escape_streams(void)
{
	int r;

	fflush(stdout);
	fflush(stderr);
	r = filtered(&stdout, STDOUT_FILENO);
	return r ? r : filtered(&stderr, STDERR_FILENO);
}
