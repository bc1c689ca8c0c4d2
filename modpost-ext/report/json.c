/* JSON output helpers. Strings are escaped as RFC 8259 asks: quote,
 * backslash and every control character. */
#include <stdlib.h>

#include "report/json.h"

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

void ks_json_locations(FILE *out, const struct ks_loc *locs, size_t n)
{
	fputs("\"locations\": [", out);
	for (size_t i = 0; i < n; i++) {
		const struct ks_loc *l = &locs[i];

		fputs(i ? ", {\"file\": " : "{\"file\": ", out);
		ks_json_str(out, l->file);
		fprintf(out, ", \"line\": %u, \"column\": %u, \"function\": ", l->line, l->col);
		ks_json_str(out, l->function);
		fprintf(out, ", \"kind\": \"%s\", \"source\": \"%s\"}", ks_use_kind_name(l->kind),
			ks_use_source_name(l->source));
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
