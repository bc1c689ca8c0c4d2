/* The check report: the formats, one row each, and what every format
 * shares: the tally, the order of calls, and write errors, which make the
 * report fail rather than pass for a clean run; write errors of the other
 * commands' JSON documents too. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/writer.h"
#include "rules/target.h"

/* The formats; the row's index is its enum ks_format. */
static const struct ks_report_writer *const writers[] = {
	[KS_FORMAT_TEXT] = &ks_text_writer,
	[KS_FORMAT_JSON] = &ks_json_writer,
	[KS_FORMAT_SARIF] = &ks_sarif_writer,
};

#define NFORMATS KS_ARRAY_SIZE(writers)

int ks_format_parse(const char *s, enum ks_format *fmt)
{
	for (size_t i = 0; i < NFORMATS; i++) {
		if (strcmp(s, writers[i]->name) == 0) {
			*fmt = (enum ks_format)i;
			return 0;
		}
	}
	return -EINVAL;
}

struct ks_tally ks_report_tally(const struct ks_findings *f)
{
	struct ks_tally t = { 0 };

	for (size_t i = 0; i < f->n; i++) {
		if (f->v[i].baselined)
			t.baselined++;
		else if (ks_finding_accepted(&f->v[i]))
			t.accepted++;
		else if (f->v[i].sev == KS_ERROR)
			t.errors++;
		else
			t.warnings++;
	}
	return t;
}

/* The error of a write that failed, or 0. */
static int written(FILE *out)
{
	return ferror(out) ? -(errno ? errno : EIO) : 0;
}

int ks_report_begin(FILE *out, struct ks_report *rep)
{
	rep->written = 0;
	rep->tally = (struct ks_tally){ 0 };
	errno = 0;
	writers[rep->format]->begin(out, rep);
	return written(out);
}

int ks_report_findings(FILE *out, struct ks_report *rep, const struct ks_findings *fs)
{
	const struct ks_report_writer *w = writers[rep->format];
	struct ks_tally t = ks_report_tally(fs);

	rep->tally.errors += t.errors;
	rep->tally.warnings += t.warnings;
	rep->tally.baselined += t.baselined;
	rep->tally.accepted += t.accepted;
	rep->found = fs;
	for (size_t i = 0; i < fs->n; i++) {
		if (ks_finding_accepted(&fs->v[i]) && !w->baselined)
			continue;
		w->finding(out, rep, &fs->v[i]);
		rep->written++;
	}
	rep->found = NULL;
	return written(out);
}

int ks_report_outlook(FILE *out, struct ks_report *rep, const struct ks_outlook *o)
{
	const struct ks_report_writer *w = writers[rep->format];
	struct ks_buf b = KS_BUF_INIT;
	const char *state = ks_outlook_word(&b, o);

	if (!strcmp(state, "unknown")) {
		rep->tally.errors += rep->strict;
		rep->tally.warnings += !rep->strict;
	}
	if (w->outlook)
		w->outlook(out, rep, o, state, b.p);
	ks_buf_free(&b);
	return written(out);
}

const char *ks_outlook_severity(const struct ks_report *rep, const char *state)
{
	if (strcmp(state, "unknown"))
		return NULL;
	return rep->strict ? "error" : "warning";
}

/* The end of a report: the error of a write that failed, out flushed. */
static int flushed(FILE *out)
{
	int r = written(out);

	if (!r && fflush(out) != 0)
		r = -(errno ? errno : EIO);
	return r;
}

int ks_report_end(FILE *out, struct ks_report *rep)
{
	int r;

	writers[rep->format]->end(out, rep);
	r = flushed(out);
	ks_buf_free(&rep->outlooks);
	return r;
}

int ks_report_write(FILE *out, struct ks_report *rep, const struct ks_findings *f)
{
	int r = ks_report_begin(out, rep);

	r = r ? r : ks_report_findings(out, rep, f);
	return r ? r : ks_report_end(out, rep);
}

int ks_report_users(FILE *out, const struct ks_users_doc *doc)
{
	errno = 0;
	ks_json_users(out, doc);
	return flushed(out);
}

int ks_report_unused(FILE *out, const struct ks_unused_doc *doc)
{
	errno = 0;
	ks_json_unused(out, doc);
	return flushed(out);
}

int ks_report_diff(FILE *out, const struct ks_diff_doc *doc)
{
	errno = 0;
	ks_json_diff(out, doc);
	return flushed(out);
}
