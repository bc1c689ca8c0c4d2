/* Collected diagnostics with positions. Parsers add to a list instead of
 * printing, so callers decide where messages go and the tests can read them. */
#ifndef KS_DIAG_H
#define KS_DIAG_H

#include <stdio.h>

#include "compiler.h"

KS_BEGIN_DECLS

enum ks_severity {
	KS_NOTE,
	KS_WARNING,
	KS_ERROR,
};

struct ks_diag {
	char *file;		/* NULL: no position (a program-level message) */
	unsigned line;		/* 0: no line */
	unsigned col;		/* 0: no column */
	enum ks_severity sev;
	char *msg;
};

struct ks_diags {
	struct ks_diag *v;
	size_t n;
	size_t cap;
	size_t nerrors;
	size_t nwarnings;
};

void ks_diag_add(struct ks_diags *d, enum ks_severity sev, const char *file,
		 unsigned line, unsigned col, const char *fmt, ...) KS_PRINTF(6, 7);
/* "FILE:LINE:COL: error: MSG" (parts without a value left out). */
char *ks_diag_format(const struct ks_diag *dg);
/* Orders by file name, then line; stable. */
void ks_diags_sort(struct ks_diags *d);
void ks_diags_print(const struct ks_diags *d, FILE *out);
/* Moves every diagnostic of src to the end of dst; src is left empty. */
void ks_diags_move(struct ks_diags *dst, struct ks_diags *src);
void ks_diags_free(struct ks_diags *d);
const char *ks_severity_name(enum ks_severity sev);

KS_END_DECLS

#endif
