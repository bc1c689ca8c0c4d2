/* Module.symvers parser. The file holds one export per line:
 * 0xCRC<TAB>symbol<TAB>module<TAB>EXPORT_SYMBOL[_GPL]<TAB>namespace.
 * Fields point into the file's text, so a 25,000-line file costs one read. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array.h"
#include "buf.h"
#include "schedule.h"
#include "input/symvers.h"

#define NFIELDS 5

static int check_crc(const char *s)
{
	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !s[2])
		return -EINVAL;
	for (s += 2; *s; s++)
		if (!isxdigit((unsigned char)*s))
			return -EINVAL;
	return 0;
}

static bool export_type_ok(const char *t)
{
	return strcmp(t, "EXPORT_SYMBOL") == 0 || strcmp(t, "EXPORT_SYMBOL_GPL") == 0 ||
	       strcmp(t, "EXPORT_SYMBOL_GPL_FUTURE") == 0;
}

/* The first problem with a split line, or NULL; *field: the field it
 * lies in, -1 for the line as a whole. */
static const char *bad_fields(char **f, size_t nf, int *field)
{
	*field = -1;
	if (nf < 4)
		return "expected CRC, symbol, module, export type and namespace separated by tabs";
	if (nf > NFIELDS)
		return "too many fields";
	*field = check_crc(f[0]) < 0 ? 0 : !ks_is_identifier(f[1]) ? 1 : !f[2][0] ? 2
	       : !export_type_ok(f[3]) ? 3 : -2;
	switch (*field) {
	case 0:
		return "bad CRC";
	case 1:
		return "bad symbol name";
	case 2:
		*field = -1;	/* nothing to quote but the line */
		return "empty module name";
	case 3:
		return "bad export type";
	}
	*field = -1;
	return NULL;
}

/* s as a message may quote it: bytes that are no printable ASCII (nor a
 * tab) as \xNN, at most 80 of them (then "..."). */
static char *printable(const char *s)
{
	struct ks_buf b = KS_BUF_INIT;
	size_t i;

	for (i = 0; s[i] && i < 80; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c >= 0x20 && c < 0x7f) || c == '\t')
			ks_buf_addc(&b, (char)c);
		else
			ks_buf_addf(&b, "\\x%02x", c);
	}
	if (s[i])
		ks_buf_adds(&b, "...");
	return ks_buf_steal(&b);
}

/* "FILE:LINE: error: WHY: 'TOKEN'": the field at fault, or the line (its
 * tabs put back) when the fields themselves are wrong. */
static int bad_line(struct ks_diags *d, const char *file, unsigned line, char **f, size_t nf,
		    const char *why, int field)
{
	char *q;

	for (size_t i = 0; field < 0 && i + 1 < nf; i++)
		f[i][strlen(f[i])] = '\t';
	q = printable(field < 0 ? f[0] : f[field]);
	ks_diag_add(d, KS_ERROR, file, line, 0, "%s: '%s'", why, q);
	free(q);
	return -EINVAL;
}

/* Indexes e (in the current block); 1 if its symbol was exported before
 * (the first export counts, as in modpost), *again its line when that was
 * in the same file. */
static int add_export(struct ks_symvers *sv, struct ks_export *e, unsigned *again)
{
	void **slot;
	const struct ks_export *first;

	if (!ks_strmap_put(&sv->bysym, e->symbol, &slot)) {
		/* exported twice: the first one wins */
		first = *slot;
		*again = first->file == e->file ? first->line : 0;
		return 1;
	}
	*slot = e;
	sv->v[sv->n++] = e;
	return 0;
}

/* Room for n more exports: one block for their structs, the index array
 * and the map sized once, instead of growing per line. */
static void reserve(struct ks_symvers *sv, size_t n, struct ks_export **block)
{
	ks_array_room((void **)&sv->v, &sv->cap, sv->n + n + 1, sizeof(*sv->v));
	ks_array_grow((void **)&sv->blocks, sv->nblocks, 1, sizeof(*sv->blocks));
	ks_strmap_reserve(&sv->bysym, sv->n + n);
	*block = ks_xcalloc(n + 1, sizeof(**block));
	sv->blocks[sv->nblocks++] = *block;
}

static int parse_line(struct ks_symvers *sv, const char *file, char *l, unsigned line,
		      struct ks_export *e, unsigned *again, struct ks_diags *d)
{
	char *f[NFIELDS + 1];
	size_t nf = 0;
	const char *why;
	int field;

