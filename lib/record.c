/* Encoding and decoding of plugin records (include/ksunset/record.h). The
 * plugin and the checker both use this file, so the format has one home. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ksunset/record.h>

#include "buf.h"
#include "compiler.h"

#define MAX_FIELDS 11

static const char *const kind_names[] = {
	[KS_USE_CALL] = "call",
	[KS_USE_ADDR] = "addr",
	[KS_USE_DATA] = "data",
};

static const char *const what_names[] = {
#define KS_X(id, name) [KS_SHAPE_##id] = name,
	KS_SHAPE_LIST(KS_X)
#undef KS_X
};
_Static_assert(KS_ARRAY_SIZE(what_names) == KS_SHAPE_NWHAT, "a name per shape");

static const char *const status_names[] = {
#define KS_X(id, name) [KS_FACT_##id] = name,
	KS_FACT_LIST(KS_X)
#undef KS_X
};
_Static_assert(KS_ARRAY_SIZE(status_names) == KS_FACT_NSTATUS, "a name per fact");

const char *ks_use_kind_name(enum ks_use_kind k)
{
	return (unsigned)k < 3 ? kind_names[k] : "call";
}

const char *ks_shape_what_name(enum ks_shape_what w)
{
	return (unsigned)w < KS_SHAPE_NWHAT ? what_names[w] : "?";
}

const char *ks_fact_status_name(enum ks_fact_status s)
{
	return (unsigned)s < KS_FACT_NSTATUS ? status_names[s] : "?";
}

size_t ks_function_name_len(const char *fn)
{
	return strcspn(fn, ".");
}

static void add_escaped(struct ks_buf *b, const char *s)
{
	ks_buf_addc(b, '\t');
	while (*s) {
		size_t n = strcspn(s, "\t\n\\");	/* a plain run at once */

		if (n)
			ks_buf_add(b, s, n);
		s += n;
		if (!*s)
			break;
		ks_buf_adds(b, *s == '\t' ? "\\t" : *s == '\n' ? "\\n" : "\\\\");
		s++;
	}
}

/* "\tN": a number field, written without printf (the plugin writes
 * thousands of records a unit). */
static void add_uint(struct ks_buf *b, unsigned v)
{
	char d[12];
	size_t n = sizeof(d);

	do
		d[--n] = (char)('0' + v % 10);
	while ((v /= 10) && n > 1);
	d[--n] = '\t';
	ks_buf_add(b, d + n, sizeof(d) - n);
}

static void add_head(struct ks_buf *b, int version, const char *type)
{
	ks_buf_adds(b, KS_NOTE_NAME " ");
	ks_buf_addc(b, (char)('0' + version));
	ks_buf_addc(b, '\t');
	ks_buf_adds(b, type);
}

void ks_record_encode_unit(struct ks_buf *out, const char *source, const char *digest,
			   const char *gcc_version)
{
	add_head(out, 1, "unit");
	add_escaped(out, source);
	add_escaped(out, digest);
	add_escaped(out, gcc_version);
	ks_buf_add(out, "", 1);
}

/* SYMBOL KIND FILE LINE COLUMN FUNCTION: what use and api records share */
static void add_place(struct ks_buf *out, const struct ks_record_use *u)
{
	add_escaped(out, u->symbol);
	add_escaped(out, ks_use_kind_name(u->kind));
	add_escaped(out, u->file);
	add_uint(out, u->line);
	add_uint(out, u->col);
	add_escaped(out, u->function ? u->function : "");
}

void ks_record_encode_use(struct ks_buf *out, const struct ks_record_use *u)
{
	add_head(out, u->accept_reason ? 2 : 1, "use");
	add_place(out, u);
	add_escaped(out, u->when);
	if (u->accept_reason)
		add_escaped(out, u->accept_reason);
	ks_buf_add(out, "", 1);
}

