/* Baseline files: a header line, then one TAB-separated entry per line:
 * MODULE-NAME, SYMBOL, FILE, FUNCTION (FILE and FUNCTION empty for a use
 * with no source location) and STATUS, the use's status when the baseline
 * was written: "scheduled" or "due-soon", as only those rules let a
 * baseline accept their findings. Version 1 files have no STATUS: their
 * entries accept scheduled uses only.
 * Keys change only with the source: FILE is relative to --source-root, or
 * by default to the module's folder (Kbuild's M=), when it lies below it,
 * else as recorded; FUNCTION is the name as written, without the suffix
 * of a clone GCC made. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/baseline.h"
#include "alloc.h"
#include "array.h"
#include "buf.h"
#include "file.h"
#include "module/use.h"
#include "path.h"

#define HEADER "# ksunset baseline 2"
#define HEADER_V1 "# ksunset baseline 1"
#define NFIELDS 5 /* MODULE SYMBOL FILE FUNCTION STATUS */

/* Where the baseline being read is. */
struct loading {
	struct ks_baseline *b;
	const char *path;
	unsigned line;
	int version; /* 0 until the header is read */
	struct ks_diags *d;
};

/* The folder that file names in keys are relative to: --source-root, else
 * the module's, as given and resolved (a recorded name may be either). */
struct key_root {
	char *given, *real;
};

static void root_init(struct key_root *kr, const char *source_root, const char *module)
{
	const char *slash = strrchr(module, '/');

	if (source_root)
		kr->given = ks_xstrdup(source_root);
	else
		kr->given = slash ? ks_xstrndup(module, (size_t)(slash - module)) : ks_xstrdup(".");
	kr->real = realpath(kr->given, NULL);
	if (!kr->real && errno == ENOMEM)
		ks_nomem();
}

static void root_free(struct key_root *kr)
{
	free(kr->given);
	free(kr->real);
}

static const char *key_file(const char *file, const struct key_root *kr)
{
	const char *rel = ks_path_under(file, kr->given);

	if (!rel && kr->real)
		rel = ks_path_under(file, kr->real);
	return rel ? rel : file;
}

static char *join_key(const char *module, const char *sym, const char *file, const char *fn)
{
	return ks_strdupf("%s\t%s\t%s\t%.*s", module, sym, file, (int)ks_function_name_len(fn), fn);
}

static char *make_key(const struct ks_finding *f, const struct ks_loc *l,
		      const struct key_root *kr)
{
	return join_key(f->module_name, f->symbol, l ? key_file(l->file, kr) : "",
			l ? l->function : "");
}

/* The status named s, if a baseline may accept findings in it. */
static const char *accepted_status(const char *s)
{
	for (size_t i = 0; i < ks_nrules; i++)
		if (ks_rules[i].baseline_accepts && !strcmp(ks_rules[i].status, s))
			return ks_rules[i].status;
	return NULL;
}

/* The module named name, made on its first entry. */
static struct ks_baseline_module *module_of(struct ks_baseline *b, const char *name)
{
	struct ks_baseline_module *m = ks_strmap_get(&b->modules, name);
	void **slot;

	if (m)
		return m;
	m = ks_xcalloc(1, sizeof(*m));
	m->name = ks_xstrdup(name);
	ks_strmap_put(&b->modules, m->name, &slot);
	*slot = m;
	return m;
}

/* The entry of field[]; a repeated key is said and ignored. */
static void add_entry(struct loading *ld, char **field, const char *status)
{
	struct ks_baseline *b = ld->b;
	struct ks_baseline_module *m = module_of(b, field[0]);
	struct ks_baseline_entry *e;
	char *key;
	void **slot;

	key = join_key(field[0], field[1], field[2], field[3]);
	e = ks_xcalloc(1, sizeof(*e));
	ks_array_grow((void **)&b->v, b->n, 1, sizeof(*b->v));
	*e = (struct ks_baseline_entry){ .key = key, .status = status, .line = ld->line,
					 .module = m };
	if (ks_strmap_put(&b->keys, key, &slot)) {
		*slot = b->v[b->n++] = e;
		return;
	}
	ks_diag_add(ld->d, KS_WARNING, ld->path, ld->line, 0,
		    "duplicate baseline entry ignored (first on line %u)",
		    ((struct ks_baseline_entry *)*slot)->line);
	free(key);
	free(e);
}

