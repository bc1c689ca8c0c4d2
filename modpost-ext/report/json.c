/* JSON: the check report's writer and the documents of users, unused and
 * diff, which share the escaping, the head and tail of a document, and
 * the source locations. Strings are escaped as RFC 8259 asks: quote,
 * backslash and every control character. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "report/escape.h"
#include "input/migrations.h"
#include "report/json.h"
#include "report/rewrite.h"
#include "rules/target.h"
#include "forecast/forecast.h"
#include "input/kernel.h"
#include "input/symdiff.h"
#include "report/writer.h"
#include "rules/imports.h"

void ks_json_str(FILE *out, const char *s)
{
	if (!s) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		int len = ks_utf8_len(p, 4);	/* the NUL ends a sequence early */

		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p == '\t')
			fputs("\\t", out);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\u%04x", *p);
		else if (len > 1)
			fwrite(p, 1, (size_t)len, out);
		else if (len == 1)
			fputc(*p, out);
		else	/* not UTF-8, or a C1 control: the replacement character */
			fputs("\\ufffd", out);
		p += len > 0 ? (size_t)len : 1;
	}
	fputc('"', out);
}

char *ks_json_quote(const char *s)
{
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);

	if (!f)
		ks_nomem();
	ks_json_str(f, s);
	if (fclose(f) != 0)
		ks_nomem();
	return p;
}

static const char *json_bool(bool b)
{
	return b ? "true" : "false";
}

/* "fix": the line of l rewritten as the break's fix and those of the
 * other breaks of all on it make it (ks_fix_line()), {"before": ...,
 * "after": ...}; null: the break's makes none of the line itself (a
 * callback's head, an #include), there is no single rewrite, or the line
 * would still name a member gone. */
static void json_line_fix(FILE *out, const struct ks_findings *all, const struct ks_finding *f,
			  const struct ks_loc *l)
{
	char *before, *after;

	fputs(", \"fix\": ", out);
	if (ks_fix_line(all, f, l, &before, &after) < 0) {
		fputs("null", out);
		return;
	}
	fputs("{\"before\": ", out);
	ks_json_str(out, before);
	fputs(", \"after\": ", out);
	ks_json_str(out, after);
	fputs("}", out);
	free(before);
	free(after);
}

/* "locations": [{"file": ..., "line": ..., "column": ..., "function": ...,
 * "kind": ..., "source": ...}] of f's uses, each with "baselined",
 * "accepted" (baselined, or accepted in the source) and "reason" (of
 * KSUNSET_ACCEPT in the source, or null) too if accepts is true, and
 * "fix" (json_line_fix(), with the other breaks of all) if the break has
 * one. */
static void json_locations(FILE *out, const struct ks_findings *all, const struct ks_finding *f,
			   bool accepts)
{
	fputs("\"locations\": [", out);
	for (size_t i = 0; i < f->nlocs; i++) {
		const struct ks_loc *l = &f->locs[i];

		fputs(i ? ", {\"file\": " : "{\"file\": ", out);
		ks_json_str(out, l->file);
		fprintf(out, ", \"line\": %u, \"column\": %u, \"function\": ", l->line, l->col);
		ks_json_str(out, l->function);
		fprintf(out, ", \"kind\": \"%s\", \"source\": \"%s\"", ks_use_kind_name(l->kind),
			ks_use_source_name(l->source));
		if (l->var) {
			fputs(", \"variable\": ", out);
			ks_json_str(out, l->var);
			fputs(", \"member\": ", out);
			ks_json_str(out, l->member ? l->member : "");
		}
		if (l->written_as) {
			fputs(", \"written_as\": ", out);
			ks_json_str(out, l->written_as);
		}
		if (l->note) {
			fputs(", \"compiler\": ", out);
			ks_json_str(out, l->note);
		}
		if (accepts) {
			fprintf(out, ", \"baselined\": %s, \"accepted\": %s, \"reason\": ",
				json_bool(l->baselined), json_bool(ks_loc_accepted(f, l)));
			ks_json_str(out, l->accept_reason);
		}
		if (f->fix && all)
			json_line_fix(out, all, f, l);
		fputs("}", out);
	}
	fputs("]", out);
}

/* A document's head: "{", the tool, its version, the command (NULL: check)
 * and the date taken as today, if dated; its members follow. */
static void doc_begin(FILE *out, const char *command, bool dated, int32_t today)
{
	char date[KS_DATE_LEN];

	fprintf(out, "{\n  \"tool\": \"ksunset\", \"version\": \"%s\"", KS_VERSION);
	if (command)
		fprintf(out, ", \"command\": \"%s\"", command);
	if (dated) {
		ks_date_format(today, date);
		fprintf(out, ", \"today\": \"%s\"", date);
	}
	fputs(",\n", out);
}

