/* ksunset fix's patch: for each line of a break that in-tree code
 * adapted to with one mechanical rewrite (an #include of a header gone on
 * the target, a call whose arguments changed), the line kept for older
 * kernels and the rewritten one for the target's, chosen by
 * LINUX_VERSION_CODE:
 *
 *	#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
 *		c = class_create("x");
 *	#else
 *		c = class_create(THIS_MODULE, "x");
 *	#endif
 *
 * and for a name whose in-tree users added the #include of its header,
 * that #include for the target's release on, after the file's others:
 *
 *	#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
 *	#include <crypto/algapi.h>
 *	#endif
 *
 * with <linux/version.h> included before the file's first #include, unless
 * it has it; as a unified diff that `patch -p1` applies in the directory
 * it ran in. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "array.h"
#include "buf.h"
#include "cmd/fix.h"
#include "file.h"
#include "forecast/forecast.h"
#include "input/ctext.h"
#include "input/migrations.h"
#include "report/column.h"
#include "report/rewrite.h"
#include "rules/target.h"

#define CONTEXT 3		/* lines around a change, as diff -u */

/* A site of file at line, edited as e's rewrite rw (f's): fn, a
 * callback's function, copied. */
static void push_site(struct ks_fixes *fx, const struct ks_finding *f, char *file, unsigned line,
		      const char *fn, const struct ks_migration *e, const struct ks_rewrite *rw)
{
	ks_array_grow((void **)&fx->v, fx->n, 1, sizeof(*fx->v));
	fx->v[fx->n++] = (struct ks_fix_site){
		file,
		line,
		fn ? ks_xstrdup(fn) : NULL,
		fn ? ks_xstrdup(f->diff->old) : NULL,
		e,
		rw,
		f->fixes,
	};
}

/* The sites of a callback's heads in file (lines ls) that rw rewrites,
 * ks_callback_heads()'s: its definition's, unless none is there or it is
 * static and global (another function of the same name than the one of a
 * use in another file), then its declarations'; decls: the declarations'
 * alone. Whether the definition's was: *local, whether it is static. */
static bool heads_in(struct ks_fixes *fx, const struct ks_finding *f, const char *file,
		     const struct ks_lines *ls, const struct ks_callee *fn, bool decls, bool global,
		     const struct ks_migration *e, const struct ks_rewrite *rw, bool *local)
{
	struct ks_heads h;
	bool def;

	ks_callback_heads(rw, ls, fn, &h);
	def = !decls && h.def && !(global && h.local);
	if (def) {
		push_site(fx, f, ks_xstrdup(file), h.def, fn->name, e, rw);
		*local = h.local;
	}
	for (size_t i = 0; (def || decls) && i < h.ndecl; i++)
		push_site(fx, f, ks_xstrdup(file), h.decl[i], fn->name, e, rw);
	ks_heads_free(&h);
	return def;
}

/* A callback's sites for the use l: the head of the function the use's
 * line stores, in the use's file, else in another of the module's own
 * files where it is not static, and the declarations of it (in its
 * definition's file; of one not static, in the module's own headers too);
 * none found: the use's line, said not rewritten. */
static void callback_sites(struct ks_fixes *fx, const struct ks_finding *f, const struct ks_loc *l,
			   char *real, const struct ks_migration *e, const struct ks_rewrite *rw)
{
	char *name = ks_callback_at(e, l->file, l->line, f->diff->callback);
	struct ks_callee fn = { name, f->diff->old, f->fixes, ks_migration_local(e, rw) };
	struct ks_lines ls;
	bool def = false, local = true;
	unsigned line;
	long at = -1;

	if (ks_lines_read(&ls, real) == 0)
		def = heads_in(fx, f, real, &ls, &fn, false, false, e, rw, &local);
	ks_lines_free(&ls);
	if (!def && (at = ks_sources_definition(&fx->own, real, rw, &fn, &line)) >= 0)
		def = heads_in(fx, f, fx->own.path[at], &fx->own.ls[at], &fn, false, true, e, rw,
			       &local);
	/* of one not static, its declarations in the module's headers */
	if (def && !local)
		ks_sources_load(&fx->own);
	for (size_t i = 0; def && !local && i < fx->own.n; i++) {
		const char *path = fx->own.path[i];
		size_t n = strlen(path);

		if ((long)i != at && strcmp(path, real) && n > 2 && !strcmp(path + n - 2, ".h"))
			heads_in(fx, f, path, &fx->own.ls[i], &fn, true, true, e, rw, &local);
	}
	if (!def)
		push_site(fx, f, real, l->line, name, e, rw);
	else
		free(real);
	free(name);
}

