/* The diagnostics list and the one place that formats positions, so that
 * every part of ksunset prints them the same way GCC and sparse do. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array.h"
#include "buf.h"
#include "diag.h"

const char *ks_severity_name(enum ks_severity sev)
{
	switch (sev) {
	case KS_NOTE:
		return "note";
	case KS_WARNING:
		return "warning";
	case KS_ERROR:
		return "error";
	}
	return "error";
}

static void reserve(struct ks_diags *d)
{
	ks_array_room((void **)&d->v, &d->cap, d->n + 1, sizeof(*d->v));
}

void ks_diag_add(struct ks_diags *d, enum ks_severity sev, const char *file,
		 unsigned line, unsigned col, const char *fmt, ...)
{
	struct ks_buf b = KS_BUF_INIT;
	struct ks_diag *dg;
	va_list ap;

	reserve(d);
	va_start(ap, fmt);
	ks_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	dg = &d->v[d->n];
	dg->file = file ? ks_xstrdup(file) : NULL;
	dg->msg = ks_buf_steal(&b);
	dg->line = line;
	dg->col = col;
	dg->sev = sev;
	d->n++;
	d->nerrors += sev == KS_ERROR;
	d->nwarnings += sev == KS_WARNING;
}

char *ks_diag_format(const struct ks_diag *dg)
{
	struct ks_buf b = KS_BUF_INIT;

	if (dg->file)
		ks_buf_addf(&b, "%s:", dg->file);
	if (dg->file && dg->line)
		ks_buf_addf(&b, "%u:", dg->line);
	if (dg->file && dg->line && dg->col)
		ks_buf_addf(&b, "%u:", dg->col);
	if (dg->file)
		ks_buf_addc(&b, ' ');
	ks_buf_addf(&b, "%s: %s", ks_severity_name(dg->sev), dg->msg);
	return ks_buf_steal(&b);
}

void ks_diags_print(const struct ks_diags *d, FILE *out)
{
	for (size_t i = 0; i < d->n; i++) {
		char *s = ks_diag_format(&d->v[i]);

		/* position-less messages carry the program's name, as modpost's do */
		fprintf(out, "%s%s\n", d->v[i].file ? "" : "ksunset: ", s);
		free(s);
	}
}

static int by_position(const struct ks_diag *x, const struct ks_diag *y)
{
	int c = strcmp(x->file ? x->file : "", y->file ? y->file : "");

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* Insertion sort: stable, so messages at one position keep their order,
 * and the lists are short. */
void ks_diags_sort(struct ks_diags *d)
{
	for (size_t i = 1; i < d->n; i++) {
		struct ks_diag t = d->v[i];
		size_t j = i;

		for (; j > 0 && by_position(&d->v[j - 1], &t) > 0; j--)
			d->v[j] = d->v[j - 1];
		d->v[j] = t;
	}
}

void ks_diags_move(struct ks_diags *dst, struct ks_diags *src)
{
	for (size_t i = 0; i < src->n; i++) {
		reserve(dst);
		dst->v[dst->n++] = src->v[i];
		dst->nerrors += src->v[i].sev == KS_ERROR;
		dst->nwarnings += src->v[i].sev == KS_WARNING;
		src->v[i] = (struct ks_diag){ 0 };
	}
	ks_diags_free(src);
}

void ks_diags_free(struct ks_diags *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].file);
		free(d->v[i].msg);
	}
	free(d->v);
	memset(d, 0, sizeof(*d));
}