void ks_record_encode_api(struct ks_buf *out, const struct ks_record_use *u)
{
	add_head(out, 3, "api");
	add_place(out, u);
	ks_buf_add(out, "", 1);
}

void ks_record_encode_include(struct ks_buf *out, const struct ks_record_include *inc)
{
	add_head(out, 4, "include");
	add_escaped(out, inc->header);
	add_escaped(out, inc->file);
	add_uint(out, inc->line);
	ks_buf_add(out, "", 1);
}

void ks_record_encode_guard(struct ks_buf *out, const struct ks_record_guard *g)
{
	add_head(out, 4, "guard");
	add_escaped(out, g->file);
	add_uint(out, g->first);
	add_uint(out, g->last);
	ks_buf_adds(out, g->own ? "\town" : "\tkernel");
	add_escaped(out, g->cond);
	ks_buf_add(out, "", 1);
}

void ks_record_encode_shaped(struct ks_buf *out)
{
	add_head(out, 5, "shaped");
	ks_buf_add(out, "", 1);
}

/* The version a shape record of kind w needs: that of the kinds added. */
static int shape_version(enum ks_shape_what w)
{
	return w >= KS_SHAPE_DECLARED ? 7 : w >= KS_SHAPE_STATIC ? 6 : w >= KS_SHAPE_ENUM ? 5 : 4;
}

void ks_record_encode_shape(struct ks_buf *out, const struct ks_record_shape *sh)
{
	bool args = sh->arglines && *sh->arglines;

	add_head(out, args ? 5 : shape_version(sh->what), "shape");
	add_escaped(out, ks_shape_what_name(sh->what));
	add_escaped(out, sh->name);
	add_escaped(out, sh->file);
	add_uint(out, sh->line);
	add_uint(out, sh->col);
	add_escaped(out, sh->function ? sh->function : "");
	add_escaped(out, sh->old ? sh->old : "");
	add_escaped(out, sh->probe ? sh->probe : "");
	if (args)
		add_escaped(out, sh->arglines);
	ks_buf_add(out, "", 1);
}

/* The version a fact record of status st needs: 5 for those added then. */
static int fact_version(enum ks_fact_status st)
{
	return st >= KS_FACT_FILE ? 5 : 4;
}

void ks_record_encode_fact(struct ks_buf *out, const struct ks_record_fact *f)
{
	add_head(out, fact_version(f->status), "fact");
	add_uint(out, f->item);
	add_escaped(out, ks_fact_status_name(f->status));
	add_escaped(out, f->shape ? f->shape : "");
	add_escaped(out, f->file ? f->file : "");
	add_escaped(out, f->extra ? f->extra : "");
	ks_buf_add(out, "", 1);
}

void ks_record_encode_error(struct ks_buf *out, const struct ks_record_error *e)
{
	add_head(out, 4, "error");
	add_uint(out, e->line);
	add_uint(out, e->col);
	add_escaped(out, e->message);
	ks_buf_add(out, "", 1);
}

/* Splits p[0..n) at TABs into fresh unescaped strings. */
static int split(const char *p, size_t n, char **f, size_t *nf, const char **why)
{
	struct ks_buf b = KS_BUF_INIT;
	int r = 0;

	*nf = 0;
	for (size_t i = 0; i <= n && !r; i++) {
		if (i == n || p[i] == '\t') {
			if (*nf == MAX_FIELDS) {
				*why = "too many fields";
				r = -EINVAL;
				break;
			}
			f[(*nf)++] = ks_buf_steal(&b);
			continue;
		}
		if (p[i] == '\0' || p[i] == '\n') {
			*why = p[i] ? "newline inside a record" : "NUL inside a record";
			r = -EINVAL;
		} else if (p[i] != '\\') {
			ks_buf_addc(&b, p[i]);
		} else if (i + 1 < n && strchr("tn\\", p[i + 1])) {
			i++;
			ks_buf_addc(&b, p[i] == 't' ? '\t' : p[i] == 'n' ? '\n' : '\\');
		} else {
			*why = "bad escape sequence";
			r = -EINVAL;
		}
	}
	ks_buf_free(&b);
	return r;
}

