/* The forecast's pipeline (forecast.h): the modules' units gathered
 * before the check, each unit's probe written, taken from the cache or
 * compiled in one Kbuild run, its results read and judged, and a verdict
 * per module. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "array.h"
#include "forecast/kbuild.h"
#include "forecast/probe.h"
#include "module/exports.h"

static struct ks_verdict *new_verdict(struct ks_forecast *fc, const char *path)
{
	struct ks_verdict *v;

	ks_array_grow((void **)&fc->v, fc->n, 1, sizeof(*fc->v));
	v = &fc->v[fc->n++];
	memset(v, 0, sizeof(*v));
	v->path = ks_xstrdup(path);
	return v;
}

static bool generated(const char *source)
{
	size_t n = strlen(source);

	return n > 6 && !strcmp(source + n - 6, ".mod.c");
}

/* Why no forecast of m is possible; NULL: its units can be probed. */
static char *no_shapes(const struct ks_module *m)
{
	if (!m->nunits)
		return ks_xstrdup("built without the ksunset plugin: no record of what its source "
				  "depends on");
	for (size_t i = 0; i < m->units.n; i++) {
		const struct ks_unit *u = &m->units.v[i];

		if (!u->shaped && !u->nincludes && !u->nshapes && !generated(u->source))
			return ks_strdupf("%s was built without the plugin's api argument (ksunset "
					  "make --api): no record of what it depends on",
					  u->source);
	}
	return NULL;
}

static void add_unit(struct ks_forecast *fc, const struct ks_unit *un)
{
	struct ks_units one = { .v = (struct ks_unit *)un, .n = 1, .nshaped = 1 };
	struct ks_forecast_unit *u;

	ks_array_grow((void **)&fc->units, fc->nunits, 1, sizeof(*fc->units));
	u = &fc->units[fc->nunits];
	memset(u, 0, sizeof(*u));
	u->module = fc->n - 1;
	fc->nunits++;
	ks_units_copy(&u->one, &one);
}

/* The names m defines itself, as a map over v->defined_names. */
static void index_defined(struct ks_verdict *v)
{
	struct ks_buf *b = &v->defined_names;

	ks_buf_add(b, "__this_module", sizeof("__this_module"));
	for (size_t off = 0; off < b->len; off += strlen(b->p + off) + 1) {
		void **slot;

		ks_strmap_put(&v->defined, b->p + off, &slot);
		*slot = b->p + off;
	}
}

/* Whether the target ships a module named name: one of its exports is
 * that module's ("drivers/net/foo" for foo). */
static bool target_ships(struct ks_forecast *fc, const char *name)
{
	for (size_t i = 0; !fc->shipped.n && fc->target && i < fc->target->n; i++) {
		const char *mod = fc->target->v[i]->module, *base = strrchr(mod, '/');
		void **slot;

		ks_strmap_put(&fc->shipped, base ? base + 1 : mod, &slot);
		*slot = (void *)mod;
	}
	return ks_strmap_get(&fc->shipped, name) != NULL;
}

/* The exports of the kernel m was built for, read once per release from
 * where Debian and Kbuild keep its build tree; NULL: not found. */
static const struct ks_symvers *built_for(struct ks_forecast *fc, const struct ks_module *m)
{
	static const char *const places[][2] = { { "/lib/modules/", "/build/Module.symvers" },
						 { "/usr/src/linux-headers-", "/Module.symvers" } };
	int n = m->vermagic ? (int)strcspn(m->vermagic, " ") : 0;
	struct ks_diags quiet = { 0 };
	struct ks_built *b;

	if (!n)
		return NULL;
	for (size_t i = 0; i < fc->nbuilt; i++)
		if (!strncmp(fc->built[i].release, m->vermagic, (size_t)n) && !fc->built[i].release[n])
			return fc->built[i].found ? &fc->built[i].sv : NULL;
	ks_array_grow((void **)&fc->built, fc->nbuilt, 1, sizeof(*fc->built));
	b = &fc->built[fc->nbuilt++];
	memset(b, 0, sizeof(*b));
	b->release = ks_xstrndup(m->vermagic, (size_t)n);
	for (size_t i = 0; !b->found && i < KS_ARRAY_SIZE(places); i++) {
		char *path = ks_strdupf("%s%.*s%s", places[i][0], n, m->vermagic, places[i][1]);

		b->found = access(path, R_OK) == 0 && ks_symvers_load(&b->sv, path, &quiet) == 0;
		if (!b->found) {
			ks_symvers_free(&b->sv);
			memset(&b->sv, 0, sizeof(b->sv));
		}
		free(path);
	}
	ks_diags_free(&quiet);
	return b->found ? &b->sv : NULL;
}

