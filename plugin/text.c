/* The lines of the files the plugin reads itself (the module's own, for
 * the places its records give, the directives and the arguments the
 * source writes): each file is read once a compilation and its lines
 * indexed, where GCC's location_get_source_line() looked a line up anew
 * on every call (a large share of the api argument's cost). */
/* lib/ first: GCC's options.h defines warn_unused_result as a macro */
#include "array.h"
#include "buf.h"
#include "schedule.h"
#include <ksunset/record.h>

#include "gcc-plugin.h"
#include "tree.h"
#include "input.h"
#include "cpplib.h"

#include <stdlib.h>
#include <string.h>

#include "ksunset.h"

/* One file: its text, and where each line starts. */
struct text {
	struct ks_buf buf;
	size_t *starts;		/* starts[i]: line i + 1 */
	size_t nlines;
	bool ok;		/* read */
};

static struct text *text_of(struct ks_plugin *p, const char *file)
{
	struct text *t;
	void **slot;
	size_t cap = 0;

	ks_strmap_put(&p->texts, file, &slot);
	if (*slot)
		return (struct text *)*slot;
	t = XCNEW(struct text);
	*slot = t;
	if (ks_buf_read_file(&t->buf, file))
		return t;
	t->ok = true;
	for (size_t i = 0; i <= t->buf.len; i++) {
		if (i && t->buf.p[i - 1] != '\n')
			continue;
		if (i == t->buf.len && i)
			break;	/* the final newline starts no line */
		ks_array_room((void **)&t->starts, &cap, t->nlines + 1, sizeof(*t->starts));
		t->starts[t->nlines++] = i;
	}
	return t;
}

bool ks_text_line(struct ks_plugin *p, const char *file, int line, struct ks_line *out)
{
	struct text *t = file ? text_of(p, file) : NULL;
	size_t end;

	if (!t || !t->ok || line < 1 || (size_t)line > t->nlines)
		return false;
	out->p = t->buf.p + t->starts[line - 1];
	end = (size_t)line < t->nlines ? t->starts[line] : t->buf.len;
	while (end > t->starts[line - 1] && (t->buf.p[end - 1] == '\n' || t->buf.p[end - 1] == '\r'))
		end--;
	out->len = end - t->starts[line - 1];
	return true;
}

/* GCC's display column of x as it prints it by default: a tab to the next
 * multiple of 8; a line with other than ASCII is left to GCC. */
int ks_text_display_col(struct ks_plugin *p, expanded_location x)
{
	struct ks_line l;
	int col = 0;

	if (x.column <= 0 || !ks_text_line(p, x.file, x.line, &l))
		return x.column;
	for (size_t i = 0; i + 1 < (size_t)x.column && i < l.len; i++) {
		unsigned char c = (unsigned char)l.p[i];

		if (c >= 0x80) {
			cpp_char_column_policy policy(8, cpp_wcwidth);

			return location_compute_display_column(x, policy);
		}
		col = c == '\t' ? (col / 8 + 1) * 8 : col + 1;
	}
	return col + 1 + ((size_t)x.column - 1 > l.len ? (int)((size_t)x.column - 1 - l.len) : 0);
}

void ks_text_free(struct ks_plugin *p)
{
	for (size_t i = 0; i < p->texts.cap; i++) {
		struct text *t = (struct text *)p->texts.slots[i].val;

		if (!t)
			continue;
		ks_buf_free(&t->buf);
		free(t->starts);
		XDELETE(t);
	}
	ks_strmap_free(&p->texts);
}