/* The site of finding f's location l, edited as e's rewrite rw. */
static void add_site(struct ks_fixes *fx, const struct ks_finding *f, const struct ks_loc *l,
		     const struct ks_migration *e, const struct ks_rewrite *rw)
{
	/* the file itself: a build may compile it through a link (openafs's
	 * MODLOAD-RELEASE folder links to src/afs) */
	char *real = realpath(l->file, NULL);
	unsigned line = l->line;

	if (!real)
		real = ks_xstrdup(l->file);
	if (ks_migration_head(e)) {
		callback_sites(fx, f, l, real, e, rw);
		return;
	}
	/* an #include's line: the one it goes before, in the use's file or
	 * the first of the module's headers that names it before the use;
	 * else the use's */
	if (e->include) {
		struct ks_edit ed;
		const char *at;

		if (!ks_edit_use(e, rw, f, l->file, l->line, &fx->own, &at, &ed)) {
			line = ed.line;
			if (strcmp(at, l->file)) {
				free(real);
				real = ks_xstrdup(at);
			}
		}
		ks_edit_free(&ed);
	}
	push_site(fx, f, real, line, NULL, e, rw);
}

void ks_fixes_collect(struct ks_fixes *fx, const struct ks_findings *found,
		      const struct ks_module *m)
{
	char cwd[PATH_MAX];

	ks_sources_init(&fx->own, m, getcwd(cwd, sizeof(cwd)) ? cwd : NULL);
	for (size_t i = 0; i < found->n; i++) {
		const struct ks_finding *f = &found->v[i];

		if (!f->diff)
			continue;
		for (size_t k = 0; k < f->nlocs; k++) {
			const struct ks_loc *l = &f->locs[k];
			const struct ks_migration *e[2] = { NULL, NULL };
			const struct ks_rewrite *rw[2];
			size_t n = f->fix ? ks_fix_entries(f, l, e, rw) : 0;

			if (f->diff->kind == KS_BREAK_MEMBER_GONE && strrchr(f->diff->name, '.')) {
				char *real = realpath(l->file, NULL);

				ks_array_grow((void **)&fx->gone, fx->ngone, 1, sizeof(*fx->gone));
				fx->gone[fx->ngone++] = (struct ks_gone_use){
					real ? real : ks_xstrdup(l->file), l->line,
					ks_xstrdup(strrchr(f->diff->name, '.') + 1)
				};
			}
			if (!n) {
				struct ks_buf s = KS_BUF_INIT;

				ks_buf_addf(&s, "%s:%u: %s %s", l->file, l->line,
					    ks_break_name(f->diff->kind), f->symbol);
				/* in-tree code shows no single rewrite: of the
				 * line's assignment, where it assigns */
				if (f->fix) {
					ks_buf_adds(&s, ": ");
					ks_fix_words(&s, e[0] ? e[0] : f->fix, f->fixes);
				}
				ks_strv_add_unique(&fx->left, &fx->nleft, s.p);
				if (ks_is_identifier(f->symbol)) {
					char *real = realpath(l->file, NULL);

					ks_array_grow((void **)&fx->uses, fx->nuses, 1,
						      sizeof(*fx->uses));
					fx->uses[fx->nuses++] = (struct ks_left_use){
						real ? real : ks_xstrdup(l->file), l->line,
						ks_xstrdup(f->symbol),
						(size_t)ks_strv_find(fx->left, fx->nleft, s.p), false
					};
				}
				ks_buf_free(&s);
				continue;
			}
			for (size_t i = 0; i < n; i++)
				add_site(fx, f, l, e[i], rw[i]);
		}
	}
	ks_sources_free(&fx->own);
}

