/* SARIF 2.1.0, for code-scanning upload: one run, the rules from the rule
 * table, one result per finding with its source locations. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "report/json.h"
#include "report/writer.h"

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

static int sarif_result(FILE *out, const struct ks_report *rep, const struct ks_finding *f)
{
	const char *root = rep->source_root;
	char *msg = ks_finding_message(f);
	char *text = msg ? ks_strdupf("\"%s\" [%s] %s", f->symbol, f->module, msg) : NULL;

	free(msg);
	if (!text)
		return -ENOMEM;
	fputs(rep->written ? ",\n" : "", out);
	fprintf(out, "        {\"ruleId\": \"%s\", \"level\": \"%s\", \"message\": {\"text\": ",
		f->rule->id, f->sev == KS_ERROR ? "error" : "warning");
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

static int sarif_begin(FILE *out, const struct ks_report *rep)
{
	fputs("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
	      "  \"version\": \"2.1.0\",\n  \"runs\": [{\n"
	      "    \"tool\": {\"driver\": {\"name\": \"ksunset\", \"version\": \"" KS_VERSION "\",\n"
	      "      \"rules\": [",
	      out);
	for (size_t i = 0; i < ks_nrules; i++)
		fprintf(out, "%s\n        {\"id\": \"%s\", \"shortDescription\": {\"text\": \"%s\"}}",
			i ? "," : "", ks_rules[i].id, ks_rules[i].sarif_text);
	fputs("]}},\n", out);
	if (rep->source_root) {
		char *uri = ks_strdupf("file://%s/", rep->source_root);

		fputs("    \"originalUriBaseIds\": {\"SRCROOT\": {\"uri\": ", out);
		ks_json_str(out, uri ? uri : rep->source_root);
		fputs("}},\n", out);
		free(uri);
	}
	fputs("    \"results\": [\n", out);
	return 0;
}

static int sarif_end(FILE *out, const struct ks_report *rep)
{
	(void)rep;
	fputs("\n    ]\n  }]\n}\n", out);
	return 0;
}

const struct ks_report_writer ks_sarif_writer = {
	.name = "sarif",
	.begin = sarif_begin,
	.finding = sarif_result,
	.end = sarif_end,
};
