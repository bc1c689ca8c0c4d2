/* The text report: a modpost-style line per finding, then a GCC-style line
 * per source location, so people and editors both read it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "forecast/forecast.h"
#include "input/migrations.h"
#include "report/column.h"
#include "report/json.h"
#include "report/rewrite.h"
#include "report/writer.h"
#include "rules/target.h"
#include "wording.h"

static const char *kind_phrase(enum ks_use_kind k)
{
	return k == KS_USE_CALL ? "call to" : k == KS_USE_ADDR ? "address of" : "use of";
}

static void location_line(FILE *out, const struct ks_finding *f, const struct ks_loc *l,
			  const char *tag)
{
	fprintf(out, "%s:%u:", l->file, l->line);
	if (l->col)	/* DWARF may have none */
		fprintf(out, "%u:", l->col);
	fprintf(out, " %s: %s '%s'", ks_severity_name(f->sev), kind_phrase(l->kind), f->symbol);
	if (l->var)
		fprintf(out, " in the initializer of '%s'%s%s%s", l->var, l->member[0] ? " (" : "",
			l->member, l->member[0] ? ")" : "");
	else if (l->function[0])
		fprintf(out, " in '%s'", l->function);
	fprintf(out, " (%s) [ksunset-%s]\n", tag, f->rule->id + strlen("ksunset/"));
}

/* What in-tree code wrote instead, at l: a note, and GCC's parseable
 * fix-it (-fdiagnostics-parseable-fixits) when it is one rewrite that the
 * line still has what it rewrites. */
static void fix_it(FILE *out, const struct ks_report *rep, const struct ks_finding *f,
		   const struct ks_loc *l)
{
	const struct ks_migration *e = ks_migration_at(f->fixes, f->fix, l->file, l->line);
	const struct ks_rewrite *rw = e ? ks_migration_rewrite(e) : NULL;
	struct ks_buf words = KS_BUF_INIT;
	struct ks_edit ed;
	const char *at = l->file;
	int r = rw ? ks_edit_use(e, rw, f, l->file, l->line, rep->sources, &at, &ed) : -ERANGE;

	ks_fix_words(&words, e ? e : f->fix, f->fixes);
	if (r < 0) {
		if (rw || !e) {
			ks_buf_adds(&words, " (the line ");
			ks_edit_missing(&words, f->fix, rw ? rw : &f->fix->rw[0]);
			ks_buf_adds(&words, ": no fix-it)");
		}
		fprintf(out, "%s:%u: note: %s\n", l->file, l->line, words.p);
		ks_buf_free(&words);
		return;
	}
	/* a callback's: at its definition, in the use's file or another */
	fprintf(out, "%s:%u:%u: note: %s\n", at, ed.line, ed.dcol[0], words.p);
	fputs("fix-it:", out);
	ks_json_str(out, at);
	/* GCC's parseable fix-its count bytes, from 1 */
	fprintf(out, ":{%u:%zu-%u:%zu}:", ed.line, ed.at[0] + 1, ed.line, ed.at[1] + 1);
	ks_json_str(out, ed.with);
	fputc('\n', out);
	if (ed.local) {		/* and the local, after the body's '{' */
		char *line = ks_strdupf("\n%s", ed.local);

		fputs("fix-it:", out);
		ks_json_str(out, at);
		fprintf(out, ":{%u:%zu-%u:%zu}:", ed.local_line, ed.local_at + 1, ed.local_line,
			ed.local_at + 1);
		ks_json_str(out, line);
		fputc('\n', out);
		free(line);
	}
	ks_edit_free(&ed);
	ks_buf_free(&words);
}

static char *hinted;		/* the module last given a no-location note */

static void text_finding(FILE *out, const struct ks_report *rep, const struct ks_finding *f)
{
	struct ks_buf tag = KS_BUF_INIT;
	char *msg;

	if (rep->quiet && f->sev != KS_ERROR)
		return;
	msg = ks_finding_message(f);
	f->rule->tag(&tag, f);
	fprintf(out, "%s: ksunset: \"%s\" [%s] %s\n", f->sev == KS_ERROR ? "ERROR" : "WARNING",
		f->symbol, f->module, msg);
	for (size_t i = 0; i < f->nlocs; i++) {
		const struct ks_loc *l = &f->locs[i];

		if (ks_loc_accepted(f, l))
			continue;
		location_line(out, f, l, tag.p);
		if (f->fix)
			fix_it(out, rep, f, l);
		if (l->note && l->col)	/* the forecast's probe: what the compiler said */
			fprintf(out, "%s:%u:%u: note: the compiler says: %s\n", l->file, l->line,
				l->col, l->note);
		else if (l->note)
			fprintf(out, "%s:%u: note: the compiler says: %s\n", l->file, l->line,
				l->note);
	}
	/* a finding without a location: the reason once per module (the
	 * findings come sorted by module); the compiler's imports have none
	 * by rule, and say nothing */
	if (!f->nlocs && !f->generated && (!hinted || strcmp(hinted, f->module))) {
		free(hinted);
		hinted = ks_xstrdup(f->module);
		if (f->other_schedule)
			fprintf(out, "%s: note: built with another schedule: rebuild with ksunset "
				     "make to locate the new entries\n", f->module);
		else if (f->rule->target_status && f->plugin)
			fprintf(out, "%s: note: no source location (the plugin records the "
				     "symbols of the schedule it builds with: build with the "
				     "schedule of ksunset diff --schedule-out for this target)\n",
				f->module);
		else if (!f->plugin && f->no_debug_info)
			fprintf(out, "%s: note: no source location (not built with the ksunset "
				     "plugin, and no DWARF: stripped? see --debug-dir)\n", f->module);
		else if (!f->plugin)
			fprintf(out, "%s: note: no source location (module not built with the "
				     "ksunset plugin)\n", f->module);
		else
			fprintf(out, "%s: note: no source location (used from assembly)\n",
				f->module);
	}
	free(msg);
	ks_buf_free(&tag);
}

/* "ksunset: vpoll.ko on 6.12.95+deb12-amd64: needs source changes: ..." */
static void text_outlook(FILE *out, struct ks_report *rep, const struct ks_outlook *o,
			 const char *state, const char *words)
{
	const char *sev = ks_outlook_severity(rep, state);

	fprintf(out, "%s%sksunset: %s on %s: %s\n", sev ? (*sev == 'e' ? "ERROR" : "WARNING") : "",
		sev ? ": " : "", o->module, o->release ? o->release : "the target", words);
}

static void text_begin(FILE *out, const struct ks_report *rep)
{
	(void)out;
	(void)rep;
	free(hinted);
	hinted = NULL;
}

static void text_end(FILE *out, const struct ks_report *rep)
{
	text_begin(out, rep);
}

const struct ks_report_writer ks_text_writer = {
	.name = "text",
	.begin = text_begin,
	.finding = text_finding,
	.outlook = text_outlook,
	.end = text_end,
};
