/* The cross-check: a module's imports against the schedule and the
 * kernel's exports, giving findings with their source locations. */
#ifndef KS_RULES_H
#define KS_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler.h"
#include "diag.h"
#include "module/elfmod.h"
#include "schedule.h"
#include "input/symvers.h"

struct ks_check_opts {
	int32_t today;
	long within;			/* --error-within DAYS; -1: none */
	bool strict;			/* scheduled uses are errors */
	const char *kernel_release;	/* overrides each module's vermagic */
};

struct ks_loc {
	char *file;
	unsigned line, col;
	char *function;
	enum ks_use_kind kind;
	enum ks_use_source source;
};

struct ks_finding {
	char *module;			/* path, as given */
	char *module_name;
	char *symbol;
	const struct ks_entry *entry;
	const char *rule;		/* "ksunset/overdue", ... */
	bool removed;			/* no longer exported at all */
	struct ks_when_eval ev;
	enum ks_severity sev;
	char *license;			/* the module's, for gpl-only */
	char *target;			/* target release, NULL if unknown */
	struct ks_loc *locs;		/* sorted by file, line, column */
	size_t nlocs;
	bool baselined;
};

struct ks_findings {
	struct ks_finding *v;
	size_t n, cap;
};

struct ks_check {
	const struct ks_schedule *sched;
	const struct ks_symvers *symvers;	/* NULL: none given */
	struct ks_check_opts opts;
	struct ks_findings found;
};

/* Adds the module's findings to c->found. 0 or -ENOMEM. */
int ks_check_module(struct ks_check *c, const struct ks_module *m) KS_MUST_CHECK;
/* Sorts findings by module, then symbol. */
void ks_findings_sort(struct ks_findings *f);
void ks_findings_free(struct ks_findings *f);

#endif