/* Its tail: "input_errors", each diagnostic as its formatted line, and "}". */
static void doc_end(FILE *out, const struct ks_diags *d)
{
	fputs("  \"input_errors\": [", out);
	for (size_t i = 0; d && i < d->n; i++) {
		char *s = ks_diag_format(&d->v[i]);

		fputs(i ? ", " : "", out);
		ks_json_str(out, s ? s : d->v[i].msg);
		free(s);
	}
	fputs("]\n}\n", out);
}

/* One rewrite of in-tree code: what it made, at how many sites, one (and
 * its text where the source is at hand). */
static void json_rewrite(FILE *out, const struct ks_migrations *ms, const struct ks_rewrite *rw)
{
	char *text = ks_migration_example_text(ms, rw);

	fprintf(out, "{\"op\": \"%s\", \"argument\": ", ks_rewrite_op_name(rw->op));
	if (rw->op != KS_RW_DROP && rw->op != KS_RW_INSERT && rw->op != KS_RW_CONST &&
	    rw->op != KS_RW_RETYPE && rw->op != KS_RW_REPLACE && rw->op != KS_RW_LOCAL &&
	    rw->op != KS_RW_WRAP)
		fputs("null", out);
	else
		fprintf(out, "%u", rw->arg);
	if (rw->op == KS_RW_LOCAL)	/* the parameter its function is called with */
		fprintf(out, ", \"parameter\": %u", rw->param);
	fputs(", \"text\": ", out);
	ks_json_str(out, rw->text);
	fputs(", \"from\": ", out);
	ks_json_str(out, rw->from);
	fprintf(out, ", \"count\": %u, \"example\": ", rw->count);
	ks_json_str(out, rw->example);
	fputs(", \"example_text\": ", out);
	ks_json_str(out, text);
	fputc('}', out);
	free(text);
}

/* What in-tree code wrote instead (ksunset.migrations(5)); null: nothing
 * known. before and after: the header's name, or the call at the first
 * location that has it, rewritten; null when in-tree code shows no single
 * rewrite ("rewrites" then has the two most common). basis: "in-tree", or
 * "target-headers" for the #include of the target's header that declares
 * a name no in-tree #include was added for (count 0, no example). */
static void json_fix(FILE *out, const struct ks_report *rep, const struct ks_finding *f)
{
	const struct ks_rewrite *rw;
	struct ks_edit ed = { 0 };
	const char *at;
	bool have = false;
	char *s;

	fputs(", \"fix\": ", out);
	if (!f->fix) {
		fputs("null", out);
		return;
	}
	rw = ks_migration_rewrite(f->fix);
	fputs("{\"before\": ", out);
	if (rw && !f->fix->call) {
		s = ks_strdupf("<%s>", f->fix->name);
		ks_json_str(out, s);
		free(s);
		s = ks_strdupf("<%s>", rw->text);
		fputs(", \"after\": ", out);
		ks_json_str(out, s);
		free(s);
	} else {
		for (size_t i = 0; rw && !have && i < f->nlocs; i++) {
			const struct ks_loc *l = &f->locs[i];

			have = ks_migration_at(f->fixes, f->fix, l->file, l->line) == f->fix &&
			       !ks_edit_use(f->fix, rw, f, l->file, l->line, rep->sources, &at, &ed);
		}
		ks_json_str(out, have ? ed.before : NULL);
		fputs(", \"after\": ", out);
		ks_json_str(out, have ? ed.after : NULL);
		ks_edit_free(&ed);
	}
	fprintf(out, ", \"single\": %s, \"basis\": \"%s\", \"count\": %u, \"of\": %u, \"from\": ",
		json_bool(rw != NULL), f->fix->target ? "target-headers" : "in-tree",
		f->fix->rw[0].count, f->fix->of);
	ks_json_str(out, f->fixes->from);
	fputs(", \"to\": ", out);
	ks_json_str(out, f->fixes->to);
	fputs(", \"example\": ", out);
	ks_json_str(out, f->fix->rw[0].example);
	fputs(", \"rewrites\": [", out);
	for (unsigned i = 0; i < f->fix->nrw; i++) {
		fputs(i ? ", " : "", out);
		json_rewrite(out, f->fixes, &f->fix->rw[i]);
	}
	fputs("]}", out);
}

/* A break of the build: its kind, shapes and where the target has it. */
static void json_break(FILE *out, const struct ks_diff *d)
{
	fprintf(out, ", \"kind\": \"%s\", \"old\": ", ks_break_name(d->kind));
	ks_json_str(out, *d->old ? d->old : NULL);
	fputs(", \"new\": ", out);
	ks_json_str(out, *d->now ? d->now : NULL);
	fputs(", \"header\": ", out);
	ks_json_str(out, d->header);
	fputs(", \"callback\": ", out);
	ks_json_str(out, d->callback);
}

