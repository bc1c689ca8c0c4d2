/* Report writers. The text form mirrors modpost for the module-level line
 * and GCC for locations, so editors jump to them; JSON and SARIF carry the
 * same facts for machines. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "json.h"
#include "report.h"
#include "wording.h"

int ks_format_parse(const char *s, enum ks_format *fmt)
{
	static const char *const names[] = { "text", "json", "sarif" };

	for (int i = 0; i < 3; i++) {
		if (strcmp(s, names[i]) == 0) {
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
		else if (f->v[i].sev == KS_ERROR)
			t.errors++;
		else
			t.warnings++;
	}
	return t;
}

static void add_what(struct ks_buf *b, const struct ks_finding *f, int *r)
{
	const struct ks_entry *e = f->entry;

	*r |= ks_say_action(b, e, f->ev.status == KS_STATUS_OVERDUE);
	*r |= ks_say_days(b, &f->ev);
	if (e->when.kind == KS_WHEN_RELEASE && f->target)
		*r |= ks_buf_addf(b, " (target kernel %s)", f->target);
}

char *ks_finding_message(const struct ks_finding *f)
{
	struct ks_buf b = KS_BUF_INIT;
	int r = 0;

	if (f->removed) {
		r |= ks_buf_adds(&b, "is no longer exported by the kernel (");
		r |= ks_buf_addf(&b, "%s%s%s ", ks_action_name(f->entry->action),
				 f->entry->ns ? " " : "", f->entry->ns ? f->entry->ns : "");
		r |= ks_say_when(&b, &f->entry->when);
		r |= ks_buf_adds(&b, "): the module will not load");
		r |= ks_say_replace(&b, f->entry);
	} else {
		add_what(&b, f, &r);
		r |= ks_say_advice(&b, f->entry, f->license);
	}
	if (r) {
		ks_buf_free(&b);
		return NULL;
	}
	return ks_buf_steal(&b);
}

static const char *kind_phrase(enum ks_use_kind k)
{
	return k == KS_USE_CALL ? "call to" : k == KS_USE_ADDR ? "address of" : "use of";
}

static int write_text_finding(FILE *out, const struct ks_finding *f)
{
	char *msg = ks_finding_message(f);
	const char *sev = ks_severity_name(f->sev);
	const char *tag = f->rule + strlen("ksunset/");
	struct ks_buf when = KS_BUF_INIT;	/* the short form, for location lines */

	if (!msg || ks_say_tag(&when, f->entry) < 0) {
		free(msg);
		ks_buf_free(&when);
		return -ENOMEM;
	}
	fprintf(out, "%s: ksunset: \"%s\" [%s] %s\n", f->sev == KS_ERROR ? "ERROR" : "WARNING",
		f->symbol, f->module, msg);
	free(msg);
	for (size_t i = 0; i < f->nlocs; i++) {
		const struct ks_loc *l = &f->locs[i];

		fprintf(out, "%s:%u:%u: %s: %s '%s'", l->file, l->line, l->col, sev,
			kind_phrase(l->kind), f->symbol);
		if (l->function[0])
			fprintf(out, " in '%s'", l->function);
		fprintf(out, " (%s) [ksunset-%s]\n", when.p, tag);
	}
	ks_buf_free(&when);
	if (!f->nlocs)
		fprintf(out, "%s: note: no source location (module not built with the ksunset "
			     "plugin, or used from assembly)\n", f->module);
	return 0;
}


