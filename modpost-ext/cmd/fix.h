/* ksunset fix: a unified diff that keeps a module building on the kernel
 * it was built for and on the --target, from check --target's breaks and
 * what in-tree code wrote instead (ksunset.migrations(5)). */
#ifndef KS_FIX_H
#define KS_FIX_H

#include <stdio.h>

#include "diag.h"
#include "module/elfmod.h"
#include "report/rewrite.h"
#include "rules/rules.h"

/* One line to rewrite as in-tree code did: an #include of a header it
 * replaced, a call whose arguments it changed, the head of a callback
 * whose parameters it changed; or the line an #include it added goes
 * before. */
struct ks_fix_site {
	char *file;
	unsigned line;
	char *fn;			/* a callback's: the module's function; NULL */
	char *type;			/* its member's type where built; NULL */
	const struct ks_migration *m;
	const struct ks_rewrite *rw;	/* m's one rewrite */
	const struct ks_migrations *ms;	/* m's (ms->to: the release that has the
					 * new form) */
};

/* A line that uses a member gone from its struct on the target: its
 * rewrites must leave the member named nowhere on it. */
struct ks_gone_use {
	char *file;
	unsigned line;
	char *member;
};

/* A line that names what a break without a rewrite of its own is of
 * (left[k] of struct ks_fixes): taken, another site's rewrite of the line
 * leaves the name out (hid_is_usb(hdev) for hid_is_using_ll_driver(hdev,
 * &usb_hid_driver): usb_hid_driver's break). */
struct ks_left_use {
	char *file;
	unsigned line;
	char *name;
	size_t k;
	bool taken;
};

struct ks_fixes {
	struct ks_fix_site *v;
	size_t n;
	struct ks_gone_use *gone;
	size_t ngone;
	char **left;			/* "FILE:LINE: KIND NAME" of breaks not rewritten */
	size_t nleft;
	struct ks_left_use *uses;	/* the lines of those that name an identifier */
	size_t nuses;
	size_t rewritten, files;	/* after ks_fixes_write: what the patch holds */
	struct ks_sources own;		/* ks_fixes_collect()'s module's, below the
					 * current directory */
};

/* The breaks among one module's findings (of m): a site for each location
 * of one with a rewrite (a callback's: its definition and declarations,
 * in the use's file or another of m's own below the current directory),
 * a line of the header for each of the others. */
void ks_fixes_collect(struct ks_fixes *fx, const struct ks_findings *found,
		      const struct ks_module *m);
/* The patch, paths relative to the current directory with a/ and b/: a
 * header listing the breaks it does not rewrite (and sites it could not:
 * a file not found, a line that changed since the build), then one diff
 * per file. Returns 0 or a negative errno of the write. */
int ks_fixes_write(FILE *out, struct ks_fixes *fx);
void ks_fixes_free(struct ks_fixes *fx);

#endif