/* Cuts text at its TABs into field[]: how many fields there are, and
 * NFIELDS + 1 if there are more than NFIELDS. */
static size_t split(char *text, char **field)
{
	size_t n = 0;

	while (n < NFIELDS) {
		field[n++] = text;
		if (!(text = strchr(text, '\t')))
			return n;
		*text++ = '\0';
	}
	return NFIELDS + 1;
}

/* One entry: NFIELDS fields (no STATUS in version 1) separated by TABs. */
static int parse_entry(struct loading *ld, char *text)
{
	static const char *const layout[] = {
		[1] = "MODULE, SYMBOL, FILE and FUNCTION",
		[2] = "MODULE, SYMBOL, FILE, FUNCTION and STATUS",
	};
	size_t want = ld->version == 1 ? NFIELDS - 1 : NFIELDS;
	char *copy = ks_xstrdup(text), *field[NFIELDS];
	const char *status = "scheduled";
	int r = -EINVAL;

	if (split(copy, field) != want) {
		ks_diag_add(ld->d, KS_ERROR, ld->path, ld->line, 0,
			    "bad baseline entry: expected %s separated by TABs: '%s'",
			    layout[ld->version], text);
	} else if (want == NFIELDS && !(status = accepted_status(field[NFIELDS - 1]))) {
		ks_diag_add(ld->d, KS_ERROR, ld->path, ld->line, 0,
			    "bad status '%s': a baseline accepts scheduled and due-soon uses",
			    field[NFIELDS - 1]);
	} else {
		add_entry(ld, field, status);
		r = 0;
	}
	free(copy);
	return r;
}

static int parse_line(struct loading *ld, char *text)
{
	if (ld->line == 1) {
		ld->version = !strcmp(text, HEADER) ? 2 : !strcmp(text, HEADER_V1) ? 1 : 0;
		if (ld->version)
			return 0;
		ks_diag_add(ld->d, KS_ERROR, ld->path, 1, 0,
			    "not a ksunset baseline (expected '%s'): '%s'", HEADER, text);
		return -EINVAL;
	}
	if (text[0] == '#' || !text[0])
		return 0;
	return parse_entry(ld, text);
}

int ks_baseline_load(struct ks_baseline *b, const char *path, struct ks_diags *d)
{
	struct loading ld = { .b = b, .path = path, .d = d };
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int r = 0;

	b->path = path;
	if (!f) {
		r = -errno;
		ks_diag_add(d, KS_ERROR, path, 0, 0, "cannot read baseline: %s", strerror(-r));
		return r;
	}
	while ((n = getline(&line, &cap, f)) >= 0) {
		int e;

		ld.line++;
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		e = parse_line(&ld, line);
		if (e < 0 && !r)
			r = e;
		/* every bad entry is said, but not every line of another file */
		if (!ld.version)
			break;
	}
	free(line);
	fclose(f);
	if (!ld.line) {
		ks_diag_add(d, KS_ERROR, path, 0, 0,
			    "empty file, not a ksunset baseline (expected '%s')", HEADER);
		r = -EINVAL;
	}
	return r;
}

/* Whether the baseline accepts use l of f (l NULL: f has none): an entry
 * has its key (it matches, whatever the status) and f's status, and f's
 * rule lets a baseline accept it. */
static bool accepted(struct ks_baseline *b, const struct ks_finding *f, const struct ks_loc *l,
		     const struct key_root *kr)
{
	char *key = make_key(f, l, kr);
	struct ks_baseline_entry *e = ks_strmap_get(&b->keys, key);

	free(key);
	if (!e)
		return false;
	e->matched = true;
	return f->rule->baseline_accepts && !strcmp(e->status, f->rule->status);
}

/* Marks f's accepted uses. */
static void apply_one(struct ks_baseline *b, struct ks_finding *f)
{
	struct key_root kr = { 0 };
	size_t kept = 0;

	root_init(&kr, b->source_root, f->module);
	if (!f->nlocs)
		f->baselined = accepted(b, f, NULL, &kr);
	for (size_t i = 0; i < f->nlocs; i++) {
		f->locs[i].baselined = accepted(b, f, &f->locs[i], &kr);
		kept += !f->locs[i].baselined;
	}
	if (f->nlocs)
		f->baselined = kept == 0;
	root_free(&kr);
}

