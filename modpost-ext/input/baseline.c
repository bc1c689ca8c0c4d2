/* Baseline files: a header line, then one TAB-separated key per line:
 * MODULE-NAME, SYMBOL, FILE, FUNCTION (FILE and FUNCTION empty for a use
 * with no source location). FILE is relative to --source-root when it lies
 * below it, else the file's base name, so moving the build tree does not
 * invalidate the baseline. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/baseline.h"
#include "buf.h"
#include "report/report.h"

#define HEADER "# ksunset baseline 1"

static const char *key_file(const char *file, const char *root)
{
	const char *rel = ks_path_under(file, root), *slash = strrchr(file, '/');

	return rel ? rel : slash ? slash + 1 : file;
}

static char *make_key(const struct ks_finding *f, const struct ks_loc *l, const char *root)
{
	return ks_strdupf("%s\t%s\t%s\t%s", f->module_name, f->symbol,
			  l ? key_file(l->file, root) : "", l ? l->function : "");
}

int ks_baseline_load(struct ks_baseline *b, const char *path, struct ks_diags *d)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned lineno = 0;
	int r = 0;

	if (!f) {
		r = -errno;
		return ks_diag_add(d, KS_ERROR, path, 0, 0, "cannot read baseline: %s",
				   strerror(-r)) < 0 ? -ENOMEM : r;
	}
	while (!r && (n = getline(&line, &cap, f)) >= 0) {
		void **slot;
		char **v;

		lineno++;
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		if (lineno == 1 && strcmp(line, HEADER) != 0) {
			r = ks_diag_add(d, KS_ERROR, path, 1, 0,
					"not a ksunset baseline (expected '%s')", HEADER);
			r = r < 0 ? r : -EINVAL;
			break;
		}
		if (line[0] == '#' || !line[0])
			continue;
		v = realloc(b->lines, (b->n + 1) * sizeof(*v));
		if (!v || !(v[b->n] = strdup(line))) {
			if (v)
				b->lines = v;
			r = -ENOMEM;
			break;
		}
		b->lines = v;
		r = ks_strmap_put(&b->keys, b->lines[b->n], &slot);
		if (r >= 0)
			*slot = b->lines[b->n];
		b->n++;
		r = r < 0 ? r : 0;
	}
	free(line);
	fclose(f);
	return r;
}

static int accepted(const struct ks_baseline *b, const struct ks_finding *f,
		    const struct ks_loc *l)
{
	char *key = make_key(f, l, b->source_root);
	int r;

	if (!key)
		return -ENOMEM;
	r = ks_strmap_get(&b->keys, key) != NULL;
	free(key);
	return r;
}

static int apply_one(const struct ks_baseline *b, struct ks_finding *f)
{
	size_t kept = 0;
	int r;

	if (!f->nlocs) {
		r = accepted(b, f, NULL);
		f->baselined = r > 0;
		return r < 0 ? r : 0;
	}
	for (size_t i = 0; i < f->nlocs; i++) {
		r = accepted(b, f, &f->locs[i]);
		if (r < 0)
			return r;
		f->locs[i].baselined = r;
		kept += !r;
	}
	f->baselined = kept == 0;
	return 0;
}

int ks_baseline_apply(const struct ks_baseline *b, struct ks_findings *f)
{
	for (size_t i = 0; i < f->n; i++)
		if (apply_one(b, &f->v[i]) < 0)
			return -ENOMEM;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int ks_baseline_keys_add(struct ks_baseline_keys *k, const struct ks_findings *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		const struct ks_finding *f = &fs->v[i];

		for (size_t j = 0; j < (f->nlocs ? f->nlocs : 1); j++) {
			if (k->n == k->cap) {
				size_t cap = k->cap ? k->cap * 2 : 16;
				char **v = realloc(k->v, cap * sizeof(*v));

				if (!v)
					return -ENOMEM;
				k->v = v;
				k->cap = cap;
			}
			k->v[k->n] = make_key(f, f->nlocs ? &f->locs[j] : NULL, k->source_root);
			if (!k->v[k->n++])
				return -ENOMEM;
		}
	}
	return 0;
}

int ks_baseline_keys_write(struct ks_baseline_keys *k, const char *path, struct ks_diags *d)
{
	char *tmp = ks_strdupf("%s.tmp", path);
	FILE *f = NULL;
	int r = tmp ? 0 : -ENOMEM;

	if (k->n)
		qsort(k->v, k->n, sizeof(*k->v), cmp_str);
	if (!r && !(f = fopen(tmp, "w")))
		r = -errno;
	if (f) {
		fprintf(f, "%s\n", HEADER);
		for (size_t i = 0; i < k->n; i++)
			if (!i || strcmp(k->v[i], k->v[i - 1]))
				fprintf(f, "%s\n", k->v[i]);
		if (fclose(f) != 0)
			r = -errno;
		if (!r && rename(tmp, path) < 0)
			r = -errno;
	}
	if (r < 0 && r != -ENOMEM && ks_diag_add(d, KS_ERROR, path, 0, 0,
						 "cannot write baseline: %s", strerror(-r)) < 0)
		r = -ENOMEM;
	free(tmp);
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
	int r = ks_baseline_keys_add(&k, fs);

	r = r ? r : ks_baseline_keys_write(&k, path, d);
	ks_baseline_keys_free(&k);
	return r;
}

void ks_baseline_free(struct ks_baseline *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->lines[i]);
	free(b->lines);
	ks_strmap_free(&b->keys);
	memset(b, 0, sizeof(*b));
}
