/* Writing findings: text (modpost and GCC style), JSON, SARIF 2.1.0. */
#ifndef KS_REPORT_H
#define KS_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "check.h"

enum ks_format {
	KS_FORMAT_TEXT,
	KS_FORMAT_JSON,
	KS_FORMAT_SARIF,
};

struct ks_report {
	enum ks_format format;
	bool quiet;			/* text: errors only */
	const char *source_root;	/* SARIF: URIs relative to this */
	int32_t today;
	size_t modules;			/* modules checked */
	const struct ks_diags *problems;	/* unusable inputs */
};

struct ks_tally {
	size_t errors, warnings, baselined;
};

struct ks_tally ks_report_tally(const struct ks_findings *f);
int ks_report_write(FILE *out, const struct ks_report *rep, const struct ks_findings *f);
/* The one-line message of a finding, without the module prefix. */
char *ks_finding_message(const struct ks_finding *f);
int ks_format_parse(const char *s, enum ks_format *fmt);

#endif
