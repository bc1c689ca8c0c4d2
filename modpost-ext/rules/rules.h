/* The check rules and their engine: a module's imports against the
 * schedule and the kernel's exports, giving findings with their source
 * locations. Each rule is one row of the table in rules.c. */
#ifndef KS_RULES_H
#define KS_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
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
	bool baselined;			/* accepted by the baseline */
	char *var, *member;		/* DWARF, in data: the initializer; else NULL */
	/* KSUNSET_ACCEPT's reason in the source; NULL: none. It accepts the
	 * use only if the finding's rule lets it (ks_loc_accepted_in_source). */
	char *accept_reason;
	char *note;			/* --target's forecast: the compiler's message; NULL */
	char *written_as;		/* --target: the name the source writes here; NULL */
	bool compiles;			/* --target: this use compiles there, though
					   another of the import's does not */
};

struct ks_finding;
struct ks_diff;
struct ks_forecast;
struct ks_check;
struct ks_target;
struct ks_migration;
struct ks_migrations;

/* check --target: what it takes to load on the target kernel. */
enum ks_remedy {
	KS_REMEDY_NONE,		/* not a target finding */
	KS_REMEDY_REBUILD,	/* every shape the module depends on matches there */
	KS_REMEDY_SOURCE_CHANGE,
	KS_REMEDY_UNKNOWN,	/* the forecast could not judge: remedy_why */
};

/* How severe a rule's findings are. */
enum ks_rule_severity {
	KS_RULE_ERROR,		/* always an error */
	KS_RULE_STRICT,		/* a warning; an error with --strict */
};

/* An import being judged: what every rule's applies() may look at. */
struct ks_import {
	const struct ks_check *c;
	const struct ks_module *m;
	const char *sym;
	const struct ks_entry *e;	/* its schedule entry; NULL: none */
	struct ks_when_eval ev;		/* where e stands for m (e only) */
	const struct ks_export *x;	/* its export in the given Module.symvers;
					   NULL: none, or none given */
	/* --target's forecast: a break of the module's build there (sym is
	 * its name; e and x are NULL) */
	const struct ks_diff *diff;
};

/* A check rule: everything about it, in one row of ks_rules[]. */
struct ks_rule {
	const char *id;			/* "ksunset/overdue": SARIF's ruleId, the text's tag */
	const char *status;		/* the finding's "status" in JSON */
	enum ks_rule_severity severity;
	const char *sarif_text;		/* SARIF's shortDescription */
	/* Whether the rule makes a finding of the import. */
	bool (*applies)(const struct ks_import *im);
	/* The finding's message after '"SYMBOL" [MODULE] '. */
	void (*word)(struct ks_buf *b, const struct ks_finding *f);
	/* The short form at the end of a location line ("removal on
	 * 2027-09-01"). */
	void (*tag)(struct ks_buf *b, const struct ks_finding *f);
	/* A baseline may accept its findings (each in the status it had when
	 * the baseline was written), and so may KSUNSET_ACCEPT in the source;
	 * never for a module that will not load or a use that is overdue. */
	bool baseline_accepts;
	/* --target rows: "missing", "gpl-only" or "namespace"; else NULL */
	const char *target_status;
	/* SARIF's fullDescription; NULL: none */
	const char *sarif_full;
};

/* The rules, in the order they are tried: the first that applies wins. */
extern const struct ks_rule ks_rules[];
extern const size_t ks_nrules;

struct ks_finding {
	char *module;			/* path, as given */
	char *module_name;
	char *symbol;
	const struct ks_entry *entry;	/* NULL: the symbol is not scheduled */
	const struct ks_export *exported; /* in the given Module.symvers; NULL: none */
	const struct ks_rule *rule;
	struct ks_when_eval ev;
	enum ks_severity sev;
	char *license;			/* the module's, for gpl-only */
	char *target;			/* target release, NULL if unknown */
	struct ks_loc *locs;		/* sorted by file, line, column */
	size_t nlocs;
	bool baselined;			/* every use accepted by the baseline */
	bool plugin;			/* the module was built with the plugin */
	bool other_schedule;		/* ... under another schedule than this */
	enum ks_remedy remedy;		/* --target findings */
	char *remedy_why;		/* why the remedy is what it is; NULL */
	char **written_as;		/* names the source writes at the locations */
	size_t nwritten;
	const struct ks_diff *diff;	/* a forecast row's break; NULL */
	/* what in-tree code wrote instead, of the file fixes (NULL: none) */
	const struct ks_migration *fix;
	const struct ks_migrations *fixes;
	bool no_debug_info;		/* DWARF was asked for and there was none */
	bool generated;			/* the compiler's import: no location by rule */
};

struct ks_findings {
	struct ks_finding *v;
	size_t n, cap;
};

struct ks_check {
	const struct ks_schedule *sched;
	const struct ks_symvers *symvers;	/* NULL: none given */
	struct ks_target *target;		/* --target; NULL: none */
	const struct ks_forecast *forecast;	/* --target's, NULL: none */
	struct ks_migrations *migrations;	/* --target's, NULL: none */
	struct ks_check_opts opts;
	struct ks_findings found;
	struct { /* while a module is checked: its uses by symbol (rules.c) */
		const struct ks_use **v;
		size_t n;
		const struct ks_uses *of;
	} by_symbol;
};

/* Adds the module's findings to c->found. */
void ks_check_module(struct ks_check *c, const struct ks_module *m);
/* Whether use l of f is accepted in the source: it has a reason and f's
 * rule lets a use be accepted. */
bool ks_loc_accepted_in_source(const struct ks_finding *f, const struct ks_loc *l);
/* Whether use l of f counts for nothing: baselined or accepted in the source. */
bool ks_loc_accepted(const struct ks_finding *f, const struct ks_loc *l);
/* Whether f counts for nothing: every use accepted, by the baseline or in
 * the source (or, without a location, f baselined). */
bool ks_finding_accepted(const struct ks_finding *f);
/* The one-line message of a finding, without the module prefix. */
char *ks_finding_message(const struct ks_finding *f);
/* Whether some finding is about sym. */
bool ks_findings_have(const struct ks_findings *f, const char *sym);
/* Sorts findings by module, then symbol. */
void ks_findings_sort(struct ks_findings *f);
void ks_findings_free(struct ks_findings *f);

#endif