/* The header an Include: site's #include names; "" for the others. */
static const char *included(const struct ks_fix_site *s)
{
	return s->m->include ? s->rw->text : "";
}

/* By file and line; an #include added (several may go before one line)
 * by its header; the rewrites of one line by their entries' names. */
static int cmp_site(const void *a, const void *b)
{
	const struct ks_fix_site *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	if (c || x->line != y->line)
		return c ? c : x->line < y->line ? -1 : 1;
	if ((c = strcmp(included(x), included(y))))
		return c;
	return x->m->include ? 0 : strcmp(x->m->name, y->m->name);
}

/* A line of a hunk. */
static void hunk_line(struct ks_buf *b, char mark, const char *s, size_t len)
{
	ks_buf_addc(b, mark);
	ks_buf_add(b, s, len);
	ks_buf_addc(b, '\n');
}

/* "+#if LINUX_VERSION_CODE >= ...", for the site's release on. */
static void version_test(struct ks_buf *b, const struct ks_fix_site *s)
{
	unsigned major = 0, minor = 0;

	if (sscanf(s->ms->to, "%u.%u", &major, &minor) != 2)
		major = minor = 0;
	ks_buf_addf(b, "+#if LINUX_VERSION_CODE >= KERNEL_VERSION(%u, %u, 0)\n", major, minor);
}

/* The replacement of line k (a site's, edited as ed): the rewritten line
 * for the site's release on (none for a line deleted), the old one for
 * older kernels. */
static void rewrite(struct ks_buf *b, const struct ks_lines *ls, size_t k, const struct ks_edit *ed,
		    const struct ks_fix_site *s)
{
	version_test(b, s);
	if (s->rw->op != KS_RW_DELETE) {
		ks_buf_addc(b, '+');
		ks_buf_add(b, ls->p[k], ed->at[0]);
		ks_buf_adds(b, ed->with);
		ks_buf_add(b, ls->p[k] + ed->at[1], ls->len[k] - ed->at[1]);
		ks_buf_addc(b, '\n');
	}
	ks_buf_adds(b, "+#else\n");
	hunk_line(b, '+', ls->p[k], ls->len[k]);
	ks_buf_adds(b, "+#endif\n");
}

/* What the patch does at a line of the file, in this order: the
 * #include of <linux/version.h> before it, a site's #include (ed->with)
 * before it, the line rewritten (ed, a site's edit) or deleted, a local
 * declared after it (ed->local: the line opens a callback's body). */
enum change_kind { VERSION, INCLUDE, REPLACE, DELETE, LOCAL };

struct change {
	size_t k;
	const struct ks_fix_site *site;
	const struct ks_edit *ed;
	enum change_kind kind;
};

/* The lines a change adds to the hunk. */
static size_t added(const struct change *c)
{
	static const size_t lines[] = { [VERSION] = 1, [INCLUDE] = 3, [REPLACE] = 4, [DELETE] = 3,
					[LOCAL] = 3 };

	return lines[c->kind];
}

/* The last line of the context after line k. */
static size_t context_end(const struct ks_lines *ls, size_t k)
{
	return k + CONTEXT < ls->n - 1 ? k + CONTEXT : ls->n - 1;
}