	for (char *p = l; nf <= NFIELDS; p++) {
		f[nf++] = p;
		p = strchr(p, '\t');
		if (!p)
			break;
		*p = '\0';
	}
	why = bad_fields(f, nf, &field);
	if (why)
		return bad_line(d, file, line, f, nf, why, field);
	*e = (struct ks_export){ .symbol = f[1], .module = f[2], .type = f[3],
				 .ns = nf == NFIELDS ? f[4] : "", .line = line, .file = file,
				 .gpl = strcmp(f[3], "EXPORT_SYMBOL_GPL") == 0 };
	return add_export(sv, e, again);
}

/* A symbol exported twice in one file is said once per file, with how
 * many more: the file is wrong, but the first export counts, as in
 * modpost. */
static void say_twice(struct ks_diags *d, const char *file, unsigned line, const char *sym,
		      unsigned first, size_t more)
{
	if (more)
		ks_diag_add(d, KS_WARNING, file, line, 0,
			    "'%s' exported again (first at line %u); so %s %zu more symbol%s; the "
			    "first export counts",
			    sym, first, more == 1 ? "is" : "are", more, more == 1 ? "" : "s");
	else
		ks_diag_add(d, KS_WARNING, file, line, 0,
			    "'%s' exported again (first at line %u); the first export counts", sym,
			    first);
}

int ks_symvers_parse(struct ks_symvers *sv, const char *name, char *text, size_t len,
		     struct ks_diags *d)
{
	char *end = text + len, *l = text;
	struct ks_export *block;
	size_t lines = 1, used = 0;
	unsigned line = 0;
	int ret = 0;

	for (const char *p = text; (p = memchr(p, '\n', (size_t)(end - p))); p++)
		lines++;
	reserve(sv, lines, &block);
	unsigned twice_line = 0, twice_first = 0;
	const char *twice = NULL;
	size_t more = 0;

	while (l < end) {
		char *nl = memchr(l, '\n', (size_t)(end - l)), *le = nl ? nl : end;
		unsigned again = 0;
		int r;

		if (nl)
			*nl = '\0';
		if (le > l && le[-1] == '\r')	/* a file written on Windows */
			*--le = '\0';
		line++;
		if (strlen(l) != (size_t)(le - l)) {
			ks_diag_add(d, KS_ERROR, name, line, 0, "NUL byte in line");
			r = -EINVAL;
		} else {
			r = *l ? parse_line(sv, name, l, line, &block[used], &again, d) : 0;
		}
		used += r == 0 && *l;	/* a block entry is kept only if indexed */
		if (r < 0)
			ret = r;
		if (r == 1 && again && !twice) {
			twice = block[used].symbol, twice_line = line, twice_first = again;
		} else if (r == 1 && again) {
			more++;
		}
		l = nl ? nl + 1 : end;
	}
	if (twice)
		say_twice(d, name, twice_line, twice, twice_first, more);
	return ret;
}

static void keep(char ***v, size_t n, char *p)
{
	ks_array_grow((void **)v, n, 1, sizeof(**v));
	(*v)[n] = p;
}

int ks_symvers_load(struct ks_symvers *sv, const char *path, struct ks_diags *d)
{
	struct ks_buf b = KS_BUF_INIT;
	int r = ks_buf_read_file(&b, path);

	if (r < 0) {
		ks_buf_free(&b);
		ks_diag_add(d, KS_ERROR, path, 0, 0, "cannot read Module.symvers: %s",
			    strerror(-r));
		return r;
	}
	ks_buf_add(&b, "", 0);
	keep(&sv->files, sv->nfiles, ks_xstrdup(path));
	keep(&sv->texts, sv->nfiles, b.p);
	sv->nfiles++;
	return ks_symvers_parse(sv, sv->files[sv->nfiles - 1], b.p, b.len, d);
}

const struct ks_export *ks_symvers_lookup(const struct ks_symvers *sv, const char *sym)
{
	return ks_strmap_get(&sv->bysym, sym);
}

void ks_symvers_free(struct ks_symvers *sv)
{
	for (size_t i = 0; i < sv->nblocks; i++)
		free(sv->blocks[i]);
	free(sv->blocks);
	free(sv->v);
	for (size_t i = 0; i < sv->nfiles; i++) {
		free(sv->texts[i]);
		free(sv->files[i]);
	}
	free(sv->texts);
	free(sv->files);
	ks_strmap_free(&sv->bysym);
	memset(sv, 0, sizeof(*sv));
}
