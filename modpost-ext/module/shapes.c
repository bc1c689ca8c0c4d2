/* A module's units and their include and shape records (module/shapes.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array.h"
#include "module/shapes.h"

void ks_units_begin(struct ks_units *u, char *source)
{
	ks_array_room((void **)&u->v, &u->cap, u->n + 1, sizeof(*u->v));
	memset(&u->v[u->n], 0, sizeof(u->v[0]));
	u->v[u->n++].source = source;
}

static struct ks_unit *last(struct ks_units *u)
{
	struct ks_unit *un = u->n ? &u->v[u->n - 1] : NULL;

	if (un && !un->nincludes && !un->nshapes && !un->nguards)
		u->nshaped++;
	return un;
}

static void add_include(struct ks_unit *un, struct ks_record_include *inc)
{
	ks_array_room((void **)&un->includes, &un->capincludes, un->nincludes + 1,
		      sizeof(*un->includes));
	un->includes[un->nincludes++] = *inc;
	memset(inc, 0, sizeof(*inc));
}

int ks_units_add_include(struct ks_units *u, struct ks_record_include *inc)
{
	struct ks_unit *un = last(u);

	if (!un)
		return -EINVAL;
	add_include(un, inc);
	return 0;
}

static void add_shape(struct ks_unit *un, struct ks_record_shape *sh)
{
	ks_array_room((void **)&un->shapes, &un->capshapes, un->nshapes + 1, sizeof(*un->shapes));
	un->shapes[un->nshapes++] = *sh;
	memset(sh, 0, sizeof(*sh));
}

int ks_units_add_shape(struct ks_units *u, struct ks_record_shape *sh)
{
	struct ks_unit *un = last(u);

	if (!un)
		return -EINVAL;
	add_shape(un, sh);
	return 0;
}

int ks_units_shaped(struct ks_units *u)
{
	struct ks_unit *un = last(u);

	if (!un)
		return -EINVAL;
	un->shaped = true;
	return 0;
}

static void add_guard(struct ks_unit *un, struct ks_record_guard *g)
{
	ks_array_room((void **)&un->guards, &un->capguards, un->nguards + 1, sizeof(*un->guards));
	un->guards[un->nguards++] = *g;
	memset(g, 0, sizeof(*g));
}

int ks_units_add_guard(struct ks_units *u, struct ks_record_guard *g)
{
	struct ks_unit *un = last(u);

	if (!un)
		return -EINVAL;
	add_guard(un, g);
	return 0;
}

const struct ks_record_guard *ks_unit_guard(const struct ks_unit *un, const char *file,
					    unsigned line)
{
	const struct ks_record_guard *best = NULL;

	for (size_t i = 0; i < un->nguards; i++) {
		const struct ks_record_guard *g = &un->guards[i];

		if (g->first <= line && line <= g->last && !strcmp(g->file, file) &&
		    (!best || g->first > best->first ||
		     (g->first == best->first && g->last < best->last)))
			best = g;
	}
	return best;
}

static char *dup(const char *s)
{
	return s ? ks_xstrdup(s) : NULL;
}

static void copy_unit(struct ks_units *to, const struct ks_unit *un)
{
	ks_units_begin(to, dup(un->source));
	to->v[to->n - 1].shaped = un->shaped;
	for (size_t i = 0; i < un->nincludes; i++) {
		struct ks_record_include inc = un->includes[i];

		inc.header = dup(inc.header);
		inc.file = dup(inc.file);
		add_include(last(to), &inc);
	}
	for (size_t i = 0; i < un->nshapes; i++) {
		struct ks_record_shape sh = un->shapes[i];
		char **f[] = { &sh.name, &sh.file, &sh.function, &sh.old, &sh.probe, &sh.arglines };

		for (size_t k = 0; k < KS_ARRAY_SIZE(f); k++)
			*f[k] = dup(*f[k]);
		add_shape(last(to), &sh);
	}
	for (size_t i = 0; i < un->nguards; i++) {
		struct ks_record_guard g = un->guards[i];

		g.file = dup(g.file);
		g.cond = dup(g.cond);
		add_guard(last(to), &g);
	}
}

void ks_units_copy(struct ks_units *to, const struct ks_units *from)
{
	for (size_t i = 0; i < from->n; i++)
		copy_unit(to, &from->v[i]);
}

void ks_units_free(struct ks_units *u)
{
	for (size_t i = 0; i < u->n; i++) {
		struct ks_unit *un = &u->v[i];
		struct ks_record rec;

		for (size_t k = 0; k < un->nincludes; k++) {
			memset(&rec, 0, sizeof(rec));
			rec.include = un->includes[k];
			ks_record_free(&rec);
		}
		for (size_t k = 0; k < un->nshapes; k++) {
			memset(&rec, 0, sizeof(rec));
			rec.shape = un->shapes[k];
			ks_record_free(&rec);
		}
		for (size_t k = 0; k < un->nguards; k++) {
			memset(&rec, 0, sizeof(rec));
			rec.guard = un->guards[k];
			ks_record_free(&rec);
		}
		free(un->source);
		free(un->includes);
		free(un->shapes);
		free(un->guards);
	}
	free(u->v);
	memset(u, 0, sizeof(*u));
}