/* The hunks of one file: its changes c[0..n), by line. */
static void hunks(struct ks_buf *b, const struct ks_lines *ls, const struct change *c, size_t n)
{
	long delta = 0;

	for (size_t i = 0; i < n;) {
		size_t first = c[i].k > CONTEXT ? c[i].k - CONTEXT : 0, last = context_end(ls, c[i].k);
		size_t j = i, olds, news;

		/* changes whose context meets this one's: one hunk */
		while (j + 1 < n && c[j + 1].k <= last + 1 + CONTEXT)
			last = context_end(ls, c[++j].k);
		olds = news = last - first + 1;
		for (size_t k = i; k <= j; k++)
			news += added(&c[k]);
		ks_buf_addf(b, "@@ -%zu,%zu +%ld,%zu @@\n", first + 1, olds,
			    (long)first + 1 + delta, news);
		for (size_t k = first, at = i; k <= last; k++) {
			const struct change *site = NULL, *local = NULL;

			for (; at <= j && c[at].k == k; at++) {
				if (c[at].kind == LOCAL) {
					local = &c[at];
				} else if (c[at].kind == VERSION) {
					ks_buf_adds(b, "+#include <linux/version.h>\n");
				} else if (c[at].kind == INCLUDE) {
					version_test(b, c[at].site);
					ks_buf_addc(b, '+');
					ks_buf_adds(b, c[at].ed->with);
					ks_buf_adds(b, "+#endif\n");
				} else {
					site = &c[at];
				}
			}
			hunk_line(b, site ? '-' : ' ', ls->p[k], ls->len[k]);
			if (k == ls->n - 1 && !ls->eol)
				ks_buf_adds(b, "\\ No newline at end of file\n");
			if (site)
				rewrite(b, ls, k, site->ed, site->site);
			if (local) {
				version_test(b, local->site);
				ks_buf_addf(b, "+%s\n+#endif\n", local->ed->local);
			}
		}
		delta += (long)news - (long)olds;
		i = j + 1;
	}
}

/* The line <linux/version.h> goes before, so that it comes before the
 * first rewrite at line first (0-based): the first #include, or that
 * line when it comes first; none (-1) when the file includes it before. */
static long version_line(const struct ks_lines *ls, size_t first)
{
	long at = -1;

	for (size_t k = 0; k < ls->n && k <= first; k++) {
		const char *s = ls->p[k] + strspn(ls->p[k], " \t");

		if (ks_include_name_at(ls->p[k], ls->len[k], "linux/version.h") >= 0)
			return -1;
		if (at < 0 && *s == '#' && (size_t)(s - ls->p[k]) < ls->len[k] &&
		    !strncmp(s + 1 + strspn(s + 1, " \t"), "include", 7))
			at = (long)k;
	}
	return at < 0 ? (long)first : at;
}

static int cmp_change(const void *a, const void *b)
{
	const struct change *x = a, *y = b;

	/* by line, then as enum change_kind orders them; #includes by header */
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	if (x->kind != y->kind)
		return (int)x->kind - (int)y->kind;
	return x->kind == INCLUDE ? strcmp(x->ed->with, y->ed->with) : 0;
}

/* Why site s's line is not rewritten, into head: what ks_edit_missing()
 * says. */
static void missing(struct ks_buf *head, const struct ks_fix_site *s)
{
	ks_buf_addf(head, "  %s:%u: ", s->file, s->line);
	ks_edit_missing(head, s->m, s->rw);
	ks_buf_adds(head, ": not rewritten\n");
}

/* The rewrites of the sites v[0..n) of one line of ls (none an
 * #include's), ks_edit_compose()'s, as one edit of the whole line in *ed:
 * 0, or -ERANGE; each site whose rewrite was not made said in head. */
static int compose(const struct ks_lines *ls, const struct ks_fix_site *v, size_t n,
		   struct ks_edit *ed, struct ks_buf *head)
{
	size_t k = v[0].line - 1, made = 0;
	const struct ks_migration **e = ks_xcalloc(n, sizeof(*e));
	const struct ks_rewrite **rw = ks_xcalloc(n, sizeof(*rw));
	bool *done = ks_xcalloc(n, sizeof(*done));
	char *text = NULL;

	memset(ed, 0, sizeof(*ed));
	for (size_t i = 0; i < n; i++) {
		e[i] = v[i].m;
		rw[i] = v[i].rw;
	}
	if (k < ls->n)
		made = ks_edit_compose(e, rw, n, ls->p[k], ls->len[k], &text, done);
	for (size_t i = 0; i < n; i++)
		if (!done[i])
			missing(head, &v[i]);
	if (made) {
		ed->at[1] = ls->len[k];
		ed->with = text;
		ed->line = v[0].line;
	} else {
		free(text);
	}
	free(done);
	free(rw);
	free(e);
	return made ? 0 : -ERANGE;
}