void ks_forecast_add(struct ks_forecast *fc, const struct ks_module *m)
{
	struct ks_verdict *v = new_verdict(fc, m->path);
	struct ks_buf ignored = KS_BUF_INIT;
	bool ships = target_ships(fc, m->name);

	ks_exports_read(m->path, m->intree || ships ? &ignored : &fc->exports, &v->defined_names);
	ks_buf_free(&ignored);
	v->built = built_for(fc, m);
	/* the names' block no longer moves once indexed */
	index_defined(v);
	if ((v->why = no_shapes(m)))
		return;
	for (size_t i = 0; i < m->units.n; i++)
		if (!generated(m->units.v[i].source))
			add_unit(fc, &m->units.v[i]);
}

/* A probe's results: facts by question, errors, the unit record last. */
int ks_probe_read(struct ks_forecast_unit *u, const char *text, size_t len, const char **why)
{
	int r = 0;

	u->facts = ks_xcalloc(u->nquestions, sizeof(*u->facts));
	for (size_t off = 0; !r && off < len;) {
		size_t n = strnlen(text + off, len - off);
		struct ks_record rec;

		r = n ? ks_record_decode(text + off, n, &rec, why) : 0;
		off += n + 1;
		if (r || !n)
			continue;
		if (rec.type == KS_REC_FACT && rec.fact.item && rec.fact.item <= u->nquestions) {
			u->facts[rec.fact.item - 1] = rec.fact;
			memset(&rec.fact, 0, sizeof(rec.fact));
		} else if (rec.type == KS_REC_FACT && rec.fact.status == KS_FACT_IMPORT_NS) {
			ks_strv_add_unique(&u->import_ns, &u->nimport_ns, rec.fact.shape);
		} else if (rec.type == KS_REC_FACT && rec.fact.status == KS_FACT_FILE) {
			;	/* the cache's (kbuild.c) */
		} else if (rec.type == KS_REC_ERROR) {
			ks_array_grow((void **)&u->errors, u->nerrors, 1, sizeof(*u->errors));
			u->errors[u->nerrors++] = rec.error;
			memset(&rec.error, 0, sizeof(rec.error));
		} else if (rec.type == KS_REC_UNIT) {
			u->done = true;
		} else {
			*why = "a record that is no probe's";
			r = -EINVAL;
		}
		ks_record_free(&rec);
	}
	return r < 0 ? r : 0;
}

/* How many times a unit is probed at most: each time, the includes that
 * did not compile outside the module are left out. */
#define MAX_RUNS 3

/* What an error of u's probe is on (errors in a header are on the line of
 * the #include that led there). */
enum blame {
	BLAME_USE,	/* a use rebuilt, or an aggregate's alias: the judgement's */
	BLAME_INCLUDE,	/* an include: the header does not compile outside the module */
	BLAME_GUARD,	/* a guard's condition: the target cannot evaluate it */
	BLAME_NONE,	/* no item's */
};

static enum blame blame(const struct ks_forecast_unit *u, unsigned line, size_t *which)
{
	const struct ks_unit *un = &u->one.v[0];

	for (size_t k = 0; line && k < un->nshapes; k++)
		if (u->items[k].line == line)
			return BLAME_USE;
	for (size_t k = 0; line && k < u->naliases; k++)
		if (u->alias_lines[k] == line)
			return BLAME_USE;
	for (size_t j = 0; line && j < un->nincludes; j++) {
		const struct ks_item *it = &u->items[un->nshapes + j];

		if (it->line && line >= it->first && line <= it->line) {
			*which = j;
			return BLAME_INCLUDE;
		}
	}
	for (size_t k = 0; line && k < un->nguards; k++)
		if (u->guard_lines[k] == line) {
			*which = k;
			return BLAME_GUARD;
		}
	return BLAME_NONE;
}

/* An include whose header does not compile outside the module (an
 * X-macro list, a trace header that needs the module's defines, a header
 * included inside a function): left out of the next probe of u. */
static void drop(struct ks_forecast_unit *u, size_t j, const struct ks_record_error *e)
{
	u->dropped[j] = true;
	u->again = true;
	if (u->dropped_why)
		return;
	u->dropped_why = ks_strdupf("%s (%s:%u) does not compile outside the module: %s",
				    u->one.v[0].includes[j].header, u->one.v[0].includes[j].file,
				    u->one.v[0].includes[j].line, e->message);
}

