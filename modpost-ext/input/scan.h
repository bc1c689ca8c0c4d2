/* Reading every module that MODULE arguments name, one at a time, so that
 * memory stays bounded by the largest module, not by the corpus. */
#ifndef KS_SCAN_H
#define KS_SCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler.h"
#include "diag.h"
#include "module/elfmod.h"

struct ks_scan {
	size_t jobs;		/* reading threads; 0: one per CPU */
	/* if set, run on the calling thread once the reading has started,
	 * before the first module is handed out: loading the schedule and
	 * Module.symvers then overlaps with reading the modules */
	int (*prepare)(void *ctx);
	/* if set, run on the calling thread with each module before fn: it
	 * may add uses from other location sources (cmd/locate.h) */
	void (*locate)(void *ctx, struct ks_module *m);
	/* the same, run instead on the reading threads as soon as a module
	 * is read, when it needs nothing the calling thread makes: it must
	 * be safe to run on several threads at once; its diagnostics go to
	 * d, which follows the module's own in input order */
	void (*locate_in_reader)(void *ctx, struct ks_module *m, struct ks_diags *d);
	bool allow_empty;	/* a folder or list without modules is no problem */
	/* a one-line progress indicator on stderr, if it is a terminal and
	 * CI is unset (the caller says no for -q and machine formats) */
	bool progress;
	size_t modules;		/* modules read */
	bool unusable;		/* some input could not be used (reported) */
};

/* Called once per module; a negative result stops the scan. */
typedef int (*ks_scan_fn)(void *ctx, const struct ks_module *m);

/* Expands args as check does (files, directories, modules.order), reads
 * the modules on sc->jobs threads and hands each to fn, in input order, on
 * the calling thread. Unusable inputs (and malformed plugin
 * records) are diagnostics in d and set sc->unusable; the scan goes on.
 * So is an argument that names no module (ks_inputs_next()), unless
 * sc->allow_empty.
 * Returns 0, -errno when no reading thread starts (said in d), or fn's
 * negative result. */
int ks_scan_modules(struct ks_scan *sc, char *const *args, size_t nargs, ks_scan_fn fn,
		    void *ctx, struct ks_diags *d) KS_MUST_CHECK;

#endif
