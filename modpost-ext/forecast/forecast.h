/* check --target's forecast: will the module build on the target kernel?
 * Each translation unit built with the plugin's api argument recorded
 * what its code depends on in the kernel's headers (module/shapes.h).
 * For each unit a probe source includes the same headers, asks the
 * plugin how the target declares each name (#pragma ksunset probe) and
 * rebuilds each use; the target's own Kbuild compiles all probes in one
 * run, and every difference becomes a break of one kind at the use's
 * line. Results are cached per target and probe source. */
#ifndef KS_FORECAST_H
#define KS_FORECAST_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "compiler.h"
#include "diag.h"
#include "input/headers.h"
#include "input/symvers.h"
#include "module/elfmod.h"
#include "strmap.h"

/* How a use breaks on the target: one value per row of breaks.def. */
enum ks_break {
#define KS_BREAK(id, name, wording, sarif, decided, headers) KS_BREAK_##id,
#include "forecast/breaks.def"
#undef KS_BREAK
	KS_NBREAKS
};

const char *ks_break_name(enum ks_break k);

/* One kind of break of one name in a module, at every use that has it. */
struct ks_diff {
	enum ks_break kind;
	char *name;		/* "vmap", "struct inode.i_mtime", "<asm/unaligned.h>" */
	char *old;		/* its shape where the module was built; "" none */
	char *now;		/* its shape on the target; "" none */
	char *header;		/* not-included, header-gone: where the target has it; NULL */
	char *callback;		/* callback-prototype: the module's function; NULL */
	struct ks_uses sites;	/* symbol: name; note: the compiler's message there */
};

/* What the forecast says of one module. */
enum ks_build {
	KS_BUILD_UNKNOWN,	/* no probe of it could be run: why says */
	KS_BUILD_OK,		/* every shape it depends on matches */
	KS_BUILD_BREAKS,	/* diffs say where */
};

struct ks_verdict {
	char *path;		/* the module, as given */
	enum ks_build build;
	char *why;		/* unknown: why */
	bool whole;		/* no unit of it was judged: why says */
	struct ks_diff *diffs;	/* sorted by kind, then name */
	size_t ndiffs;
	size_t places;		/* distinct lines with a break */
	char **import_ns;	/* namespaces the target's headers import for it */
	size_t nimport_ns;
	/* "FILE:LINE" -> why: the places whose uses the forecast could not
	 * judge (their unit's probe failed, or the target compiles another
	 * branch there); keys and values owned */
	struct ks_strmap unjudged;
	/* the functions and variables the module defines itself (and
	 * __this_module, which modpost defines in every module): never
	 * the kernel's to export; keys in defined_names */
	struct ks_strmap defined;
	struct ks_buf defined_names;
	/* the exports of the kernel it was built for (its vermagic's
	 * release, on this machine); NULL: not found */
	const struct ks_symvers *built;
};

/* Why the uses at file:line of v's module were not judged; NULL: they were. */
const char *ks_verdict_unjudged(const struct ks_verdict *v, const char *file, unsigned line);
/* Notes that the uses at file:line were not judged, and why (the first
 * reason given stays). */
void ks_verdict_unjudge(struct ks_verdict *v, const char *file, unsigned line, const char *why);

struct ks_forecast_opts {
	const char *kdir;	/* the target's build or headers directory */
	const char *plugin;	/* ksunset.so; NULL: none found */
	const char *cache;	/* cache folder; NULL: none */
	long jobs;		/* make -j */
	bool verbose;		/* keep the scratch folder, say where */
};

struct ks_forecast_unit;

/* A kernel the modules given were built for, as its release names it. */
struct ks_built {
	char *release;
	struct ks_symvers sv;
	bool found;		/* its Module.symvers is on this machine */
};

struct ks_forecast {
	struct ks_verdict *v;	/* one per module given, in input order */
	size_t n;
	struct ks_forecast_unit *units;	/* every shaped unit of every module */
	size_t nunits;
	struct ks_buf exports;	/* the given modules' exports, as Module.symvers: of
				   those that the target does not ship itself */
	const struct ks_symvers *target;	/* the target's exports (its modules' too) */
	struct ks_strmap shipped;	/* the names of the target's modules, once asked */
	struct ks_built *built;		/* the kernels the modules were built for */
	size_t nbuilt;
	size_t probed, cached;	/* units compiled now, and taken from the cache */
};

/* Before the run: module m's exports and units (copied). An in-tree
 * module, or one the target ships (a module of its name exports there),
 * is replaced by the target's: its exports are the target's, not m's. */
void ks_forecast_add(struct ks_forecast *fc, const struct ks_module *m);
/* Probes every unit added on the target (its exports sv, its headers h
 * for hints) and judges each module. A probe that cannot run makes its
 * modules unknown, with one note in d saying why. */
void ks_forecast_run(struct ks_forecast *fc, const struct ks_forecast_opts *o,
		     const struct ks_symvers *sv, struct ks_headers *h,
		     struct ks_diags *d);
const struct ks_verdict *ks_forecast_lookup(const struct ks_forecast *fc, const char *path);
void ks_forecast_free(struct ks_forecast *fc);

#endif
