/* ksunset fix's patch: for each #include of a header gone on the target
 * that in-tree code replaced, the line kept for older kernels and the new
 * one for the target's, chosen by LINUX_VERSION_CODE:
 *
 *	#include <linux/version.h>
 *	#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
 *	#include <linux/unaligned.h>
 *	#else
 *	#include <asm/unaligned.h>
 *	#endif
 *
 * as a unified diff that `patch -p1` applies in the directory it ran in. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "array.h"
#include "buf.h"
#include "cmd/fix.h"
#include "forecast/forecast.h"
#include "input/migrations.h"
#include "report/column.h"

#define CONTEXT 3		/* lines around a change, as diff -u */

void ks_fixes_collect(struct ks_fixes *fx, const struct ks_findings *found)
{
	for (size_t i = 0; i < found->n; i++) {
		const struct ks_finding *f = &found->v[i];

		if (!f->diff)
			continue;
		for (size_t k = 0; k < f->nlocs; k++) {
			const struct ks_loc *l = &f->locs[k];

			if (!f->fix) {
				char *s = ks_strdupf("%s:%u: %s %s", l->file, l->line,
						     ks_break_name(f->diff->kind), f->symbol);

				ks_strv_add_unique(&fx->left, &fx->nleft, s);
				free(s);
				continue;
			}
			ks_array_grow((void **)&fx->v, fx->n, 1, sizeof(*fx->v));
			fx->v[fx->n++] = (struct ks_fix_site){ ks_xstrdup(l->file), l->line, f->fix,
							       f->fixes->to };
		}
	}
}

static int cmp_site(const void *a, const void *b)
{
	const struct ks_fix_site *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	return c ? c : x->line < y->line ? -1 : x->line > y->line;
}

/* A file's lines: where each starts and its length, without its '\n'. */
struct lines {
	struct ks_buf text;
	const char **p;
	size_t *len, n;
	bool eol;		/* the last line ends with '\n' */
};

static int read_lines(struct lines *ls, const char *path)
{
	int e = ks_buf_read_file(&ls->text, path);

	if (e < 0)
		return e;
	for (size_t at = 0; at < ls->text.len;) {
		const char *s = ls->text.p + at, *nl = memchr(s, '\n', ls->text.len - at);
		size_t len = nl ? (size_t)(nl - s) : ls->text.len - at;

		ks_array_grow((void **)&ls->p, ls->n, 1, sizeof(*ls->p));
		ks_array_grow((void **)&ls->len, ls->n, 1, sizeof(*ls->len));
		ls->p[ls->n] = s;
		ls->len[ls->n++] = len;
		ls->eol = nl != NULL;
		at += len + 1;
	}
	return 0;
}

static void free_lines(struct lines *ls)
{
	ks_buf_free(&ls->text);
	free(ls->p);
	free(ls->len);
}

/* A line of a hunk. */
static void hunk_line(struct ks_buf *b, char mark, const char *s, size_t len)
{
	ks_buf_addc(b, mark);
	ks_buf_add(b, s, len);
	ks_buf_addc(b, '\n');
}

/* The replacement of line k (the site's): the old line for older kernels,
 * the header's name replaced for the newer one. */
static void rewrite(struct ks_buf *b, const struct lines *ls, size_t k, long at,
		    const struct ks_fix_site *s)
{
	unsigned major = 0, minor = 0;

	if (sscanf(s->to, "%u.%u", &major, &minor) != 2)
		major = minor = 0;
	ks_buf_adds(b, "+#include <linux/version.h>\n");
	ks_buf_addf(b, "+#if LINUX_VERSION_CODE >= KERNEL_VERSION(%u, %u, 0)\n", major, minor);
	ks_buf_addc(b, '+');
	ks_buf_add(b, ls->p[k], (size_t)at);
	ks_buf_adds(b, s->m->instead);
	ks_buf_add(b, ls->p[k] + at + strlen(s->m->header),
		   ls->len[k] - (size_t)at - strlen(s->m->header));
	ks_buf_adds(b, "\n+#else\n");
	hunk_line(b, '+', ls->p[k], ls->len[k]);
	ks_buf_adds(b, "+#endif\n");
}

/* The hunks of one file: sites v[0..n) (sorted, 0-based lines in at[]
 * with the header's offset in off[], -1 for those left out). */