static int parse_uint(const char *s, unsigned *v)
{
	unsigned long x;
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	x = strtoul(s, &end, 10);
	if (errno || *end || x > 0xffffffffUL)
		return -EINVAL;
	*v = (unsigned)x;
	return 0;
}

static int parse_kind(const char *s, enum ks_use_kind *k)
{
	for (unsigned i = 0; i < 3; i++) {
		if (strcmp(s, kind_names[i]) == 0) {
			*k = (enum ks_use_kind)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* "ksunset N": 0 with *version set if N is one we read, 1 if newer,
 * -EINVAL otherwise. */
static int parse_head(const char *h, unsigned *version, const char **why)
{
	if (strncmp(h, KS_NOTE_NAME " ", sizeof(KS_NOTE_NAME)) != 0 ||
	    parse_uint(h + sizeof(KS_NOTE_NAME), version) < 0 || *version == 0) {
		*why = "record does not start with 'ksunset VERSION'";
		return -EINVAL;
	}
	return *version > KS_RECORD_VERSION;
}

/* Fields 2 to 7, SYMBOL KIND FILE LINE COLUMN FUNCTION, into rec->use. */
static int fill_place(struct ks_record *rec, enum ks_record_type type, char **f,
		      const char **why)
{
	struct ks_record_use *u = &rec->use;

	*why = !f[2][0]				    ? "empty symbol"
	       : parse_kind(f[3], &u->kind) < 0	    ? "bad kind (expected call, addr or data)"
	       : !f[4][0]			    ? "empty file name"
	       : parse_uint(f[5], &u->line) < 0 ? "bad line number"
	       : parse_uint(f[6], &u->col) < 0  ? "bad column number"
						    : NULL;
	if (*why)
		return -EINVAL;
	rec->type = type;
	u->symbol = f[2], u->file = f[4], u->function = f[7];
	f[2] = f[4] = f[7] = NULL;
	return 0;
}

/* Version 1 has 9 fields; version 2 adds the reason of an accepted use,
 * which is never empty. Version 3 has no use record of its own. */
static int fill_use(struct ks_record *rec, unsigned version, char **f, size_t nf, const char **why)
{
	struct ks_record_use *u = &rec->use;

	if (version > 2) {
		*why = "use record of version 3 or later (use records are version 1 or 2)";
		return -EINVAL;
	}
	if (nf != 8 + version) {
		*why = version == 1 ? "use record needs 9 fields" : "use record needs 10 fields";
		return -EINVAL;
	}
	if (version == 2 && !f[9][0]) {
		*why = "empty accept reason";
		return -EINVAL;
	}
	if (fill_place(rec, KS_REC_USE, f, why) < 0)
		return -EINVAL;
	u->when = f[8];
	f[8] = NULL;
	if (version == 2) {
		u->accept_reason = f[9];
		f[9] = NULL;
	}
	return 0;
}

/* Version 3 and later: 8 fields, no date. */
static int fill_api(struct ks_record *rec, unsigned version, char **f, size_t nf,
		    const char **why)
{
	if (version < 3) {
		*why = "api record of version 1 or 2 (api records are version 3)";
		return -EINVAL;
	}
	if (nf != 8) {
		*why = "api record needs 8 fields";
		return -EINVAL;
	}
	return fill_place(rec, KS_REC_API, f, why);
}

/* The index of s in names[n]; -EINVAL if none. */
static int lookup_name(const char *s, const char *const *names, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (names[i] && strcmp(s, names[i]) == 0)
			return (int)i;
	return -EINVAL;
}

/* The first problem of a record of a version 4 type with nf fields
 * (want expected, else count says so); NULL: none. */
static const char *v4_problem(unsigned version, size_t nf, size_t want, const char *count)
{
	if (version < 4)
		return "record type of version 4 in a record of version 1 to 3";
	return nf != want ? count : NULL;
}

static int fill_include(struct ks_record *rec, unsigned version, char **f, size_t nf,
			const char **why)
{
	struct ks_record_include *inc = &rec->include;

	if ((*why = v4_problem(version, nf, 5, "include record needs 5 fields")))
		return -EINVAL;
	*why = strlen(f[2]) < 3			? "bad header name"
	       : !f[3][0]			? "empty file name"
	       : parse_uint(f[4], &inc->line) < 0 ? "bad line number"
						: NULL;
	if (*why)
		return -EINVAL;
	rec->type = KS_REC_INCLUDE;
	inc->header = f[2], inc->file = f[3];
	f[2] = f[3] = NULL;
	return 0;
}

static int fill_shape(struct ks_record *rec, unsigned version, char **f, size_t nf,
		      const char **why)
{
	struct ks_record_shape *sh = &rec->shape;
	int w;

	if ((*why = v4_problem(version, nf, version >= 5 && nf == 11 ? 11 : 10,
			       "shape record needs 10 fields (11 from version 5)")))
		return -EINVAL;
	w = lookup_name(f[2], what_names, KS_SHAPE_NWHAT);
	*why = w < 0				? "bad shape kind"
	       : (int)version < shape_version((enum ks_shape_what)w) ? "shape kind of a later version"
	       : !f[3][0]			? "empty name"
	       : !f[4][0]			? "empty file name"
	       : parse_uint(f[5], &sh->line) < 0 ? "bad line number"
	       : parse_uint(f[6], &sh->col) < 0	? "bad column number"
						: NULL;
	if (*why)
		return -EINVAL;
	rec->type = KS_REC_SHAPE;
	sh->what = (enum ks_shape_what)w;
	sh->name = f[3], sh->file = f[4], sh->function = f[7], sh->old = f[8], sh->probe = f[9];
	f[3] = f[4] = f[7] = f[8] = f[9] = NULL;
	if (nf == 11) {
		sh->arglines = f[10];
		f[10] = NULL;
	}
	return 0;
}

static int fill_guard(struct ks_record *rec, unsigned version, char **f, size_t nf,
		      const char **why)
{
	struct ks_record_guard *g = &rec->guard;

	if ((*why = v4_problem(version, nf, 7, "guard record needs 7 fields")))
		return -EINVAL;
	*why = !f[2][0]				   ? "empty file name"
	       : parse_uint(f[3], &g->first) < 0   ? "bad first line"
	       : parse_uint(f[4], &g->last) < 0	   ? "bad last line"
	       : g->last < g->first		   ? "last line before the first"
	       : strcmp(f[5], "kernel") && strcmp(f[5], "own") ? "bad guard tests (kernel or own)"
	       : !f[6][0]			   ? "empty condition"
						   : NULL;
	if (*why)
		return -EINVAL;
	rec->type = KS_REC_GUARD;
	g->own = !strcmp(f[5], "own");
	g->file = f[2], g->cond = f[6];
	f[2] = f[6] = NULL;
	return 0;
}

static int fill_fact(struct ks_record *rec, unsigned version, char **f, size_t nf,
		     const char **why)
{
	struct ks_record_fact *fa = &rec->fact;
	int st;

	if ((*why = v4_problem(version, nf, 7, "fact record needs 7 fields")))
		return -EINVAL;
	st = lookup_name(f[3], status_names, KS_FACT_NSTATUS);
	*why = parse_uint(f[2], &fa->item) < 0 ? "bad item number"
	       : st < 0			       ? "bad fact status"
	       : (int)version < fact_version((enum ks_fact_status)st) ? "fact status of a later version"
					       : NULL;
	if (*why)
		return -EINVAL;
	rec->type = KS_REC_FACT;
	fa->status = (enum ks_fact_status)st;
	fa->shape = f[4], fa->file = f[5], fa->extra = f[6];
	f[4] = f[5] = f[6] = NULL;
	return 0;
}

static int fill_error(struct ks_record *rec, unsigned version, char **f, size_t nf,
		      const char **why)
{
	struct ks_record_error *e = &rec->error;

	if ((*why = v4_problem(version, nf, 5, "error record needs 5 fields")))
		return -EINVAL;
	*why = parse_uint(f[2], &e->line) < 0  ? "bad line number"
	       : parse_uint(f[3], &e->col) < 0 ? "bad column number"
					       : NULL;
	if (*why)
		return -EINVAL;
	rec->type = KS_REC_ERROR;
	e->message = f[4];
	f[4] = NULL;
	return 0;
}

static int fill_unit(struct ks_record *rec, char **f, size_t nf, const char **why)
{
	if (nf != 5) {
		*why = "unit record needs 5 fields";
		return -EINVAL;
	}
	rec->type = KS_REC_UNIT;
	rec->unit.source = f[2], rec->unit.digest = f[3], rec->unit.gcc_version = f[4];
	f[2] = f[3] = f[4] = NULL;
	return 0;
}

static int fill_shaped(struct ks_record *rec, unsigned version, size_t nf, const char **why)
{
	*why = version < 5 ? "shaped record of version 1 to 4" : nf != 2 ? "shaped record has fields"
									: NULL;
	if (*why)
		return -EINVAL;
	rec->type = KS_REC_SHAPED;
	return 0;
}

int ks_record_decode(const char *p, size_t n, struct ks_record *rec, const char **why)
{
	char *f[MAX_FIELDS];
	size_t nf = 0;
	unsigned version = 0;
	int r;

	memset(rec, 0, sizeof(*rec));
	r = split(p, n, f, &nf, why);
	if (!r && nf < 2) {
		*why = "record has no type";
		r = -EINVAL;
	}
	if (!r)
		r = parse_head(f[0], &version, why);
	if (!r && strcmp(f[1], "use") == 0)
		r = fill_use(rec, version, f, nf, why);
	else if (!r && strcmp(f[1], "api") == 0)
		r = fill_api(rec, version, f, nf, why);
	else if (!r && strcmp(f[1], "unit") == 0)
		r = fill_unit(rec, f, nf, why);
	else if (!r && strcmp(f[1], "include") == 0)
		r = fill_include(rec, version, f, nf, why);
	else if (!r && strcmp(f[1], "shape") == 0)
		r = fill_shape(rec, version, f, nf, why);
	else if (!r && strcmp(f[1], "fact") == 0)
		r = fill_fact(rec, version, f, nf, why);
	else if (!r && strcmp(f[1], "error") == 0)
		r = fill_error(rec, version, f, nf, why);
	else if (!r && strcmp(f[1], "guard") == 0)
		r = fill_guard(rec, version, f, nf, why);
	else if (!r && strcmp(f[1], "shaped") == 0)
		r = fill_shaped(rec, version, nf, why);
	else if (!r) {
		*why = "unknown record type";
		r = -EINVAL;
	}
	for (size_t i = 0; i < nf; i++)
		free(f[i]);
	return r;
}

void ks_record_free(struct ks_record *rec)
{
	free(rec->unit.source);
	free(rec->unit.digest);
	free(rec->unit.gcc_version);
	free(rec->use.symbol);
	free(rec->use.file);
	free(rec->use.function);
	free(rec->use.when);
	free(rec->use.accept_reason);
	free(rec->include.header);
	free(rec->include.file);
	free(rec->shape.name);
	free(rec->shape.file);
	free(rec->shape.function);
	free(rec->shape.old);
	free(rec->shape.probe);
	free(rec->shape.arglines);
	free(rec->fact.shape);
	free(rec->fact.file);
	free(rec->fact.extra);
	free(rec->error.message);
	free(rec->guard.file);
	free(rec->guard.cond);
	memset(rec, 0, sizeof(*rec));
}
