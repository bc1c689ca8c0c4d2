/* SARIF 2.1.0, for code scanning: one run, the rules from the rule table,
 * one result per use, so that each use is an alert of its own (a finding
 * without a source location is one result at a logical location, its
 * module and symbol). URIs are relative to the source root (--source-root,
 * else the current directory), whose absolute URI is SRCROOT in
 * originalUriBaseIds; a file outside it gets an absolute file: URI.
 * Columns are UTF-16 code units, read from the source (report/column.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "buf.h"
#include "path.h"
#include "forecast/forecast.h"
#include "input/migrations.h"
#include "report/column.h"
#include "report/json.h"
#include "report/rewrite.h"
#include "report/writer.h"
#include "rules/target.h"

#define BASE "SRCROOT"
/* partialFingerprints key; v2: one result per use, v1 was module/symbol */
#define FINGERPRINT "ksunset/v2"

/* What the results of one finding share. */
struct sarif {
	FILE *out;
	const struct ks_finding *f;
	const char *given;	/* --source-root; NULL: none */
	char *root;		/* the source root, absolute; NULL: unknown */
	char **paths;		/* each use's file, absolute unless root is NULL */
	char *text;		/* the message */
	bool first;		/* the report's first result */
	bool targets;		/* several targets: the fingerprint names its */
	struct ks_sources *sources;	/* the report's */
};

/* Where the last segment of out[start, n) begins. */
static size_t last_segment(const char *out, size_t start, size_t n)
{
	while (n > start && out[n - 1] != '/')
		n--;
	return n;
}

static bool is_dotdot(const char *p, size_t len)
{
	return len == 2 && p[0] == '.' && p[1] == '.';
}

/* path with its "." and empty segments dropped and its ".." segments
 * applied, as RFC 3986 does a URI's dot segments (SARIF forbids them in
 * file: URIs); lexically, as the compiler's file names are given. */
static char *normalize(const char *path)
{
	size_t start = path[0] == '/', n = start, len, i;
	char *out = ks_xmalloc(strlen(path) + 2);

	out[0] = '/';
	for (const char *p = path; *p; p += len + (p[len] == '/')) {
		len = strcspn(p, "/");
		if (!len || (len == 1 && p[0] == '.'))
			continue;
		i = last_segment(out, start, n);
		if (is_dotdot(p, len) && n > start && !is_dotdot(out + i, n - i)) {
			n = i > start ? i - 1 : start;	/* up: the segment before goes */
			continue;
		}
		if (is_dotdot(p, len) && start)
			continue;			/* nothing is above "/" */
		if (n > start)
			out[n++] = '/';
		memcpy(out + n, p, len);
		n += len;
	}
	if (!n)
		out[n++] = '.';
	out[n] = '\0';
	return out;
}

/* The source root as an absolute path: given (relative to the current
 * directory), else the current directory; NULL if the current directory
 * cannot be had. */
static char *root_dir(const char *given)
{
	char *cwd = NULL, *d, *dir;

	if (!given || given[0] != '/') {
		cwd = getcwd(NULL, 0);
		if (!cwd && errno == ENOMEM)
			ks_nomem();
		if (!cwd)
			return NULL;
	}
	d = !given ? cwd : cwd ? ks_strdupf("%s/%s", cwd, given) : (char *)given;
	dir = normalize(d);
	if (d != given)
		free(d);
	if (d != cwd)
		free(cwd);
	return dir;
}

/* A use's file: relative to the root if relative (as Kbuild's file names
 * are to the tree it builds), normalized. */
static char *use_path(const struct sarif *s, const char *file)
{
	char *joined, *path;

	if (file[0] == '/' || !s->root)
		return normalize(file);
	joined = ks_strdupf("%s/%s", s->root, file);
	path = normalize(joined);
	free(joined);
	return path;
}

/* The part of path below the root, or NULL for a path outside it. */
static const char *below_root(const struct sarif *s, const char *path)
{
	if (path[0] != '/')
		return path;	/* the root is not known: relative to it */
	if (!s->root)
		return NULL;
	return strcmp(s->root, "/") ? ks_path_under(path, s->root) : path + 1;
}

/* path as a URI's path: bytes other than unreserved ones, '/' and a few
 * sub-delimiters are percent-encoded (RFC 3986). */