/* Sorts u's errors out: a use's are judged, a guard's make its places
 * unjudged, an include's leave it out of another probe of u (the errors
 * after it may be its consequences, so they wait for that probe); one
 * that is no item's makes the results say nothing (*why). */
static void sort_errors(struct ks_forecast_unit *u, char **why)
{
	const struct ks_record_error *none = NULL;

	for (size_t i = 0; !*why && i < u->nerrors; i++) {
		const struct ks_record_error *e = &u->errors[i];
		size_t which = 0;

		switch (blame(u, e->line, &which)) {
		case BLAME_USE:
			break;
		case BLAME_GUARD:
			u->guard_failed[which] = true;
			break;
		case BLAME_INCLUDE:
			if (u->runs < MAX_RUNS)
				drop(u, which, e);
			else
				*why = ks_strdupf("the probe of %s does not compile even without the "
						  "includes it left out: %s",
						  u->one.v[0].source, e->message);
			break;
		case BLAME_NONE:
			none = none ? none : e;
			break;
		}
	}
	if (!*why && !u->again && none)
		*why = ks_strdupf("the probe of %s fails where it asks nothing of the target: %s",
				  u->one.v[0].source, none->message);
}

/* Why u's results say nothing: the compilation stopped, or failed where
 * the probe asks nothing (*why set; NULL: they can be judged, or u is to
 * be probed again without some includes). */
static void unusable(struct ks_forecast_unit *u)
{
	sort_errors(u, &u->why);
	if (u->why || u->again || u->done)
		return;
	u->why = u->nerrors ? ks_strdupf("the probe stopped: %s", u->errors[0].message)
			    : ks_xstrdup("the probe stopped without a message");
}

static void take_results(struct ks_forecast_unit *u, const struct ks_buf *res)
{
	const char *why = NULL;
	int r = ks_probe_read(u, res->p ? res->p : "", res->len, &why);

	u->runs++;
	if (r == -EINVAL)
		u->why = ks_strdupf("unreadable results of the probe of %s: %s", u->one.v[0].source,
				    why);
	else if (!r)
		unusable(u);
}

/* The probes that are not in the cache, compiled in one Kbuild run. */
static void compile(struct ks_forecast *fc, const struct ks_forecast_opts *o,
		   struct ks_kcache *kc, size_t *miss, size_t nmiss, struct ks_diags *d)
{
	struct ks_kbuild kb = { 0 };
	struct ks_buf **src = ks_xcalloc(nmiss, sizeof(*src));
	char *fail = NULL;
	int r;

	for (size_t i = 0; i < nmiss; i++)
		src[i] = &fc->units[miss[i]].source;
	r = ks_kbuild_prepare(&kb, src, nmiss);
	r = r ? r : ks_kbuild_make(&kb, o->kdir, o->plugin, o->jobs);
	for (size_t i = 0; i < nmiss; i++) {
		struct ks_forecast_unit *u = &fc->units[miss[i]];
		struct ks_buf res = KS_BUF_INIT;

		if (!r && ks_kbuild_result(&kb, i, &res) == 0) {
			take_results(u, &res);
			if (!u->why && u->done)
				ks_kcache_put(kc, u->hash, &res);
			fc->probed++;
		} else if (!fail) {
			fail = r ? ks_strdupf("make could not be run: %s", strerror(-r))
				 : ks_kbuild_failure(&kb);
		}
		if (!u->why && !u->done && !u->again)
			u->why = ks_strdupf("the probe was not compiled by %s's Kbuild: %s", o->kdir,
					    fail ? fail : "?");
		ks_buf_free(&res);
	}
	if (fail)
		ks_diag_add(d, KS_NOTE, o->kdir, 0, 0,
			    "the forecast's probe cannot be compiled here: %s; whether the modules "
			    "build there is unknown",
			    fail);
	free(fail);
	free(src);
	ks_kbuild_free(&kb);
}

/* One round: each unit to (re)probe written, then taken from the cache
 * or compiled with the others in one Kbuild run; those to probe again
 * without some includes are left marked in todo. */
static void probe_round(struct ks_forecast *fc, const struct ks_forecast_opts *o,
			struct ks_kcache *kc, struct ks_headers *h, bool *todo, size_t *miss,
			struct ks_diags *d)
{
	size_t nmiss = 0;

	for (size_t i = 0; i < fc->nunits; i++) {
		struct ks_forecast_unit *u = &fc->units[i];
		struct ks_buf res = KS_BUF_INIT;

		if (!todo[i])
			continue;
		ks_probe_write(u, h);
		if (ks_kcache_get(kc, u->hash, &res)) {
			take_results(u, &res);
			fc->cached++;
		} else {
			miss[nmiss++] = i;
		}
		ks_buf_free(&res);
	}
	if (nmiss)
		compile(fc, o, kc, miss, nmiss, d);
	for (size_t i = 0; i < fc->nunits; i++)
		todo[i] = todo[i] && fc->units[i].again;
}

