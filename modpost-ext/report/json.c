/* JSON: the helpers every subcommand's --format json shares, and the
 * check report's writer. Strings are escaped as RFC 8259 asks: quote,
 * backslash and every control character. */
#include <errno.h>
#include <stdlib.h>

#include "report/json.h"
#include "rules/target.h"
#include "forecast/forecast.h"
#include "report/writer.h"

void ks_json_str(FILE *out, const char *s)
{
	if (!s) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

char *ks_json_quote(const char *s)
{
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);

	if (!f)
		return NULL;
	ks_json_str(f, s);
	if (fclose(f) != 0) {
		free(p);
		return NULL;
	}
	return p;
}

void ks_json_locations(FILE *out, const struct ks_finding *f, bool accepts)
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
				l->baselined ? "true" : "false",
				ks_loc_accepted(f, l) ? "true" : "false");
			ks_json_str(out, l->accept_reason);
		}
		fputs("}", out);
	}
	fputs("]", out);
}

void ks_json_problems(FILE *out, const struct ks_diags *d)
{
	fputs("  \"input_errors\": [", out);
	for (size_t i = 0; d && i < d->n; i++) {
		char *s = ks_diag_format(&d->v[i]);

		fputs(i ? ", " : "", out);
		ks_json_str(out, s ? s : d->v[i].msg);
		free(s);
	}
	fputs("]\n", out);
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

static int json_finding(FILE *out, const struct ks_report *rep, const struct ks_finding *f)
{
	const struct ks_entry *e = f->entry;
	char *msg = ks_finding_message(f);

	if (!msg)
		return -ENOMEM;
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
		ks_finding_accepted(f) ? "true" : "false", f->baselined ? "true" : "false");
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
	if (f->diff)	/* check --target's forecast */
		json_break(out, f->diff);
	fputs(", \"message\": ", out);
	ks_json_str(out, msg);
	fputs(", ", out);
	ks_json_locations(out, f, true);
	fputs("}", out);
	free(msg);
	return 0;
}

/* Kept until the end, where "modules" follows the findings. */
static int json_outlook(FILE *out, struct ks_report *rep, const struct ks_outlook *o,
			const char *state, const char *words)
{
	char *m = ks_json_quote(o->module), *w = ks_json_quote(words);
	int r = m && w ? ks_buf_addf(&rep->outlooks, "%s\n    {\"module\": %s, \"outlook\": \"%s\", "
						       "\"places\": %zu, \"message\": %s}",
				     rep->outlooks.len ? "," : "", m, state,
				     o->places, w)
		       : -ENOMEM;

	(void)out;
	free(m);
	free(w);
	return r;
}

static int json_begin(FILE *out, const struct ks_report *rep)
{
	char today[KS_DATE_LEN];

	ks_date_format(rep->today, today);
	fprintf(out, "{\n  \"tool\": \"ksunset\", \"version\": \"%s\", \"today\": \"%s\",\n"
		     "  \"findings\": [\n",
		KS_VERSION, today);
	return 0;
}

static int json_end(FILE *out, const struct ks_report *rep)
{
	const struct ks_tally *t = &rep->tally;

	if (rep->outlooks.len)
		fprintf(out, "\n  ],\n  \"modules\": [%s\n", rep->outlooks.p);
	fprintf(out, "\n  ],\n  \"modules_checked\": %zu,\n"
		     "  \"summary\": {\"errors\": %zu, \"warnings\": %zu, \"baselined\": %zu, "
		     "\"accepted\": %zu},\n",
		rep->modules, t->errors, t->warnings, t->baselined, t->accepted);
	ks_json_problems(out, rep->problems);
	fputs("}\n", out);
	return 0;
}

const struct ks_report_writer ks_json_writer = {
	.name = "json",
	.baselined = true,
	.begin = json_begin,
	.finding = json_finding,
	.outlook = json_outlook,
	.end = json_end,
};
