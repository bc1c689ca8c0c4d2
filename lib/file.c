/* Atomic file replacement (file.h): the new contents go to a temporary
 * file beside the old one, which rename(2) then swaps in whole. And a
 * source file's lines. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "array.h"
#include "buf.h"
#include "file.h"

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Gives the new file the old one's mode, owner and group; a new file gets
 * what open(2) would give it. *what names a failure. */
static int keep_attributes(int fd, const char *path, const char **what)
{
	struct stat st;
	mode_t mask;

	if (stat(path, &st) < 0) {
		mask = umask(0);
		umask(mask);
		return fchmod(fd, 0666 & ~mask) < 0 ? -errno : 0;
	}
	/* before the mode: chown clears set-user-ID and set-group-ID bits */
	if (fchown(fd, st.st_uid, st.st_gid) < 0) {
		*what = "cannot keep the file's owner and group";
		return -errno;
	}
	return fchmod(fd, st.st_mode & 07777) < 0 ? -errno : 0;
}

static int write_temp(char *tmp, const char *path, const char *data, size_t len,
		      const char **what)
{
	int fd = mkstemp(tmp);
	int r;

	if (fd < 0)
		return -errno;
	r = keep_attributes(fd, path, what);
	if (!r)
		r = write_all(fd, data, len);
	if (!r && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && !r)
		r = -errno;
	if (r)
		unlink(tmp);
	return r;
}

int ks_file_replace(const char *path, const char *data, size_t len, struct ks_diags *d)
{
	char *real = realpath(path, NULL);
	const char *target = real ? real : path;
	char *dir = ks_xstrdup(target);
	char *tmp = ks_strdupf("%s/.ksunset-XXXXXX", dirname(dir));
	const char *what = "cannot write";
	int r = write_temp(tmp, target, data, len, &what);

	if (!r && rename(tmp, target) < 0) {
		r = -errno;
		unlink(tmp);
	}
	if (r < 0)
		ks_diag_add(d, KS_ERROR, path, 0, 0, "%s: %s", what, strerror(-r));
	free(tmp);
	free(dir);
	free(real);
	return r;
}

/* Line lineno of f, without its line end (nor, on line 1, a UTF-8 byte
 * order mark, which GCC skips too): 0, -ERANGE past the end, or -EIO for
 * a read error. */
static int read_line(FILE *f, unsigned lineno, char **line, size_t *cap, size_t *len)
{
	ssize_t n = -1;
	size_t skip;

	errno = 0;
	for (unsigned i = 0; i < lineno && (n = getline(line, cap, f)) >= 0; i++)
		;
	if (n < 0 && errno == ENOMEM)
		ks_nomem();
	if (n < 0)
		return ferror(f) ? -EIO : -ERANGE;
	*len = (size_t)n;
	while (*len && ((*line)[*len - 1] == '\n' || (*line)[*len - 1] == '\r'))
		(*len)--;
	skip = lineno == 1 && *len >= 3 && !memcmp(*line, "\xef\xbb\xbf", 3) ? 3 : 0;
	memmove(*line, *line + skip, *len - skip);
	*len -= skip;
	return 0;
}

int ks_file_line(const char *path, unsigned lineno, char **line, size_t *len)
{
	FILE *f = fopen(path, "r");
	size_t cap = 0;
	int r;

	*line = NULL;
	if (!f)
		return -(errno ? errno : EIO);
	r = read_line(f, lineno, line, &cap, len);
	fclose(f);
	if (r) {
		free(*line);
		*line = NULL;
	}
	return r;
}

int ks_lines_read(struct ks_lines *ls, const char *path)
{
	int e;

	memset(ls, 0, sizeof(*ls));
	if ((e = ks_buf_read_file(&ls->text, path)) < 0)
		return e;
	for (size_t at = 0; at < ls->text.len;) {
		const char *s = ls->text.p + at, *nl = memchr(s, '\n', ls->text.len - at);
		size_t len = nl ? (size_t)(nl - s) : ls->text.len - at;

		ks_array_grow((void **)&ls->p, ls->n, 1, sizeof(*ls->p));
		ks_array_grow((void **)&ls->len, ls->n, 1, sizeof(*ls->len));
		ls->p[ls->n] = s;
		ls->len[ls->n++] = len;
		ls->eol = nl != NULL;
		at += len + 1;
	}
	return 0;
}

void ks_lines_free(struct ks_lines *ls)
{
	ks_buf_free(&ls->text);
	free(ls->p);
	free(ls->len);
	memset(ls, 0, sizeof(*ls));
}