static void add_uri_path(struct ks_buf *b, const char *path)
{
	static const char keep[] = "-._~/!$&'()*+,;=@";

	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr(keep, *p))
			ks_buf_addc(b, (char)*p);
		else
			ks_buf_addf(b, "%%%02X", *p);
	}
}

/* prefix, path as a URI's path, suffix. */
static char *make_uri(const char *prefix, const char *path, const char *suffix)
{
	struct ks_buf b = KS_BUF_INIT;

	ks_buf_adds(&b, prefix);
	add_uri_path(&b, path);
	ks_buf_adds(&b, suffix);
	return ks_buf_steal(&b);
}

/* "artifactLocation": the URI relative to SRCROOT, or file: outside it. */
static void write_artifact(const struct sarif *s, const char *path)
{
	const char *rel = below_root(s, path);
	char *uri = rel ? make_uri("", rel, "") : make_uri("file://", path, "");

	fputs("\"artifactLocation\": {\"uri\": ", s->out);
	ks_json_str(s->out, uri);
	fputs(rel ? ", \"uriBaseId\": \"" BASE "\"}" : "}", s->out);
	free(uri);
}

/* The UTF-16 column of a use, read from its source; 0 when the source
 * cannot be read or does not have the column (it changed since). */
static void use_column(const struct ks_loc *l, const char *path, unsigned *col)
{
	if (!l->col || ks_column_in_file(path, l->line, l->col, col) < 0)
		*col = 0;
}

/* The start of a result, up to its locations. */
static void result_head(struct sarif *s)
{
	fputs(s->first ? "        {" : ",\n        {", s->out);
	s->first = false;
	fprintf(s->out, "\"ruleId\": \"%s\", \"level\": \"%s\", \"message\": {\"text\": ",
		s->f->rule->id, s->f->sev == KS_ERROR ? "error" : "warning");
	ks_json_str(s->out, s->text);
	fputs("},\n         \"locations\": [", s->out);
}

/* What in-tree code wrote instead, as the module's line rewritten at l
 * (the #include's header, the call's argument), when it is one rewrite
 * and the line still has what it rewrites: the result's "fixes", after
 * its locations. */
static void write_fix(const struct sarif *s, const struct ks_loc *l, const char *path)
{
	const struct ks_migration *e = ks_migration_at(s->f->fixes, s->f->fix, path, l->line);
	const struct ks_rewrite *rw = e ? ks_migration_rewrite(e) : NULL;
	struct ks_buf text = KS_BUF_INIT;
	struct ks_edit ed;
	const char *at = path;
	int r = rw ? ks_edit_use(e, rw, s->f, path, l->line, s->sources, &at, &ed) : -ERANGE;

	if (r < 0)
		return;
	ks_fix_words(&text, e, s->f->fixes);
	fputs(",\n         \"fixes\": [{\"description\": {\"text\": ", s->out);
	ks_json_str(s->out, text.p);
	fputs("}, \"artifactChanges\": [{", s->out);
	write_artifact(s, at);
	fprintf(s->out,
		", \"replacements\": [{\"deletedRegion\": {\"startLine\": %u, \"startColumn\": %u, "
		"\"endColumn\": %u}, \"insertedContent\": {\"text\": ",
		ed.line, ed.ucol[0], ed.ucol[1]);
	ks_json_str(s->out, ed.with);
	if (ed.local) {		/* and the local, after the body's '{' */
		char *line = ks_strdupf("\n%s", ed.local);

		fprintf(s->out,
			"}}, {\"deletedRegion\": {\"startLine\": %u, \"startColumn\": %u, "
			"\"endColumn\": %u}, \"insertedContent\": {\"text\": ",
			ed.local_line, ed.local_col[1], ed.local_col[1]);
		ks_json_str(s->out, line);
		free(line);
	}
	fputs("}}]}]}]", s->out);
	ks_edit_free(&ed);
	ks_buf_free(&text);
}

/* The fingerprint and the suppressions that end a result: the baseline's
 * (external) and KSUNSET_ACCEPT's (inSource, its reason the justification;
 * NULL: none). The fingerprint has no line, so that unrelated edits keep
 * it; the use's rank among the uses in its function tells a second use
 * there from the first. */
