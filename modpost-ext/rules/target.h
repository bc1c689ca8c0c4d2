/* check --target: whether each import resolves on another kernel as
 * modpost and the loader decide it, and for an import that does not,
 * whether a rebuild against that kernel's headers is enough. The rules
 * are rows of ks_rules[] (rules.c); their parts live here. */
#ifndef KS_TARGET_H
#define KS_TARGET_H

#include <stdbool.h>

#include "compiler.h"
#include "diag.h"
#include "input/headers.h"
#include "input/kernel.h"
#include "input/migrations.h"
#include "rules/rules.h"

struct ks_target {
	struct ks_kernel k;	/* its exports and release */
	struct ks_headers h;	/* its headers; none: remedies are unknown */
};

/* Opens the target kernel at arg (a build or headers directory, or a
 * Module.symvers), release given or NULL (the directory's). Problems are
 * diagnostics; a target without headers is one note. 0, -EINVAL or
 * -errno. */
int ks_target_open(struct ks_target *t, const char *arg, const char *release,
		   struct ks_diags *d) KS_MUST_CHECK;
void ks_target_free(struct ks_target *t);

/* Fills f's remedy, remedy_why and written_as for a target finding of
 * module m: the names its source writes at each location (its shape
 * records), and whether the forecast of c says its build there needs no
 * source change. */
void ks_target_remedy(const struct ks_check *c, const struct ks_module *m, struct ks_finding *f);
const char *ks_remedy_name(enum ks_remedy r);

/* The parts of the target rows of ks_rules[]. */
bool ks_target_missing(const struct ks_import *im);
bool ks_target_gpl_only(const struct ks_import *im);
bool ks_target_namespace(const struct ks_import *im);
void ks_target_word(struct ks_buf *b, const struct ks_finding *f);
void ks_target_tag(struct ks_buf *b, const struct ks_finding *f);
/* A module's outlook on the target kernel, after its findings: does it
 * load as built, and does it build there (its forecast). */
struct ks_outlook {
	const char *module;
	const char *release;		/* the target's; NULL: unknown */
	const struct ks_verdict *v;	/* its forecast; NULL: none */
	size_t load_findings;		/* imports that do not resolve there */
	size_t changes;			/* those whose remedy is not a rebuild */
	size_t unknowns;		/* those whose remedy is unknown */
	size_t places;			/* distinct lines of those and of the breaks */
	size_t unjudged;		/* other lines of its uses, not judged */
	const char *load_kinds[4];	/* target_status of those not "missing" */
	size_t nload_kinds;
};

/* The outlook in words ("needs source changes: 7 places (3 kinds: ...)")
 * into b; returns its state: "builds-and-loads", "needs-source-changes",
 * "loads-but-rebuild-fails" or "unknown". */
const char *ks_outlook_word(struct ks_buf *b, const struct ks_outlook *o);
/* Its places in brief ("7 places: arity, gone, prototype") into b. */
void ks_outlook_places(struct ks_buf *b, const struct ks_outlook *o);

/* The forecast's rows (forecast/breaks.def): a break's message and tag. */
void ks_build_word(struct ks_buf *b, const struct ks_finding *f);
void ks_build_tag(struct ks_buf *b, const struct ks_finding *f);
/* In words, what in-tree code wrote instead, how many did, and one
 * example: "in-tree code drops argument 1 of class_create() (20 of the 20
 * in-tree calls that changed from 6.1 to 6.12; e.g. FILE:LINE in
 * 6.12)"; when it shows no single rewrite, the two most common. */
void ks_fix_words(struct ks_buf *b, const struct ks_migration *e, const struct ks_migrations *ms);


#endif
