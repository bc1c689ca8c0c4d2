/* Writing findings: text (modpost and GCC style), JSON, SARIF 2.1.0, each
 * a writer behind one interface (report/writer.h); and the JSON documents
 * of users, unused and diff. Every call returns 0 or the negative errno of
 * a write that failed. */
#ifndef KS_REPORT_H
#define KS_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "rules/rules.h"

enum ks_format {
	KS_FORMAT_TEXT,
	KS_FORMAT_JSON,
	KS_FORMAT_SARIF,
};

/* Findings by what they count for: a finding whose every use is accepted
 * is baselined if the baseline accepts them all, else accepted (in the
 * source, maybe partly by the baseline too). */
struct ks_tally {
	size_t errors, warnings, baselined, accepted;
};

/* A report is written as the modules are checked: begin, then each
 * module's findings, then end, so memory does not grow with the modules. */
struct ks_report {
	enum ks_format format;
	bool quiet;			/* text: errors only */
	bool strict;			/* an unknown outlook is an error, not a warning */
	bool targets;			/* several --target: SARIF's fingerprints name each */
	const char *source_root;	/* SARIF: URIs relative to this */
	int32_t today;
	size_t modules;			/* modules checked */
	const struct ks_diags *problems;	/* unusable inputs */
	struct ks_tally tally;		/* of the findings added so far */
	size_t written;			/* findings written so far */
	struct ks_buf outlooks;		/* JSON: the modules' outlooks so far */
	const struct ks_findings *found;	/* ks_report_findings()'s, while it writes */
	struct ks_sources *sources;	/* the module's whose findings are written: where
					 * a callback's fix-it finds its definition
					 * (ks_edit_use()); NULL: the use's file alone */
};

struct ks_outlook;
struct ks_sources;
struct ks_export;
struct ks_imports;
struct ks_kernel;
struct ks_changes;

struct ks_tally ks_report_tally(const struct ks_findings *f);
int ks_report_begin(FILE *out, struct ks_report *rep) KS_MUST_CHECK;
/* Writes the findings and tallies them; accepted ones (ks_finding_accepted)
 * are only counted for a writer that leaves them out. */
int ks_report_findings(FILE *out, struct ks_report *rep, const struct ks_findings *f) KS_MUST_CHECK;
/* check --target: a module's outlook, after its findings. An outlook of
 * "unknown" is counted as a warning (with strict, an error): a gate that
 * asks cannot pass on a guess. */
int ks_report_outlook(FILE *out, struct ks_report *rep, const struct ks_outlook *o) KS_MUST_CHECK;
/* What an outlook in state counts as: "warning", "error", or NULL (none). */
const char *ks_outlook_severity(const struct ks_report *rep, const char *state);
int ks_report_end(FILE *out, struct ks_report *rep) KS_MUST_CHECK;
/* begin, add, end. */
int ks_report_write(FILE *out, struct ks_report *rep, const struct ks_findings *f) KS_MUST_CHECK;
int ks_format_parse(const char *s, enum ks_format *fmt);

/* users --format json: for each symbol asked about, the modules that
 * import it and where. */
struct ks_users_doc {
	int32_t today;
	size_t modules;			/* modules scanned */
	char *const *syms;		/* asked about, in this order */
	size_t nsyms;
	const struct ks_findings *found;	/* sorted: a finding per user */
	const struct ks_diags *problems;	/* unusable inputs */
};

/* unused --format json: the exports listed, each with its importers. */
struct ks_unused_doc {
	int32_t today;
	size_t modules;			/* modules scanned */
	const char *owner;		/* --module OWNER; NULL: every export */
	bool counts;			/* --counts: every export, not only unused ones */
	const struct ks_export *const *list;
	size_t nlist;
	const struct ks_imports *imports;	/* the importers counted */
	const struct ks_diags *problems;
};

/* diff --format json: two kernels and their exports' changes. */
struct ks_diff_doc {
	const struct ks_kernel *old, *new;
	const struct ks_changes *changes;
	const struct ks_diags *problems;
};

/* Each writes its document whole and flushes out. */
int ks_report_users(FILE *out, const struct ks_users_doc *doc) KS_MUST_CHECK;
int ks_report_unused(FILE *out, const struct ks_unused_doc *doc) KS_MUST_CHECK;
int ks_report_diff(FILE *out, const struct ks_diff_doc *doc) KS_MUST_CHECK;

#endif