/* Every unit's probe, in rounds: a unit whose includes do not all compile
 * outside the module is probed again without them, so that a Kbuild run
 * more is paid only by packages that have such includes. */
static void probe_all(struct ks_forecast *fc, const struct ks_forecast_opts *o,
		      struct ks_headers *h, struct ks_diags *d)
{
	struct ks_kcache kc;
	size_t *miss = ks_xcalloc(fc->nunits, sizeof(*miss));
	bool *todo = ks_xcalloc(fc->nunits, sizeof(*todo)), any = true;

	ks_kcache_open(&kc, o->cache, o->kdir, o->plugin);
	for (size_t i = 0; i < fc->nunits; i++)
		todo[i] = true;
	for (int round = 0; any && round < MAX_RUNS; round++) {
		probe_round(fc, o, &kc, h, todo, miss, d);
		any = false;
		for (size_t i = 0; i < fc->nunits; i++)
			any |= todo[i];
	}
	ks_kcache_close(&kc);
	free(miss);
	free(todo);
}

/* Why the probe cannot run at all against this target; NULL: it can. */
static char *cannot_probe(const struct ks_forecast_opts *o)
{
	char *mk = o->kdir ? ks_strdupf("%s/Makefile", o->kdir) : NULL;
	bool kbuild = mk && access(mk, R_OK) == 0;

	free(mk);
	if (!o->kdir)
		return ks_xstrdup("the target is a Module.symvers: no headers to probe");
	if (!kbuild)
		return ks_strdupf("%s has no Makefile: no Kbuild to compile the probe with", o->kdir);
	if (!o->plugin)
		return ks_xstrdup("the ksunset plugin (ksunset.so) was not found: no probe");
	return NULL;
}

static int cmp_diff(const void *a, const void *b)
{
	const struct ks_diff *x = a, *y = b;

	return x->kind != y->kind ? (x->kind < y->kind ? -1 : 1) : strcmp(x->name, y->name);
}

/* A module's verdict from its units' judgements: its breaks sorted, the
 * lines they are on counted. */
static void settle(struct ks_verdict *v, const char *unknown, bool judged)
{
	char **lines = NULL;
	size_t n = 0;

	if (v->ndiffs)
		qsort(v->diffs, v->ndiffs, sizeof(*v->diffs), cmp_diff);
	for (size_t i = 0; i < v->ndiffs; i++)
		for (size_t s = 0; s < v->diffs[i].sites.n; s++) {
			const struct ks_use *u = &v->diffs[i].sites.v[s];
			char *key = ks_strdupf("%s:%u", u->file, u->line);

			ks_strv_add_unique(&lines, &n, key);
			free(key);
		}
	ks_strv_free(lines, n);
	v->places = n;
	if (v->ndiffs)
		v->build = KS_BUILD_BREAKS;
	else
		v->build = v->why || unknown ? KS_BUILD_UNKNOWN : KS_BUILD_OK;
	if (v->build == KS_BUILD_UNKNOWN && !v->why)
		v->why = ks_xstrdup(unknown);
	v->whole = !judged;
}

/* A unit whose probe says nothing: none of its uses is judged. */
static void unjudge_unit(struct ks_verdict *v, const struct ks_forecast_unit *u)
{
	const struct ks_unit *un = &u->one.v[0];

	for (size_t i = 0; i < un->nshapes; i++)
		ks_verdict_unjudge(v, un->shapes[i].file, un->shapes[i].line, u->why);
}

static void judge_all(struct ks_forecast *fc, const struct ks_symvers *sv, struct ks_headers *h)
{
	struct ks_symvers run = { 0 };
	struct ks_diags said = { 0 };	/* the check's copy says it */
	const char **unknown = ks_xcalloc(fc->n, sizeof(*unknown));
	bool *judged = ks_xcalloc(fc->n, sizeof(*judged));

	if (fc->exports.len && ks_symvers_parse(&run, "(the modules given)", fc->exports.p,
						fc->exports.len, &said) < 0) {
		/* a line that does not parse is left out */
	}
	ks_diags_free(&said);
	for (size_t i = 0; i < fc->nunits; i++) {
		struct ks_forecast_unit *u = &fc->units[i];
		struct ks_verdict *v = &fc->v[u->module];

		if (u->why) {
			unknown[u->module] = unknown[u->module] ? unknown[u->module] : u->why;
			unjudge_unit(v, u);
			continue;
		}
		judged[u->module] = true;
		ks_probe_judge(u, sv, &run, h, v);
		for (size_t k = 0; k < u->nimport_ns; k++)
			ks_strv_add_unique(&v->import_ns, &v->nimport_ns, u->import_ns[k]);
	}
	for (size_t i = 0; i < fc->n; i++)
		settle(&fc->v[i], unknown[i], judged[i]);
	free(unknown);
	free(judged);
	ks_symvers_free(&run);
}

