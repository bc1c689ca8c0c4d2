/* Schedule writing. The existing text is never re-formatted: a new entry is
 * appended after it, and the file is swapped in whole by rename(2), so a
 * crash leaves either the old file or the new one, never half of it. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/schedwrite.h"

static bool blank_line(const char *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isspace((unsigned char)l[i]))
			return false;
	return true;
}

static int add_field(struct ks_buf *b, const char *name, const char *v)
{
	bool first = true;
	int r = 0;

	if (!v || blank_line(v, strlen(v)))
		return 0;
	while (!r && *v) {
		size_t n = strcspn(v, "\n");

		if (!blank_line(v, n)) {
			r = first ? ks_buf_addf(b, "%-8s %.*s", name, (int)n, v)
				  : ks_buf_addf(b, "\n         %.*s", (int)n, v);
			first = false;
		}
		v += n + (v[n] == '\n');
	}
	return r ? r : ks_buf_addc(b, '\n');
}

int ks_entry_format(struct ks_buf *out, const struct ks_new_entry *e)
{
	struct ks_buf what = KS_BUF_INIT;
	int r = 0;

	for (size_t i = 0; !r && i < e->nsyms; i++)
		r = ks_buf_addf(&what, "%s%s", i ? ", " : "", e->syms[i]);
	if (!r)
		r = add_field(out, "What:", what.p);
	ks_buf_free(&what);
	if (!r)
		r = add_field(out, "When:", e->when);
	if (!r)
		r = add_field(out, "Action:", e->action);
	if (!r)
		r = add_field(out, "Replace:", e->replace);
	if (!r)
		r = add_field(out, "Why:", e->why);
	if (!r)
		r = add_field(out, "Who:", e->who);
	if (!r)
		r = add_field(out, "Since:", e->since);
	return r;
}

const char *ks_entry_separator(const char *text, size_t len)
{
	size_t start;

	if (!len)
		return "";
	if (text[len - 1] != '\n')
		return "\n\n";
	for (start = len - 1; start > 0 && text[start - 1] != '\n'; start--)
		;
	return blank_line(text + start, len - 1 - start) ? "" : "\n";
}

const char *ks_text_eol(const char *text, size_t len)
{
	const char *nl = memchr(text, '\n', len);

	return nl && nl > text && nl[-1] == '\r' ? "\r\n" : "\n";
}

int ks_buf_add_eol(struct ks_buf *b, const char *s, size_t n, const char *eol)
{
	int r = 0;

	while (!r && n) {
		const char *nl = memchr(s, '\n', n);
		size_t k = nl ? (size_t)(nl - s) : n;

		r = ks_buf_add(b, s, k);
		if (!r && nl)
			r = ks_buf_adds(b, eol);
		k += nl != NULL;
		s += k;
		n -= k;
	}
	return r;
}

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
	char *dir = strdup(target), *tmp = NULL;
	const char *what = "cannot write";
	int r = -ENOMEM;

	if (dir)
		tmp = ks_strdupf("%s/.ksunset-XXXXXX", dirname(dir));
	if (tmp) {
		r = write_temp(tmp, target, data, len, &what);
		if (!r && rename(tmp, target) < 0) {
			r = -errno;
			unlink(tmp);
		}
	}
	if (r < 0 && r != -ENOMEM)
		r = ks_diag_add(d, KS_ERROR, path, 0, 0, "%s: %s", what, strerror(-r)) < 0
			    ? -ENOMEM
			    : r;
	free(tmp);
	free(dir);
	free(real);
	return r;
}