/* Site v's line of ls as its edit ed makes it, to free. */
static char *edited(const struct ks_lines *ls, const struct ks_fix_site *v, const struct ks_edit *ed)
{
	const char *p = ls->p[v->line - 1];
	size_t len = ls->len[v->line - 1];

	return ks_strdupf("%.*s%s%.*s", (int)ed->at[0], p, ed->with ? ed->with : "",
			  (int)(len - ed->at[1]), p + ed->at[1]);
}

/* Whether line v[0].line of ls, edited as ed, still names a member gone
 * that a break of the line uses ("inode_set_ctime_to_ts(inode,
 * dir->i_ctime);": still broken), said in head. */
static bool still_gone(const struct ks_fixes *fx, const struct ks_lines *ls,
		       const struct ks_fix_site *v, const struct ks_edit *ed, struct ks_buf *head)
{
	char *after = edited(ls, v, ed);
	bool gone = false;

	for (size_t i = 0; i < fx->ngone && !gone; i++) {
		const struct ks_gone_use *g = &fx->gone[i];

		if (g->line != v->line || strcmp(g->file, v->file) ||
		    !ks_line_accesses(after, strlen(after), g->member))
			continue;
		ks_buf_addf(head, "  %s:%u: still names %s, gone on the target, after the "
				  "rewrite (another use of it has none): not rewritten\n",
			    v->file, v->line, g->member);
		gone = true;
	}
	free(after);
	return gone;
}

/* The breaks without a rewrite of their own that site v's edit ed of its
 * line (of ls) takes out with it: their names no longer on the line. */
static void take_out(struct ks_fixes *fx, const struct ks_lines *ls, const struct ks_fix_site *v,
		     const struct ks_edit *ed)
{
	/* a line deleted names nothing */
	char *after = v->rw->op == KS_RW_DELETE ? ks_xstrdup("") : edited(ls, v, ed);
	size_t alen = strlen(after);

	for (size_t i = 0; i < fx->nuses; i++) {
		struct ks_left_use *u = &fx->uses[i];

		if (u->line == v->line && !strcmp(u->file, v->file) &&
		    ks_find_name(after, alen, u->name, 0) == alen)
			u->taken = true;
	}
	free(after);
}

/* The diff of the sites v[0..n) of one file (by line), or why it has none
 * in head. */