static void json_finding(FILE *out, const struct ks_report *rep, const struct ks_finding *f)
{
	const struct ks_entry *e = f->entry;
	char *msg = ks_finding_message(f);

	fputs(rep->written ? ",\n    {\"module\": " : "    {\"module\": ", out);
	ks_json_str(out, f->module);
	fputs(", \"module_name\": ", out);
	ks_json_str(out, f->module_name);
	fputs(", \"symbol\": ", out);
	ks_json_str(out, f->symbol);
	if (e) {
		fprintf(out, ", \"action\": \"%s\", \"namespace\": ", ks_action_name(e->action));
		ks_json_str(out, e->ns);
		fprintf(out, ", \"when\": \"%s\", \"when_kind\": \"%s\", \"days_left\": ",
			e->when.text, e->when.kind == KS_WHEN_DATE ? "date" : "release");
	} else {	/* not scheduled: a finding from Module.symvers alone */
		fputs(", \"action\": null, \"namespace\": null, \"when\": null, "
		      "\"when_kind\": null, \"days_left\": ", out);
	}
	if (f->ev.have_days)
		fprintf(out, "%d", f->ev.days_left);
	else
		fputs("null", out);
	fprintf(out, ", \"status\": \"%s\", \"severity\": \"%s\", \"rule\": \"%s\", "
		     "\"accepted\": %s, \"baselined\": %s, \"replace\": ",
		f->rule->status, ks_severity_name(f->sev), f->rule->id,
		json_bool(ks_finding_accepted(f)), json_bool(f->baselined));
	ks_json_str(out, e ? e->replace : NULL);
	fputs(", \"target_release\": ", out);
	ks_json_str(out, f->target);
	if (f->rule->target_status) {	/* check --target */
		fprintf(out, ", \"target_status\": \"%s\", \"remedy\": \"%s\", \"remedy_why\": ",
			f->rule->target_status, ks_remedy_name(f->remedy));
		ks_json_str(out, f->remedy_why);
		fputs(", \"written_as\": [", out);
		for (size_t i = 0; i < f->nwritten; i++) {
			fputs(i ? ", " : "", out);
			ks_json_str(out, f->written_as[i]);
		}
		fputs("]", out);
	}
	if (f->diff) {	/* check --target's forecast */
		json_break(out, f->diff);
		json_fix(out, rep, f);
	}
	fputs(", \"message\": ", out);
	ks_json_str(out, msg);
	fputs(", ", out);
	json_locations(out, rep->found, f, true);
	fputs("}", out);
	free(msg);
}

/* Kept until the end, where "modules" follows the findings. */
static void json_outlook(FILE *out, struct ks_report *rep, const struct ks_outlook *o,
			 const char *state, const char *words)
{
	char *m = ks_json_quote(o->module), *w = ks_json_quote(words);
	char *t = o->release ? ks_json_quote(o->release) : ks_xstrdup("null");
	const char *sev = ks_outlook_severity(rep, state);

	(void)out;
	ks_buf_addf(&rep->outlooks,
		    "%s\n    {\"module\": %s, \"target\": %s, \"outlook\": \"%s\", "
		    "\"places\": %zu, \"unjudged\": %zu, \"severity\": %s%s%s, "
		    "\"message\": %s}",
		    rep->outlooks.len ? "," : "", m, t, state, o->places, o->unjudged,
		    sev ? "\"" : "", sev ? sev : "null", sev ? "\"" : "", w);
	free(m);
	free(w);
	free(t);
}

static void json_begin(FILE *out, const struct ks_report *rep)
{
	doc_begin(out, NULL, true, rep->today);
	fputs("  \"findings\": [\n", out);
}

static void json_end(FILE *out, const struct ks_report *rep)
{
	const struct ks_tally *t = &rep->tally;

	if (rep->outlooks.len)
		fprintf(out, "\n  ],\n  \"modules\": [%s\n", rep->outlooks.p);
	fprintf(out, "\n  ],\n  \"modules_checked\": %zu,\n"
		     "  \"summary\": {\"errors\": %zu, \"warnings\": %zu, \"baselined\": %zu, "
		     "\"accepted\": %zu},\n",
		rep->modules, t->errors, t->warnings, t->baselined, t->accepted);
	doc_end(out, rep->problems);
}

const struct ks_report_writer ks_json_writer = {
	.name = "json",
	.baselined = true,
	.begin = json_begin,
	.finding = json_finding,
	.outlook = json_outlook,
	.end = json_end,
};

