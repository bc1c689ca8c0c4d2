/* Schedule writing. The existing text is never re-formatted: a new entry is
 * appended after it, and the file is then swapped in whole
 * (ks_file_replace(), lib/file.c). */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "input/schedwrite.h"

static bool blank_line(const char *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isspace((unsigned char)l[i]))
			return false;
	return true;
}

static void add_field(struct ks_buf *b, const char *name, const char *v)
{
	bool first = true;

	if (!v || blank_line(v, strlen(v)))
		return;
	while (*v) {
		size_t n = strcspn(v, "\n");

		if (!blank_line(v, n)) {
			if (first)
				ks_buf_addf(b, "%-8s %.*s", name, (int)n, v);
			else
				ks_buf_addf(b, "\n         %.*s", (int)n, v);
			first = false;
		}
		v += n + (v[n] == '\n');
	}
	ks_buf_addc(b, '\n');
}

void ks_entry_format(struct ks_buf *out, const struct ks_new_entry *e)
{
	struct ks_buf what = KS_BUF_INIT;

	for (size_t i = 0; i < e->nsyms; i++)
		ks_buf_addf(&what, "%s%s", i ? ", " : "", e->syms[i]);
	add_field(out, "What:", what.p);
	ks_buf_free(&what);
	add_field(out, "When:", e->when);
	add_field(out, "Action:", e->action);
	add_field(out, "Replace:", e->replace);
	add_field(out, "Why:", e->why);
	add_field(out, "Who:", e->who);
	add_field(out, "Since:", e->since);
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

void ks_buf_add_eol(struct ks_buf *b, const char *s, size_t n, const char *eol)
{
	while (n) {
		const char *nl = memchr(s, '\n', n);
		size_t k = nl ? (size_t)(nl - s) : n;

		ks_buf_add(b, s, k);
		if (nl)
			ks_buf_adds(b, eol);
		k += nl != NULL;
		s += k;
		n -= k;
	}
}
