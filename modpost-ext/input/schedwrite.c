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

/* The mode for the new file: the old file's, else what open(2) would give. */
static mode_t file_mode(const char *path)
{
	struct stat st;
	mode_t mask;

	if (stat(path, &st) == 0)
		return st.st_mode & 07777;
	mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

static int write_temp(char *tmp, const char *path, const char *data, size_t len)
{
	int fd = mkstemp(tmp);
	int r;

	if (fd < 0)
		return -errno;
	r = fchmod(fd, file_mode(path)) < 0 ? -errno : 0;
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
	int r = -ENOMEM;

	if (dir)
		tmp = ks_strdupf("%s/.ksunset-XXXXXX", dirname(dir));
	if (tmp) {
		r = write_temp(tmp, target, data, len);
		if (!r && rename(tmp, target) < 0) {
			r = -errno;
			unlink(tmp);
		}
	}
	if (r < 0 && r != -ENOMEM)
		r = ks_diag_add(d, KS_ERROR, path, 0, 0, "cannot write: %s", strerror(-r)) < 0
			    ? -ENOMEM
			    : r;
	free(tmp);
	free(dir);
	free(real);
	return r;
}
