/* The interface every report format implements: one writer per file
 * (text.c, json.c, sarif.c), one row per format in report.c. */
#ifndef KS_WRITER_H
#define KS_WRITER_H

#include <stdbool.h>
#include <stdio.h>

#include "report/report.h"

struct ks_report_writer {
	const char *name;		/* --format NAME */
	/* Also given the findings whose uses are all accepted (by the baseline
	 * or in the source), to show them as accepted (the text report leaves
	 * them out). */
	bool baselined;
	/* Each writes to out; write errors are found by report.c with
	 * ferror(). */
	void (*begin)(FILE *out, const struct ks_report *rep);
	/* rep->written counts the findings written before this one. */
	void (*finding)(FILE *out, const struct ks_report *rep, const struct ks_finding *f);
	/* check --target: a module's outlook (state and words), after its
	 * findings; NULL: the format leaves it out. */
	void (*outlook)(FILE *out, struct ks_report *rep, const struct ks_outlook *o,
			const char *state, const char *words);
	void (*end)(FILE *out, const struct ks_report *rep);
};

extern const struct ks_report_writer ks_text_writer, ks_json_writer, ks_sarif_writer;

/* The other commands' JSON documents (report.h), in json.c; write errors
 * are found by report.c, as for the writers. */
void ks_json_users(FILE *out, const struct ks_users_doc *doc);
void ks_json_unused(FILE *out, const struct ks_unused_doc *doc);
void ks_json_diff(FILE *out, const struct ks_diff_doc *doc);

#endif