static void result_tail(const struct sarif *s, const char *place, bool baselined,
			const char *in_source, const struct ks_loc *l, const char *path)
{
	const char *on = s->targets && s->f->target ? s->f->target : NULL;
	char *fp = ks_strdupf("%s/%s%s%s%s%s", s->f->module_name, s->f->symbol, place ? "/" : "",
			      place ? place : "", on ? "@" : "", on ? on : "");

	fputc(']', s->out);
	if (l && s->f->fix)
		write_fix(s, l, path);
	fputs(",\n         \"partialFingerprints\": {\"" FINGERPRINT "\": ", s->out);
	ks_json_str(s->out, fp);
	fputs("},\n         \"suppressions\": [", s->out);
	if (baselined)
		fputs("{\"kind\": \"external\", \"status\": \"accepted\", "
		      "\"justification\": \"accepted by the ksunset baseline\"}",
		      s->out);
	if (in_source) {
		fputs(baselined ? ", " : "", s->out);
		fputs("{\"kind\": \"inSource\", \"status\": \"accepted\", \"justification\": ",
		      s->out);
		ks_json_str(s->out, in_source);
		fputs("}", s->out);
	}
	fputs("]}", s->out);
	free(fp);
}

/* How many uses before locs[i] share its file and function, plus one. */
static size_t use_rank(const struct sarif *s, size_t i)
{
	const struct ks_loc *l = s->f->locs;
	size_t n = 1;

	for (size_t j = 0; j < i; j++)
		n += !strcmp(s->paths[j], s->paths[i]) && !strcmp(l[j].function, l[i].function);
	return n;
}

/* One result for the use locs[i]. */
static void write_use(struct sarif *s, size_t i)
{
	const struct ks_loc *l = &s->f->locs[i];
	const char *path = s->paths[i], *rel = below_root(s, path);
	const char *in_source = ks_loc_accepted_in_source(s->f, l) ? l->accept_reason : NULL;
	unsigned col;
	char *place;

	use_column(l, path, &col);
	result_head(s);
	fputs("{\"physicalLocation\": {", s->out);
	write_artifact(s, path);
	fprintf(s->out, ", \"region\": {\"startLine\": %u", l->line);
	if (col)
		fprintf(s->out, ", \"startColumn\": %u", col);
	fputs("}}", s->out);
	if (l->function[0]) {
		fputs(", \"logicalLocations\": [{\"name\": ", s->out);
		ks_json_str(s->out, l->function);
		fputs(", \"kind\": \"function\"}]", s->out);
	}
	fputs("}", s->out);
	place = ks_strdupf("%s/%s/%zu", rel ? rel : path, l->function, use_rank(s, i));
	result_tail(s, place, l->baselined, in_source, l, path);
	free(place);
}

/* The one result of a finding without a source location: the module's
 * import of the symbol, a member of its symbol table. */
static void write_unplaced(struct sarif *s)
{
	char *fqn = ks_strdupf("%s.ko/%s", s->f->module_name, s->f->symbol);

	result_head(s);
	fputs("{\"logicalLocations\": [{\"name\": ", s->out);
	ks_json_str(s->out, s->f->symbol);
	fputs(", \"fullyQualifiedName\": ", s->out);
	ks_json_str(s->out, fqn);
	fputs(", \"kind\": \"member\"}]}", s->out);
	free(fqn);
	result_tail(s, NULL, s->f->baselined, NULL, NULL, NULL);
}

/* What the results of f share: the root, the uses' files, the message. */
static void sarif_open(struct sarif *s, const struct ks_finding *f)
{
	char *msg = ks_finding_message(f);

	s->root = root_dir(s->given);
	if (f->nlocs)
		s->paths = ks_xcalloc(f->nlocs, sizeof(*s->paths));
	for (size_t i = 0; i < f->nlocs; i++)
		s->paths[i] = use_path(s, f->locs[i].file);
	s->text = ks_strdupf("\"%s\" [%s] %s", f->symbol, f->module, msg);
	free(msg);
}

static void sarif_close(struct sarif *s)
{
	for (size_t i = 0; s->paths && i < s->f->nlocs; i++)
		free(s->paths[i]);
	free(s->paths);
	free(s->root);
	free(s->text);
}