static int json_finding(FILE *out, const struct ks_finding *f)
{
	const struct ks_entry *e = f->entry;
	char *msg = ks_finding_message(f);

	if (!msg)
		return -ENOMEM;
	fputs("    {\"module\": ", out);
	ks_json_str(out, f->module);
	fputs(", \"module_name\": ", out);
	ks_json_str(out, f->module_name);
	fputs(", \"symbol\": ", out);
	ks_json_str(out, f->symbol);
	fprintf(out, ", \"action\": \"%s\", \"namespace\": ", ks_action_name(e->action));
	ks_json_str(out, e->ns);
	fprintf(out, ", \"when\": \"%s\", \"when_kind\": \"%s\", \"days_left\": ", e->when.text,
		e->when.kind == KS_WHEN_DATE ? "date" : "release");
	if (f->ev.have_days)
		fprintf(out, "%d", f->ev.days_left);
	else
		fputs("null", out);
	fprintf(out, ", \"status\": \"%s\", \"severity\": \"%s\", \"rule\": \"%s\", "
		     "\"baselined\": %s, \"replace\": ",
		f->removed ? "removed" : ks_status_name(f->ev.status), ks_severity_name(f->sev),
		f->rule, f->baselined ? "true" : "false");
	ks_json_str(out, e->replace);
	fputs(", \"target_release\": ", out);
	ks_json_str(out, f->target);
	fputs(", \"message\": ", out);
	ks_json_str(out, msg);
	fputs(", ", out);
	ks_json_locations(out, f->locs, f->nlocs);
	fputs("}", out);
	free(msg);
	return 0;
}


static const struct {
	const char *id, *text;
} sarif_rules[] = {
	{ "ksunset/scheduled", "A module uses an export that is scheduled for removal." },
	{ "ksunset/due-soon", "A module uses an export whose removal is due soon." },
	{ "ksunset/overdue", "A module uses an export whose removal date has passed." },
	{ "ksunset/removed", "A module uses an export that the kernel no longer has." },
};

/* A location's URI: relative to the source root when it lies below it. */
const char *ks_path_under(const char *file, const char *root)
{
	size_t n = root ? strlen(root) : 0;

	while (n > 1 && root[n - 1] == '/')
		n--;
	return n && !strncmp(file, root, n) && file[n] == '/' ? file + n + 1 : NULL;
}

static void sarif_artifact(FILE *out, const char *file, const char *root)
{
	const char *rel = ks_path_under(file, root);

	fputs("\"artifactLocation\": {\"uri\": ", out);
	ks_json_str(out, rel ? rel : file);
	fputs(rel ? ", \"uriBaseId\": \"SRCROOT\"}" : "}", out);
}

static void sarif_location(FILE *out, const struct ks_finding *f, size_t i, const char *root)
{
	fputs("{\"physicalLocation\": {", out);
	if (i < f->nlocs) {
		sarif_artifact(out, f->locs[i].file, root);
		fprintf(out, ", \"region\": {\"startLine\": %u", f->locs[i].line);
		if (f->locs[i].col)
			fprintf(out, ", \"startColumn\": %u", f->locs[i].col);
		fputs("}", out);
	} else {
		sarif_artifact(out, f->module, root);
	}
	fputs("}}", out);
}

static int sarif_result(FILE *out, const struct ks_finding *f, const char *root)
{
	char *msg = ks_finding_message(f);
	char *text = msg ? ks_strdupf("\"%s\" [%s] %s", f->symbol, f->module, msg) : NULL;

	free(msg);
	if (!text)
		return -ENOMEM;
	fprintf(out, "        {\"ruleId\": \"%s\", \"level\": \"%s\", \"message\": {\"text\": ",
		f->rule, f->sev == KS_ERROR ? "error" : "warning");
	ks_json_str(out, text);
	free(text);
	fputs("},\n         \"locations\": [", out);
	for (size_t i = 0; i < (f->nlocs ? f->nlocs : 1); i++) {
		fputs(i ? ", " : "", out);
		sarif_location(out, f, i, root);
	}
	fputs("],\n         \"partialFingerprints\": {\"ksunset/v1\": ", out);
	text = ks_strdupf("%s/%s", f->module_name, f->symbol);
	ks_json_str(out, text ? text : f->symbol);
	free(text);
	fputs("}}", out);
	return 0;
}