static void one_file(struct ks_fixes *fx, struct ks_buf *head, struct ks_buf *body, const char *cwd,
		     const struct ks_fix_site *v, size_t n)
{
	size_t clen = strlen(cwd);
	const char *rel = !strncmp(v[0].file, cwd, clen) && v[0].file[clen] == '/'
				  ? v[0].file + clen + 1
				  : NULL;
	struct ks_lines ls;
	struct ks_edit *ed;
	struct change *c;
	size_t nc = 0, locals = 0;
	long vline;
	int e;

	if (!rel) {
		ks_buf_addf(head, "  %s: not below %s, where the patch applies: not rewritten\n",
			    v[0].file, cwd);
		return;
	}
	if ((e = ks_lines_read(&ls, v[0].file)) < 0) {
		ks_buf_addf(head, "  %s: cannot read: %s: not rewritten\n", v[0].file, strerror(-e));
		ks_lines_free(&ls);
		return;
	}
	ed = ks_xcalloc(n, sizeof(*ed));
	c = ks_xcalloc(2 * n + 1, sizeof(*c));
	for (size_t i = 0, j; i < n; i = j) {
		/* the site's line still edited: a callback's head, the line an
		 * #include goes before, unless the file changed since; the
		 * rewrites of one line made one after another */
		struct ks_callee callee = { v[i].fn, v[i].type, v[i].ms,
					    ks_migration_local(v[i].m, v[i].rw) };

		for (j = i + 1; !v[i].m->include && j < n && v[j].line == v[i].line &&
				!v[j].m->include;
		     j++)
			;
		if (j - i > 1 ? compose(&ls, &v[i], j - i, &ed[i], head) < 0
			      : ks_edit_at(v[i].m, v[i].rw, &ls, v[i].line, &callee, &ed[i]) < 0 ||
					ed[i].line != v[i].line) {
			if (j - i == 1)		/* compose() says why */
				missing(head, &v[i]);
		} else if (v[i].m->include) {
			c[nc++] = (struct change){ v[i].line - 1, &v[i], &ed[i], INCLUDE };
		} else if (!still_gone(fx, &ls, &v[i], &ed[i], head)) {
			c[nc++] = (struct change){ v[i].line - 1, &v[i], &ed[i],
						   v[i].rw->op == KS_RW_DELETE ? DELETE : REPLACE };
			take_out(fx, &ls, &v[i], &ed[i]);
			if (ed[i].local) {	/* a line added, none rewritten */
				c[nc++] = (struct change){ ed[i].local_line - 1, &v[i], &ed[i], LOCAL };
				locals++;
			}
		}
	}
	if (nc) {
		/* v is by line: c[0] is the first line rewritten */
		if ((vline = version_line(&ls, c[0].k)) >= 0)
			c[nc++] = (struct change){ (size_t)vline, NULL, NULL, VERSION };
		qsort(c, nc, sizeof(*c), cmp_change);
		ks_buf_addf(body, "--- a/%s\n+++ b/%s\n", rel, rel);
		hunks(body, &ls, c, nc);
		fx->rewritten += nc - (vline >= 0) - locals;
		fx->files++;
	}
	for (size_t i = 0; i < n; i++)
		ks_edit_free(&ed[i]);
	free(ed);
	free(c);
	ks_lines_free(&ls);
}

int ks_fixes_write(FILE *out, struct ks_fixes *fx)
{
	struct ks_buf head = KS_BUF_INIT, body = KS_BUF_INIT;
	char cwd[PATH_MAX];
	size_t n = 0;

	if (!getcwd(cwd, sizeof(cwd)))
		strcpy(cwd, "/");
	if (fx->n)
		qsort(fx->v, fx->n, sizeof(*fx->v), cmp_site);
	/* one site per line */
	for (size_t i = 0; i < fx->n; i++) {
		if (n && !cmp_site(&fx->v[n - 1], &fx->v[i])) {
			free(fx->v[i].file);
			free(fx->v[i].fn);
			free(fx->v[i].type);
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
	/* the breaks the patch takes out with another's rewrite */
	n = 0;
	for (size_t k = 0; k < fx->nleft; k++) {
		bool taken = false;

		for (size_t i = 0; i < fx->nuses && !taken; i++)
			taken = fx->uses[i].k == k && fx->uses[i].taken;
		if (taken)
			free(fx->left[k]);
		else
			fx->left[n++] = fx->left[k];
	}
	fx->nleft = n;
	fputs("ksunset fix: what in-tree code wrote instead of what no longer builds on the "
	      "target (for a\nname no in-tree #include was added for, the #include of the "
	      "target's header that\ndeclares it), each rewrite under #if LINUX_VERSION_CODE, "
	      "the old line kept for older\nkernels. A release the test names is the newer one "
	      "of its migrations: the first\nrelease that has the new form lies between the "
	      "two, and is not known.\n",
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
	for (size_t i = 0; i < fx->n; i++) {
		free(fx->v[i].file);
		free(fx->v[i].fn);
		free(fx->v[i].type);
	}
	for (size_t i = 0; i < fx->ngone; i++) {
		free(fx->gone[i].file);
		free(fx->gone[i].member);
	}
	free(fx->gone);
	for (size_t i = 0; i < fx->nuses; i++) {
		free(fx->uses[i].file);
		free(fx->uses[i].name);
	}
	free(fx->uses);
	free(fx->v);
	ks_strv_free(fx->left, fx->nleft);
	memset(fx, 0, sizeof(*fx));
}
