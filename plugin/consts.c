/* api=: the enumeration constants of the kernel's headers that the
 * module's own code names (PG_error, DRM_UNLOCKED), and the kernel's
 * aggregates it takes the size of (sizeof(struct drm_encoder)). C folds
 * both to their values as it parses, so no tree holds them: libcpp says which lines of
 * the module's files it read (line_change), and each function and static
 * variable of the module's, once parsed, has those of its lines scanned
 * for identifiers that name such a constant, recorded where they are
 * written. */
/* lib/ first: GCC's options.h defines warn_unused_result as a macro */
#include "array.h"
#include "buf.h"
#include "schedule.h"
#include <ksunset/record.h>

#include "gcc-plugin.h"
#include "tree.h"
#include "c-family/c-common.h"
#include "c-tree.h"
#include "cpplib.h"
#include "stringpool.h"

#include <stdlib.h>
#include <string.h>

#include "api.h"

/* One identifier of a file's code (not in a comment, a string or a
 * directive). */
struct ident {
	size_t off, len;
	unsigned line, col;	/* col: 1-based bytes */
};

/* A file of the module's: where libcpp read each line, its identifiers. */
struct kfile {
	location_t *lines;	/* by line: the first token read there; 0: none */
	size_t nlines, caplines;
	struct ks_buf text;
	struct ident *idents;	/* by line, read on the first scan */
	size_t nidents, capidents;
	bool read;
};

static struct kfile *kfile_of(struct ks_plugin *p, const char *name)
{
	void **slot;

	ks_strmap_put(&p->a->consts, name, &slot);
	if (!*slot)
		*slot = XCNEW(struct kfile);
	return (struct kfile *)*slot;
}

void ks_consts_line(struct ks_plugin *p, location_t loc)
{
	expanded_location x = expand_location(loc);
	struct kfile *f;

	if (!x.file || x.line <= 0)
		return;
	f = kfile_of(p, x.file);
	ks_array_room((void **)&f->lines, &f->caplines, (size_t)x.line + 1, sizeof(*f->lines));
	for (; f->nlines <= (size_t)x.line; f->nlines++)
		f->lines[f->nlines] = UNKNOWN_LOCATION;
	if (f->lines[x.line] == UNKNOWN_LOCATION)
		f->lines[x.line] = loc;
}

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* The text's identifiers, as the compiler reads its code: comments,
 * strings, characters, numbers and directive lines skipped. */
static void tokenize(struct kfile *f)
{
	const char *t = f->text.p ? f->text.p : "";
	size_t n = f->text.len, i = 0, bol = 0;
	unsigned line = 1;
	bool first = true;	/* nothing but blanks since the line began */

	while (i < n) {
		char c = t[i];

		if (c == '\n') {
			line++, bol = ++i, first = true;
		} else if (c == '\\' && i + 1 < n && t[i + 1] == '\n') {
			line++, i += 2, bol = i;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
			i++;
		} else if (c == '/' && i + 1 < n && t[i + 1] == '*') {
			for (i += 2; i + 1 < n && !(t[i] == '*' && t[i + 1] == '/'); i++)
				line += t[i] == '\n';
			i += 2;
		} else if ((c == '/' && i + 1 < n && t[i + 1] == '/') || (c == '#' && first)) {
			/* a comment, or a directive with its continuations */
			for (; i < n && t[i] != '\n'; i++)
				if (t[i] == '\\' && i + 1 < n && t[i + 1] == '\n')
					line++, i++;
		} else if (c == '"' || c == '\'') {
			for (i++; i < n && t[i] != c && t[i] != '\n'; i++)
				i += t[i] == '\\';
			i++;
			first = false;
		} else if (ident_char(c)) {
			size_t s = i;

			while (i < n && ident_char(t[i]))
				i++;
			first = false;
			if (c >= '0' && c <= '9')
				continue;
			ks_array_room((void **)&f->idents, &f->capidents, f->nidents + 1,
				      sizeof(*f->idents));
			f->idents[f->nidents++] = { s, i - s, line, (unsigned)(s - bol + 1) };
		} else {
			i++, first = false;
		}
	}
}

/* Whether the identifier at id is a member's name (s.x, p->x, .x = ...). */
static bool after_member_op(const struct kfile *f, const struct ident *id)
{
	const char *t = f->text.p;
	size_t i = id->off;

	while (i > 0 && (t[i - 1] == ' ' || t[i - 1] == '\t'))
		i--;
	return i > 0 && (t[i - 1] == '.' || (t[i - 1] == '>' && i > 1 && t[i - 2] == '-'));
}

