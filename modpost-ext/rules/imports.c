/* Import counts per export. Only symbols the Module.symvers exports are
 * counted, so the map's keys can borrow the export's own symbol string. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "rules/imports.h"

void ks_imports_add(struct ks_imports *u, const struct ks_module *m)
{
	for (size_t i = 0; i < m->nundef; i++) {
		const struct ks_export *e = ks_symvers_lookup(u->sv, m->undef[i]);
		void **slot;

		if (!e)
			continue;
		ks_strmap_put(&u->count, e->symbol, &slot);
		*slot = (void *)((uintptr_t)*slot + 1);
	}
}

size_t ks_imports_count(const struct ks_imports *u, const char *sym)
{
	return (uintptr_t)ks_strmap_get(&u->count, sym);
}

bool ks_export_owned_by(const struct ks_export *e, const char *owner)
{
	const char *base = strrchr(e->module, '/');

	return strcmp(e->module, owner) == 0 || (base && strcmp(base + 1, owner) == 0);
}

static int cmp_export(const void *a, const void *b)
{
	const struct ks_export *x = *(const struct ks_export *const *)a;
	const struct ks_export *y = *(const struct ks_export *const *)b;

	return strcmp(x->symbol, y->symbol);
}

void ks_imports_list(const struct ks_imports *u, const char *owner, bool unused_only,
		     const struct ks_export ***out, size_t *n)
{
	const struct ks_export **v = ks_xmalloc(u->sv->n * sizeof(*v));
	size_t k = 0;

	for (size_t i = 0; i < u->sv->n; i++) {
		const struct ks_export *e = u->sv->v[i];

		if (owner && !ks_export_owned_by(e, owner))
			continue;
		if (unused_only && ks_imports_count(u, e->symbol))
			continue;
		v[k++] = e;
	}
	qsort(v, k, sizeof(*v), cmp_export);
	*out = v;
	*n = k;
}

void ks_imports_free(struct ks_imports *u)
{
	ks_strmap_free(&u->count);
}

/* The deadline is never reached, so every finding is a plain use. */
int ks_users_schedule(struct ks_schedule *s, char *const *syms, size_t n, struct ks_diags *d)
{
	struct ks_buf b = KS_BUF_INIT;
	int r;

	ks_buf_adds(&b, "What:");
	for (size_t i = 0; i < n; i++)
		ks_buf_addf(&b, " %s", syms[i]);
	ks_buf_adds(&b, "\nWhen: 9999-12-31\n");
	r = ks_schedule_parse(s, "<command line>", b.p, b.len, d);
	ks_buf_free(&b);
	return r;
}