/* users: a user of a symbol, a module with the locations of its uses. */
static void json_user(FILE *out, const struct ks_finding *f, bool first)
{
	fputs(first ? "\n      {\"module\": " : ",\n      {\"module\": ", out);
	ks_json_str(out, f->module);
	fputs(", \"module_name\": ", out);
	ks_json_str(out, f->module_name);
	fputs(", ", out);
	json_locations(out, NULL, f, false);
	fputs("}", out);
}

static void json_symbol(FILE *out, const struct ks_findings *fs, const char *sym, bool last)
{
	size_t n = 0;

	fputs("    {\"symbol\": ", out);
	ks_json_str(out, sym);
	fputs(", \"users\": [", out);
	for (size_t i = 0; i < fs->n; i++)
		if (!strcmp(fs->v[i].symbol, sym))
			json_user(out, &fs->v[i], n++ == 0);
	fprintf(out, "%s]}%s\n", n ? "\n    " : "", last ? "" : ",");
}

void ks_json_users(FILE *out, const struct ks_users_doc *doc)
{
	doc_begin(out, "users", true, doc->today);
	fprintf(out, "  \"modules_scanned\": %zu,\n  \"symbols\": [\n", doc->modules);
	for (size_t i = 0; i < doc->nsyms; i++)
		json_symbol(out, doc->found, doc->syms[i], i + 1 == doc->nsyms);
	fputs("  ],\n", out);
	doc_end(out, doc->problems);
}

void ks_json_unused(FILE *out, const struct ks_unused_doc *doc)
{
	doc_begin(out, "unused", true, doc->today);
	fprintf(out, "  \"modules_scanned\": %zu, \"owner\": ", doc->modules);
	ks_json_str(out, doc->owner);
	fprintf(out, ", \"counts\": %s,\n  \"exports\": [\n", json_bool(doc->counts));
	for (size_t i = 0; i < doc->nlist; i++) {
		const struct ks_export *e = doc->list[i];

		fputs("    {\"symbol\": ", out);
		ks_json_str(out, e->symbol);
		fprintf(out, ", \"type\": \"%s\", \"namespace\": ", e->type);
		ks_json_str(out, e->ns[0] ? e->ns : NULL);
		fputs(", \"module\": ", out);
		ks_json_str(out, e->module);
		fprintf(out, ", \"users\": %zu}%s\n", ks_imports_count(doc->imports, e->symbol),
			i + 1 < doc->nlist ? "," : "");
	}
	fputs("  ],\n", out);
	doc_end(out, doc->problems);
}

/* diff: "old_owner": ..., "old_type": ..., "old_namespace": ... (null when
 * the export is not on that side) */
static void json_side(FILE *out, const char *side, const struct ks_export *e)
{
	fprintf(out, ", \"%s_owner\": ", side);
	ks_json_str(out, e ? e->module : NULL);
	fprintf(out, ", \"%s_type\": ", side);
	ks_json_str(out, e ? e->type : NULL);
	fprintf(out, ", \"%s_namespace\": ", side);
	ks_json_str(out, e && e->ns[0] ? e->ns : NULL);
}

static void json_kernel(FILE *out, const char *name, const struct ks_kernel *k)
{
	fprintf(out, "  \"%s\": {\"path\": ", name);
	ks_json_str(out, k->arg);
	fputs(", \"symvers\": ", out);
	ks_json_str(out, k->symvers);
	fputs(", \"release\": ", out);
	ks_json_str(out, k->release);
	fprintf(out, ", \"exports\": %zu},\n", k->sv.n);
}

static void json_change(FILE *out, const struct ks_change *c, bool last)
{
	fputs("    {\"symbol\": ", out);
	ks_json_str(out, c->symbol);
	fprintf(out, ", \"change\": \"%s\"", ks_change_name(c->kind));
	json_side(out, "old", c->old);
	json_side(out, "new", c->new);
	fprintf(out, ", \"breaks_modules\": %s, \"removal_for_other_modules\": %s}%s\n",
		json_bool(ks_change_breaks(c)),
		json_bool(c->kind == KS_CHANGE_REMOVED || ks_change_is_removal(c)), last ? "" : ",");
}

void ks_json_diff(FILE *out, const struct ks_diff_doc *doc)
{
	const struct ks_changes *ch = doc->changes;

	doc_begin(out, "diff", false, 0);
	json_kernel(out, "old", doc->old);
	json_kernel(out, "new", doc->new);
	fputs("  \"summary\": {", out);
	for (int k = 0; k < KS_CHANGE_NKINDS; k++)
		fprintf(out, "%s\"%s\": %zu", k ? ", " : "", ks_change_name(k), ch->count[k]);
	fputs("},\n  \"changes\": [\n", out);
	for (size_t i = 0; i < ch->n; i++)
		json_change(out, &ch->v[i], i + 1 == ch->n);
	fputs("  ],\n", out);
	doc_end(out, doc->problems);
}