void ks_forecast_run(struct ks_forecast *fc, const struct ks_forecast_opts *o,
		     const struct ks_symvers *sv, struct ks_headers *h, struct ks_diags *d)
{
	char *why = fc->nunits ? cannot_probe(o) : NULL;

	/* a target without headers said so when it was opened */
	if (why && ks_headers_present(h))
		ks_diag_add(d, KS_NOTE, o->kdir, 0, 0,
			    "%s; whether the modules build there is unknown", why);
	if (why) {
		for (size_t i = 0; i < fc->nunits; i++)
			if (!fc->units[i].why)
				fc->units[i].why = ks_xstrdup(why);
		free(why);
	} else if (fc->nunits) {
		probe_all(fc, o, h, d);
	}
	judge_all(fc, sv, h);
}

const struct ks_verdict *ks_forecast_lookup(const struct ks_forecast *fc, const char *path)
{
	for (size_t i = 0; fc && i < fc->n; i++)
		if (!strcmp(fc->v[i].path, path))
			return &fc->v[i];
	return NULL;
}

void ks_probe_reset(struct ks_forecast_unit *u)
{
	struct ks_record rec;

	for (size_t i = 0; i < u->nitems; i++)
		free(u->items[i].alt);
	free(u->items);
	ks_strv_free(u->questions, u->nquestions);
	ks_strv_free(u->aliases, u->naliases);
	free(u->alias_lines);
	free(u->guard_questions);
	free(u->guard_lines);
	free(u->guard_failed);
	ks_buf_free(&u->source);
	for (size_t i = 0; u->facts && i < u->nquestions; i++) {
		memset(&rec, 0, sizeof(rec));
		rec.fact = u->facts[i];
		ks_record_free(&rec);
	}
	free(u->facts);
	for (size_t i = 0; i < u->nerrors; i++)
		free(u->errors[i].message);
	free(u->errors);
	ks_strv_free(u->import_ns, u->nimport_ns);
	u->items = NULL;
	u->questions = u->aliases = u->import_ns = NULL;
	u->alias_lines = u->guard_lines = NULL;
	u->guard_questions = NULL;
	u->guard_failed = NULL;
	u->facts = NULL;
	u->errors = NULL;
	u->nitems = u->nquestions = u->naliases = u->nerrors = u->nimport_ns = 0;
	u->done = u->again = false;
}

void ks_probe_free(struct ks_forecast_unit *u)
{
	ks_probe_reset(u);
	ks_units_free(&u->one);
	free(u->dropped);
	free(u->dropped_why);
	free(u->why);
}

static void diff_free(struct ks_diff *d)
{
	free(d->name);
	free(d->old);
	free(d->now);
	free(d->header);
	free(d->callback);
	ks_uses_free(&d->sites);
}

void ks_forecast_free(struct ks_forecast *fc)
{
	for (size_t i = 0; i < fc->n; i++) {
		struct ks_verdict *v = &fc->v[i];

		free(v->path);
		free(v->why);
		for (size_t k = 0; k < v->ndiffs; k++)
			diff_free(&v->diffs[k]);
		free(v->diffs);
		ks_strv_free(v->import_ns, v->nimport_ns);
		for (size_t k = 0; k < v->unjudged.cap; k++) {
			free((char *)v->unjudged.slots[k].key);
			free(v->unjudged.slots[k].val);
		}
		ks_strmap_free(&v->unjudged);
		ks_strmap_free(&v->defined);
		ks_buf_free(&v->defined_names);
	}
	free(fc->v);
	for (size_t i = 0; i < fc->nunits; i++)
		ks_probe_free(&fc->units[i]);
	free(fc->units);
	ks_buf_free(&fc->exports);
	ks_strmap_free(&fc->shipped);
	for (size_t i = 0; i < fc->nbuilt; i++) {
		free(fc->built[i].release);
		ks_symvers_free(&fc->built[i].sv);
	}
	free(fc->built);
	memset(fc, 0, sizeof(*fc));
}