static void sarif_finding(FILE *out, const struct ks_report *rep, const struct ks_finding *f)
{
	struct sarif s = { .out = out,
			   .f = f,
			   .given = rep->source_root,
			   .first = !rep->written,
			   .targets = rep->targets,
			   .sources = rep->sources };

	sarif_open(&s, f);
	for (size_t i = 0; i < f->nlocs; i++)
		write_use(&s, i);
	if (!f->nlocs)
		write_unplaced(&s);
	sarif_close(&s);
}

/* The rule of an unknown outlook: not a finding's, so not a row of
 * ks_rules[]. */
#define UNKNOWN_RULE "ksunset/outlook-unknown"

/* check --target: an outlook that is unknown is a result of its own, at
 * the module (a warning; an error with --strict). */
static void sarif_outlook(FILE *out, struct ks_report *rep, const struct ks_outlook *o,
			  const char *state, const char *words)
{
	const char *sev = ks_outlook_severity(rep, state);
	struct sarif s = { .out = out, .given = rep->source_root };
	char *text, *fp;

	if (!sev)
		return;
	text = ks_strdupf("%s on %s: %s", o->module, o->release ? o->release : "the target", words);
	fp = rep->targets && o->release ? ks_strdupf("%s/" UNKNOWN_RULE "@%s", o->module, o->release)
					: ks_strdupf("%s/" UNKNOWN_RULE, o->module);
	s.root = root_dir(s.given);
	fprintf(out, "%s        {\"ruleId\": \"" UNKNOWN_RULE "\", \"level\": \"%s\", "
		     "\"message\": {\"text\": ",
		rep->written ? ",\n" : "", sev);
	ks_json_str(out, text);
	fputs("},\n         \"locations\": [{\"physicalLocation\": {", out);
	write_artifact(&s, o->module);
	fputs("}}],\n         \"partialFingerprints\": {\"" FINGERPRINT "\": ", out);
	ks_json_str(out, fp);
	fputs("}}", out);
	rep->written++;
	free(s.root);
	free(text);
	free(fp);
}

/* originalUriBaseIds: SRCROOT's absolute URI, when the root is known. */
static void write_base(FILE *out, const struct ks_report *rep)
{
	char *root = root_dir(rep->source_root), *uri;

	if (!root)
		return;
	uri = make_uri("file://", root, strcmp(root, "/") ? "/" : "");
	free(root);
	fputs("    \"originalUriBaseIds\": {\"" BASE "\": {\"uri\": ", out);
	ks_json_str(out, uri);
	fputs("}},\n", out);
	free(uri);
}

static void sarif_begin(FILE *out, const struct ks_report *rep)
{
	fputs("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
	      "  \"version\": \"2.1.0\",\n  \"runs\": [{\n"
	      "    \"tool\": {\"driver\": {\"name\": \"ksunset\", \"version\": \"" KS_VERSION "\",\n"
	      "      \"rules\": [",
	      out);
	for (size_t i = 0; i < ks_nrules; i++) {
		fprintf(out, "%s\n        {\"id\": \"%s\", \"shortDescription\": {\"text\": ",
			i ? "," : "", ks_rules[i].id);
		ks_json_str(out, ks_rules[i].sarif_text);
		if (ks_rules[i].sarif_full) {
			fputs("}, \"fullDescription\": {\"text\": ", out);
			ks_json_str(out, ks_rules[i].sarif_full);
		}
		fputs("}}", out);
	}
	fputs(",\n        {\"id\": \"" UNKNOWN_RULE "\", \"shortDescription\": {\"text\": "
	      "\"Whether the module builds on the target kernel is unknown.\"}}",
	      out);
	fputs("]}},\n    \"columnKind\": \"utf16CodeUnits\",\n", out);
	write_base(out, rep);
	fputs("    \"results\": [\n", out);
}

static void sarif_end(FILE *out, const struct ks_report *rep)
{
	(void)rep;
	fputs("\n    ]\n  }]\n}\n", out);
}

const struct ks_report_writer ks_sarif_writer = {
	.name = "sarif",
	.baselined = true,
	.begin = sarif_begin,
	.finding = sarif_finding,
	.outlook = sarif_outlook,
	.end = sarif_end,
};
