/* Encoding and decoding of plugin records (include/ksunset/record.h). The
 * plugin and the checker both use this file, so the format has one home. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ksunset/record.h>

#include "buf.h"

#define MAX_FIELDS 10

static const char *const kind_names[] = {
	[KS_USE_CALL] = "call",
	[KS_USE_ADDR] = "addr",
	[KS_USE_DATA] = "data",
};

const char *ks_use_kind_name(enum ks_use_kind k)
{
	return (unsigned)k < 3 ? kind_names[k] : "call";
}

size_t ks_function_name_len(const char *fn)
{
	return strcspn(fn, ".");
}

static int add_escaped(struct ks_buf *b, const char *s)
{
	int r = ks_buf_addc(b, '\t');

	for (; !r && *s; s++) {
		if (*s == '\t')
			r = ks_buf_adds(b, "\\t");
		else if (*s == '\n')
			r = ks_buf_adds(b, "\\n");
		else if (*s == '\\')
			r = ks_buf_adds(b, "\\\\");
		else
			r = ks_buf_addc(b, *s);
	}
	return r;
}

static int add_head(struct ks_buf *b, int version, const char *type)
{
	return ks_buf_addf(b, "%s %d\t%s", KS_NOTE_NAME, version, type);
}

int ks_record_encode_unit(struct ks_buf *out, const char *source, const char *digest,
			  const char *gcc_version)
{
	int r = add_head(out, 1, "unit");

	r = r ? r : add_escaped(out, source);
	r = r ? r : add_escaped(out, digest);
	r = r ? r : add_escaped(out, gcc_version);
	return r ? r : ks_buf_add(out, "", 1);
}

/* SYMBOL KIND FILE LINE COLUMN FUNCTION: what use and api records share */
static int add_place(struct ks_buf *out, const struct ks_record_use *u)
{
	int r = add_escaped(out, u->symbol);

	r = r ? r : add_escaped(out, ks_use_kind_name(u->kind));
	r = r ? r : add_escaped(out, u->file);
	r = r ? r : ks_buf_addf(out, "\t%u\t%u", u->line, u->col);
	return r ? r : add_escaped(out, u->function ? u->function : "");
}

int ks_record_encode_use(struct ks_buf *out, const struct ks_record_use *u)
{
	int r = add_head(out, u->accept_reason ? 2 : 1, "use");

	r = r ? r : add_place(out, u);
	r = r ? r : add_escaped(out, u->when);
	if (u->accept_reason)
		r = r ? r : add_escaped(out, u->accept_reason);
	return r ? r : ks_buf_add(out, "", 1);
}

int ks_record_encode_api(struct ks_buf *out, const struct ks_record_use *u)
{
	int r = add_head(out, 3, "api");

	r = r ? r : add_place(out, u);
	return r ? r : ks_buf_add(out, "", 1);
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
			if (!f[*nf - 1])
				r = -ENOMEM;
			continue;
		}
		if (p[i] == '\0' || p[i] == '\n') {
			*why = p[i] ? "newline inside a record" : "NUL inside a record";
			r = -EINVAL;
		} else if (p[i] != '\\') {
			r = ks_buf_addc(&b, p[i]);
		} else if (i + 1 < n && strchr("tn\\", p[i + 1])) {
			i++;
			r = ks_buf_addc(&b, p[i] == 't' ? '\t' : p[i] == 'n' ? '\n' : '\\');
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
		*why = "use record of version 3 (use records are version 1 or 2)";
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
	memset(rec, 0, sizeof(*rec));
}