static void sarif_head(FILE *out, const struct ks_report *rep)
{
	fputs("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
	      "  \"version\": \"2.1.0\",\n  \"runs\": [{\n"
	      "    \"tool\": {\"driver\": {\"name\": \"ksunset\", \"version\": \"" KS_VERSION "\",\n"
	      "      \"rules\": [",
	      out);
	for (size_t i = 0; i < sizeof(sarif_rules) / sizeof(sarif_rules[0]); i++)
		fprintf(out, "%s\n        {\"id\": \"%s\", \"shortDescription\": {\"text\": \"%s\"}}",
			i ? "," : "", sarif_rules[i].id, sarif_rules[i].text);
	fputs("]}},\n", out);
	if (rep->source_root) {
		char *uri = ks_strdupf("file://%s/", rep->source_root);

		fputs("    \"originalUriBaseIds\": {\"SRCROOT\": {\"uri\": ", out);
		ks_json_str(out, uri ? uri : rep->source_root);
		fputs("}},\n", out);
		free(uri);
	}
}

static void json_begin(FILE *out, const struct ks_report *rep)
{
	char today[KS_DATE_LEN];

	ks_date_format(rep->today, today);
	fprintf(out, "{\n  \"tool\": \"ksunset\", \"version\": \"%s\", \"today\": \"%s\",\n"
		     "  \"findings\": [\n",
		KS_VERSION, today);
}

static void json_end(FILE *out, const struct ks_report *rep)
{
	const struct ks_tally *t = &rep->tally;

	fprintf(out, "\n  ],\n  \"modules_checked\": %zu,\n"
		     "  \"summary\": {\"errors\": %zu, \"warnings\": %zu, \"baselined\": %zu},\n",
		rep->modules, t->errors, t->warnings, t->baselined);
	ks_json_problems(out, rep->problems);
	fputs("}\n", out);
}

int ks_report_begin(FILE *out, struct ks_report *rep)
{
	rep->written = 0;
	rep->tally = (struct ks_tally){ 0 };
	if (rep->format == KS_FORMAT_JSON)
		json_begin(out, rep);
	else if (rep->format == KS_FORMAT_SARIF)
		sarif_head(out, rep);
	if (rep->format == KS_FORMAT_SARIF)
		fputs("    \"results\": [\n", out);
	return 0;
}

static int add_one(FILE *out, struct ks_report *rep, const struct ks_finding *f)
{
	switch (rep->format) {
	case KS_FORMAT_JSON:
		fputs(rep->written++ ? ",\n" : "", out);
		return json_finding(out, f);
	case KS_FORMAT_SARIF:
		fputs(rep->written++ ? ",\n" : "", out);
		return sarif_result(out, f, rep->source_root);
	case KS_FORMAT_TEXT:
		break;
	}
	if (rep->quiet && f->sev != KS_ERROR)
		return 0;
	rep->written++;
	return write_text_finding(out, f);
}

int ks_report_add(FILE *out, struct ks_report *rep, const struct ks_findings *fs)
{
	struct ks_tally t = ks_report_tally(fs);

	rep->tally.errors += t.errors;
	rep->tally.warnings += t.warnings;
	rep->tally.baselined += t.baselined;
	for (size_t i = 0; i < fs->n; i++)
		if (!fs->v[i].baselined && add_one(out, rep, &fs->v[i]) < 0)
			return -ENOMEM;
	return 0;
}

int ks_report_end(FILE *out, struct ks_report *rep)
{
	if (rep->format == KS_FORMAT_JSON)
		json_end(out, rep);
	else if (rep->format == KS_FORMAT_SARIF)
		fputs("\n    ]\n  }]\n}\n", out);
	return 0;
}

int ks_report_write(FILE *out, struct ks_report *rep, const struct ks_findings *f)
{
	int r = ks_report_begin(out, rep);

	r = r ? r : ks_report_add(out, rep, f);
	return r ? r : ks_report_end(out, rep);
}