static void hunks(struct ks_buf *b, const struct lines *ls, const struct ks_fix_site *v,
		  const long *off, size_t n)
{
	long delta = 0;

	for (size_t i = 0; i < n;) {
		size_t first, last, j = i, olds, news;

		if (off[i] < 0) {
			i++;
			continue;
		}
		first = v[i].line - 1 > CONTEXT ? v[i].line - 1 - CONTEXT : 0;
		last = v[i].line - 1 + CONTEXT < ls->n - 1 ? v[i].line - 1 + CONTEXT : ls->n - 1;
		/* sites whose context meets this one's: one hunk */
		while (j + 1 < n && (off[j + 1] < 0 || v[j + 1].line - 1 <= last + 1 + CONTEXT)) {
			j++;
			if (off[j] >= 0)
				last = v[j].line - 1 + CONTEXT < ls->n - 1 ? v[j].line - 1 + CONTEXT
									   : ls->n - 1;
		}
		olds = news = last - first + 1;
		for (size_t k = i; k <= j; k++)
			news += off[k] >= 0 ? 5 : 0;	/* six lines for one */
		ks_buf_addf(b, "@@ -%zu,%zu +%ld,%zu @@\n", first + 1, olds,
			    (long)first + 1 + delta, news);
		for (size_t k = first, s = i; k <= last; k++) {
			while (s <= j && (off[s] < 0 || v[s].line - 1 < k))
				s++;
			if (s <= j && v[s].line - 1 == k) {
				hunk_line(b, '-', ls->p[k], ls->len[k]);
				if (k == ls->n - 1 && !ls->eol)
					ks_buf_adds(b, "\\ No newline at end of file\n");
				rewrite(b, ls, k, off[s], &v[s]);
				continue;
			}
			hunk_line(b, ' ', ls->p[k], ls->len[k]);
			if (k == ls->n - 1 && !ls->eol)
				ks_buf_adds(b, "\\ No newline at end of file\n");
		}
		delta += (long)news - (long)olds;
		i = j + 1;
	}
}

/* The diff of the sites v[0..n) of one file, or why it has none in head. */
static void one_file(struct ks_fixes *fx, struct ks_buf *head, struct ks_buf *body, const char *cwd,
		     const struct ks_fix_site *v, size_t n)
{
	size_t clen = strlen(cwd);
	const char *rel = !strncmp(v[0].file, cwd, clen) && v[0].file[clen] == '/'
				  ? v[0].file + clen + 1
				  : NULL;
	struct lines ls = { KS_BUF_INIT, NULL, NULL, 0, false };
	long *off;
	size_t done = 0;
	int e;

	if (!rel) {
		ks_buf_addf(head, "  %s: not below %s, where the patch applies: not rewritten\n",
			    v[0].file, cwd);
		return;
	}
	if ((e = read_lines(&ls, v[0].file)) < 0) {
		ks_buf_addf(head, "  %s: cannot read: %s: not rewritten\n", v[0].file, strerror(-e));
		free_lines(&ls);
		return;
	}
	off = ks_xcalloc(n, sizeof(*off));
	for (size_t i = 0; i < n; i++) {
		off[i] = v[i].line && v[i].line <= ls.n
				 ? ks_include_name_at(ls.p[v[i].line - 1], ls.len[v[i].line - 1],
						      v[i].m->header)
				 : -1;
		if (off[i] < 0)
			ks_buf_addf(head,
				    "  %s:%u: no longer includes <%s> (changed since the build): "
				    "not rewritten\n",
				    v[i].file, v[i].line, v[i].m->header);
		done += off[i] >= 0;
	}
	if (done) {
		ks_buf_addf(body, "--- a/%s\n+++ b/%s\n", rel, rel);
		hunks(body, &ls, v, off, n);
		fx->rewritten += done;
		fx->files++;
	}
	free(off);
	free_lines(&ls);
}

int ks_fixes_write(FILE *out, struct ks_fixes *fx)
{
	struct ks_buf head = KS_BUF_INIT, body = KS_BUF_INIT;
	char cwd[PATH_MAX];
	size_t n = 0;

	if (!getcwd(cwd, sizeof(cwd)))
		strcpy(cwd, "/");
	qsort(fx->v, fx->n, sizeof(*fx->v), cmp_site);
	/* one site per line */
	for (size_t i = 0; i < fx->n; i++) {
		if (n && !cmp_site(&fx->v[n - 1], &fx->v[i])) {
			free(fx->v[i].file);
			continue;
		}
		fx->v[n++] = fx->v[i];
	}
	fx->n = n;
	for (size_t i = 0, j; i < fx->n; i = j) {
		for (j = i + 1; j < fx->n && !strcmp(fx->v[j].file, fx->v[i].file); j++)
			;
		one_file(fx, &head, &body, cwd, &fx->v[i], j - i);
	}
	fputs("ksunset fix: what in-tree code wrote instead of what no longer builds on the "
	      "target, each\nrewrite under #if LINUX_VERSION_CODE, the old line kept for older "
	      "kernels. A release\nthe test names is the newer one of its migrations: the first "
	      "release that has the new\nform lies between the two, and is not known.\n",
	      out);
	if (head.len)
		fprintf(out, "Not rewritten:\n%s", head.p);
	if (fx->nleft) {
		fputs("Breaks without a mechanical rewrite (not in this patch):\n", out);
		for (size_t i = 0; i < fx->nleft; i++)
			fprintf(out, "  %s\n", fx->left[i]);
	}
	fputc('\n', out);
	if (body.len)
		fwrite(body.p, 1, body.len, out);
	ks_buf_free(&head);
	ks_buf_free(&body);
	errno = 0;
	return ferror(out) ? -(errno ? errno : EIO) : 0;
}

void ks_fixes_free(struct ks_fixes *fx)
{
	for (size_t i = 0; i < fx->n; i++)
		free(fx->v[i].file);
	free(fx->v);
	ks_strv_free(fx->left, fx->nleft);
	memset(fx, 0, sizeof(*fx));
}