/* The kernel's enumeration constant id names here, or NULL. */
static tree kernel_const(struct ks_plugin *p, const struct kfile *f, const struct ident *id)
{
	char *s = xstrndup(f->text.p + id->off, id->len);
	tree name = maybe_get_identifier(s), decl;

	free(s);
	if (!name || cpp_macro_p(C_CPP_HASHNODE(name)) || after_member_op(f, id))
		return NULL_TREE;
	decl = lookup_name(name);
	if (!decl || TREE_CODE(decl) != CONST_DECL || !DECL_NAME(decl) ||
	    !ks_where_kernel(p, DECL_SOURCE_LOCATION(decl)))
		return NULL_TREE;
	return decl;
}

/* Whether the first character after offset a, blanks skipped, is c. */
static bool next_is(const struct kfile *f, size_t a, char c)
{
	while (a < f->text.len && (f->text.p[a] == ' ' || f->text.p[a] == '\t'))
		a++;
	return a < f->text.len && f->text.p[a] == c;
}

/* "sizeof(struct TAG)" at identifier i: the kernel's aggregate it needs
 * complete, or NULL. C folds a sizeof to its value as it parses too. */
static tree sized_aggregate(struct ks_plugin *p, const struct kfile *f, size_t i)
{
	const struct ident *id = &f->idents[i], *kw = id + 1, *tag = id + 2;
	const char *t = f->text.p;
	bool is_union;
	char *name;
	tree type;

	if (i + 2 >= f->nidents || id->len != 6 || strncmp(t + id->off, "sizeof", 6) ||
	    !next_is(f, id->off + id->len, '(') || !next_is(f, tag->off + tag->len, ')'))
		return NULL_TREE;
	is_union = kw->len == 5 && !strncmp(t + kw->off, "union", 5);
	if (!is_union && (kw->len != 6 || strncmp(t + kw->off, "struct", 6)))
		return NULL_TREE;
	name = xstrndup(t + tag->off, tag->len);
	/* compiled there, so declared: found, not declared anew */
	type = xref_tag(is_union ? UNION_TYPE : RECORD_TYPE, get_identifier(name));
	free(name);
	return type && TYPE_STUB_DECL(type) &&
			       ks_where_kernel(p, DECL_SOURCE_LOCATION(TYPE_STUB_DECL(type)))
		       ? type
		       : NULL_TREE;
}

/* The first of f's identifiers on line or after it (they are by line). */
static size_t first_on(const struct kfile *f, unsigned line)
{
	size_t lo = 0, hi = f->nidents;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->idents[mid].line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void ks_consts_scan(struct ks_plugin *p, tree fn, location_t from, location_t to)
{
	expanded_location a = expand_location(ks_where_resolve(from));
	expanded_location b = expand_location(ks_where_resolve(to));
	struct kfile *f;

	if (!a.file || !b.file || strcmp(a.file, b.file) || b.line < a.line)
		return;
	f = kfile_of(p, a.file);
	if (!f->read) {
		f->read = true;
		if (!ks_buf_read_file(&f->text, a.file))
			tokenize(f);
	}
	for (size_t i = first_on(f, (unsigned)a.line);
	     i < f->nidents && f->idents[i].line <= (unsigned)b.line; i++) {
		const struct ident *id = &f->idents[i];
		location_t at;
		tree c;

		if (id->line >= f->nlines || f->lines[id->line] == UNKNOWN_LOCATION)
			continue;
		at = linemap_position_for_loc_and_offset(
			line_table, f->lines[id->line],
			(int)id->col - LOCATION_COLUMN(f->lines[id->line]));
		if ((c = sized_aggregate(p, f, i)))
			ks_shape_complete(p, c, at, fn);
		else if ((c = kernel_const(p, f, id)))
			ks_const_add(p, IDENTIFIER_POINTER(DECL_NAME(c)), at, fn, TREE_TYPE(c));
	}
}

void ks_consts_free(struct ks_plugin *p)
{
	for (size_t i = 0; i < p->a->consts.cap; i++) {
		struct kfile *f = (struct kfile *)p->a->consts.slots[i].val;

		if (!f)
			continue;
		free(f->lines);
		ks_buf_free(&f->text);
		free(f->idents);
		XDELETE(f);
	}
	ks_strmap_free(&p->a->consts);
}
