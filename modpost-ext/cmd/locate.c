/* Location sources in turn (cmd/locate.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dwarf/dwarf.h"
#include "cmd/locate.h"
#include "module/policy.h"

/* The sources, in the order they win: a use one places is not looked
 * for by those after it. A source without a function reads with the
 * module's sections (module/elfmod.c's readers[]). */
static const struct {
	enum ks_use_source source;
	ks_locate_fn locate;
} sources[] = {
	{ KS_SOURCE_PLUGIN, NULL }, /* module/records.c */
	{ KS_SOURCE_DWARF, ks_dwarf_locate },
};

int ks_locations_parse(const char *s, struct ks_locate_opts *o)
{
	if (!strcmp(s, "auto")) {
		o->only = false;
		return 0;
	}
	for (size_t i = 0; i < KS_ARRAY_SIZE(sources); i++) {
		if (!strcmp(s, ks_use_source_name(sources[i].source))) {
			o->only = true;
			o->source = sources[i].source;
			return 0;
		}
	}
	return -EINVAL;
}

/* Whether source i reads the module again in this run. */
static bool reads(const struct ks_locate_opts *o, size_t i)
{
	return sources[i].locate && (!o->only || o->source == sources[i].source);
}

bool ks_locate_reads(const struct ks_locate_opts *o)
{
	for (size_t i = 0; i < KS_ARRAY_SIZE(sources); i++)
		if (reads(o, i))
			return true;
	return false;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool placed(const struct ks_module *m, const char *sym)
{
	for (size_t i = 0; i < m->uses.n; i++)
		if (!strcmp(m->uses.v[i].symbol, sym))
			return true;
	return false;
}

/* --locations naming one source: the others' uses are left out. */
static void keep_only(struct ks_module *m, enum ks_use_source source)
{
	size_t k = 0;

	for (size_t i = 0; i < m->uses.n; i++) {
		if (m->uses.v[i].source == source)
			m->uses.v[k++] = m->uses.v[i];
		else
			ks_use_free(&m->uses.v[i]);
	}
	m->uses.n = k;
}

/* One source, for the imports wanted and not placed yet. */
static void run_source(ks_locate_fn locate, struct ks_module *m, const struct ks_locate_opts *o,
		       ks_locate_wanted_fn wanted, void *ctx, struct ks_diags *d)
{
	char **syms = ks_xmalloc(m->nundef * sizeof(*syms));
	size_t n = 0;

	for (size_t i = 0; i < m->nundef; i++)
		if (!ks_import_generated(m->undef[i]) && wanted(ctx, m, m->undef[i]) &&
		    !placed(m, m->undef[i]))
			syms[n++] = m->undef[i];
	if (n) {
		qsort(syms, n, sizeof(*syms), cmp_names);
		locate(m, syms, n, o, d);	/* its -ENOENT: the report says so */
	}
	free(syms);
}

void ks_locate_module(struct ks_module *m, const struct ks_locate_opts *o,
		      ks_locate_wanted_fn wanted, void *ctx, struct ks_diags *d)
{
	if (o->only)
		keep_only(m, o->source);
	for (size_t i = 0; i < KS_ARRAY_SIZE(sources); i++)
		if (reads(o, i))
			run_source(sources[i].locate, m, o, wanted, ctx, d);
}