void ks_baseline_apply(struct ks_baseline *b, const char *module, struct ks_findings *f)
{
	struct ks_baseline_module *m = ks_strmap_get(&b->modules, module);

	if (m)
		m->checked = true;
	for (size_t i = 0; i < f->n; i++)
		apply_one(b, &f->v[i]);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void keys_push(struct ks_baseline_keys *k, char *line)
{
	ks_array_room((void **)&k->v, &k->cap, k->n + 1, sizeof(*k->v));
	k->v[k->n++] = line;
}

/* The entry of each use of f: its key and its status. A use accepted in
 * the source needs none, and must fail again if its accept goes. */
static void keys_add_finding(struct ks_baseline_keys *k, const struct ks_finding *f)
{
	struct key_root kr = { 0 };

	root_init(&kr, k->source_root, f->module);
	for (size_t j = 0; j < (f->nlocs ? f->nlocs : 1); j++) {
		char *key;

		if (f->nlocs && ks_loc_accepted_in_source(f, &f->locs[j]))
			continue;
		key = make_key(f, f->nlocs ? &f->locs[j] : NULL, &kr);
		keys_push(k, ks_strdupf("%s\t%s", key, f->rule->status));
		free(key);
	}
	root_free(&kr);
}

void ks_baseline_keys_add(struct ks_baseline_keys *k, const struct ks_findings *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		if (fs->v[i].rule->baseline_accepts)
			keys_add_finding(k, &fs->v[i]);
}

int ks_baseline_keys_write(struct ks_baseline_keys *k, const char *path, struct ks_diags *d)
{
	struct ks_buf b = KS_BUF_INIT;
	int r;

	ks_buf_adds(&b, HEADER "\n");
	if (k->n)
		qsort(k->v, k->n, sizeof(*k->v), cmp_str);
	for (size_t i = 0; i < k->n; i++)
		if (!i || strcmp(k->v[i], k->v[i - 1]))
			ks_buf_addf(&b, "%s\n", k->v[i]);
	r = ks_file_replace(path, b.p, b.len, d);
	ks_buf_free(&b);
	return r;
}

void ks_baseline_keys_free(struct ks_baseline_keys *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->v[i]);
	free(k->v);
	memset(k, 0, sizeof(*k));
}

int ks_baseline_write(const char *path, const char *source_root, const struct ks_findings *fs,
		      struct ks_diags *d)
{
	struct ks_baseline_keys k = { .source_root = source_root };
	int r;

	ks_baseline_keys_add(&k, fs);
	r = ks_baseline_keys_write(&k, path, d);
	ks_baseline_keys_free(&k);
	return r;
}

static bool stale(const struct ks_baseline_entry *e)
{
	return e->module->checked && !e->matched;
}

/* "MODULE SYMBOL FILE FUNCTION" of a key, its empty fields left out. */
static char *describe(const char *key)
{
	struct ks_buf b = KS_BUF_INIT;

	for (const char *p = key; *p; p += *p == '\t') {
		size_t n = strcspn(p, "\t");

		if (n)
			ks_buf_addf(&b, "%s%.*s", b.len ? " " : "", (int)n, p);
		p += n;
	}
	return ks_buf_steal(&b);
}

void ks_baseline_report_stale(const struct ks_baseline *b, struct ks_diags *d)
{
	for (size_t i = 0; i < b->n; i++) {
		char *what;

		if (!stale(b->v[i]))
			continue;
		what = describe(b->v[i]->key);
		ks_diag_add(d, KS_NOTE, b->path, b->v[i]->line, 0,
			    "baseline entry no longer matches a use: %s", what);
		free(what);
	}
}

int ks_baseline_prune(const struct ks_baseline *b, struct ks_diags *d)
{
	struct ks_baseline_keys k = { 0 };
	int r;

	for (size_t i = 0; i < b->n; i++)
		if (!stale(b->v[i]))
			keys_push(&k, ks_strdupf("%s\t%s", b->v[i]->key, b->v[i]->status));
	r = ks_baseline_keys_write(&k, b->path, d);
	ks_baseline_keys_free(&k);
	return r;
}

void ks_baseline_free(struct ks_baseline *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free(b->v[i]->key);
		free(b->v[i]);
	}
	for (size_t i = 0; i < b->modules.cap; i++) {
		struct ks_baseline_module *m = b->modules.slots[i].val;

		if (b->modules.slots[i].key && m) {
			free(m->name);
			free(m);
		}
	}
	free(b->v);
	ks_strmap_free(&b->modules);
	ks_strmap_free(&b->keys);
	memset(b, 0, sizeof(*b));
}
