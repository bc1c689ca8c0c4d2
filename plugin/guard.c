/* api=: the branches of the module's own #if conditionals that hold its
 * includes and shapes and test the kernel, as guard records: built
 * against another kernel, the module may compile other branches, and
 * check --target's probe asks that kernel's preprocessor which. The files'
 * branches are lib/cond.c's, each condition rewritten by lib/condres.c
 * without the module's own macros (their #defines, under their branches'
 * conditions) and the command line's (their values), so that the target
 * answers it alone; what each identifier is (the kernel's, the module's
 * own, the compiler's or the command line's) is libcpp's, at the end of
 * the unit. */
/* lib/ first: GCC's options.h defines warn_unused_result as a macro */
#include "buf.h"
#include "cond.h"
#include "schedule.h"
#include "strmap.h"
#include <ksunset/record.h>

#include "gcc-plugin.h"
#include "tree.h"
#include "input.h"
#include "cpplib.h"
#include "c-family/c-common.h"
#include "c-family/c-pragma.h"

#include <stdlib.h>
#include <string.h>

#include "api.h"

/* One file of the module's: its branches. */
struct gfile {
	char *name;		/* as the records name it */
	struct ks_cond_file cond;
	bool *used;		/* per branch: holds an include or a shape */
};

struct guards {
	struct ks_plugin *p;
	struct gfile *files;
	size_t n;
	struct ks_cond_src *srcs;	/* the files as ks_cond_resolve reads them */
	size_t nsrcs;
	char **values;			/* command-line macros' bodies it was given */
	size_t nvalues;
	char *why;			/* why a condition could not be rewritten */
};

static struct gfile *file_of(struct guards *g, const char *name)
{
	struct ks_buf text = KS_BUF_INIT;
	struct gfile *f;

	for (size_t i = 0; i < g->n; i++)
		if (!strcmp(g->files[i].name, name))
			return &g->files[i];
	g->files = XRESIZEVEC(struct gfile, g->files, g->n + 1);
	f = &g->files[g->n++];
	memset(f, 0, sizeof(*f));
	f->name = xstrdup(name);
	/* unreadable (gone since it was read): no branches */
	if (!ks_buf_read_file(&text, name))
		ks_cond_scan(text.p, text.len, &f->cond);
	f->used = XCNEWVEC(bool, f->cond.n + 1);
	ks_buf_free(&text);
	return f;
}

/* The file and line of loc, as ks_record_place gives them (its column,
 * which costs a read of the line, is not needed here). */
static void place_line(location_t loc, struct ks_record_use *at)
{
	expanded_location x = expand_location(loc);

	memset(at, 0, sizeof(*at));
	at->file = const_cast<char *>(x.file ? x.file : "");
	at->line = (unsigned)x.line;
}

/* Marks the branch that holds loc. */
static void mark(struct guards *g, location_t loc)
{
	struct ks_record_use at;
	const struct ks_cond_branch *b;
	struct gfile *f;

	place_line(loc, &at);
	if (!*at.file)
		return;
	f = file_of(g, at.file);
	if ((b = ks_cond_at(&f->cond, at.line)))
		f->used[b - f->cond.v] = true;
}

/* The kernel's version and configuration. */
static bool version_ident(const char *id, size_t n)
{
	return (n > 7 && !strncmp(id, "CONFIG_", 7)) || (n == 14 && !strncmp(id, "KERNEL_VERSION", n)) ||
	       (n >= 14 && !strncmp(id, "LINUX_VERSION_", 14)) ||
	       (n == 10 && !strncmp(id, "IS_ENABLED", n));
}

/* For ks_cond_idents over a macro's body: whether it names the kernel's
 * version or configuration (its other names are code, not tests). */
static int names_version(const char *id, size_t n, void *arg)
{
	(void)arg;
	return version_ident(id, n);
}

/* A command-line macro's body ("-DX=2": "2"), kept until the end; NULL
 * for a function-like one. */
static const char *flag_value(struct guards *g, cpp_hashnode *node)
{
	const char *def = (const char *)cpp_macro_definition(parse_in, node);
	const char *body = def + strcspn(def, " (");

	if (*body == '(')
		return NULL;
	g->values = XRESIZEVEC(char *, g->values, g->nvalues + 1);
	return g->values[g->nvalues++] = xstrdup(*body ? body + 1 : "");
}

/* What an identifier of a condition is, besides the module's own
 * #defines (ks_cond_resolve reads those in the files): libcpp's macro as
 * the unit ends, by where its definition is. */
static enum ks_ident_is ident_is(const char *id, size_t n, const char **value, void *arg)
{
	struct guards *g = (struct guards *)arg;
	cpp_hashnode *node = cpp_lookup(parse_in, (const unsigned char *)id, (unsigned)n);
	location_t def;
	expanded_location x;

	if (!cpp_macro_p(node))
		return KS_IDENT_NONE;
	if (!cpp_user_macro_p(node))
		return KS_IDENT_SAME;	/* __has_include, __LINE__ */
	def = cpp_macro_definition_location(node);
	x = expand_location(def);
	if (x.file && !strcmp(x.file, "<command-line>")) {
		if (value)
			*value = flag_value(g, node);
		return KS_IDENT_FLAG;
	}
	if (def <= BUILTINS_LOCATION || !x.file || *x.file == '<')
		return KS_IDENT_SAME;	/* __GNUC__, __x86_64__ */
	return ks_api_foreign(g->p, ks_where_spelling(def)) ? KS_IDENT_KERNEL : KS_IDENT_OWN;
}

/* ks_cond_idents over a rewritten condition: whether a name is the
 * target's to answer. */
static int asks_target(const char *id, size_t n, void *arg)
{
	enum ks_ident_is is = ident_is(id, n, NULL, arg);

	return is == KS_IDENT_KERNEL || is == KS_IDENT_NONE;
}

/* The files read, as ks_cond_resolve takes them. */
static const struct ks_cond_ctx *context(struct guards *g, struct ks_cond_ctx *c)
{
	if (g->nsrcs != g->n) {
		g->srcs = XRESIZEVEC(struct ks_cond_src, g->srcs, g->n);
		for (size_t i = 0; i < g->n; i++) {
			g->srcs[i].name = g->files[i].name;
			g->srcs[i].cond = &g->files[i].cond;
		}
		g->nsrcs = g->n;
	}
	c->files = g->srcs;
	c->nfiles = g->nsrcs;
	c->is = ident_is;
	c->arg = g;
	return c;
}

/* The conditions of branch b of file f that the target's preprocessor
 * can answer, each rewritten without the module's own macros, joined by
 * && ("" none: it tests nothing that differs between kernels); *own when
 * one cannot be rewritten. */
static char *kernel_part(struct guards *g, const struct gfile *f, const struct ks_cond_branch *b,
			 bool *own)
{
	struct ks_buf cond = KS_BUF_INIT;
	struct ks_cond_ctx c;

	for (size_t i = 0; i < b->nconds; i++) {
		char *why = NULL;
		char *rw = ks_cond_resolve(context(g, &c), (size_t)(f - g->files), b->lines[i],
					   b->conds[i], &why);

		if (!rw) {
			*own = true;
			if (!g->why) {
				g->why = why;
				why = NULL;
			}
		} else if (ks_cond_idents(rw, asks_target, g)) {
			ks_buf_addf(&cond, "%s%s", cond.len ? " && " : "", rw);
		}
		free(why);
		free(rw);
	}
	return cond.p ? ks_buf_steal(&cond) : xstrdup("");
}

/* A guard's COND: the kernel's part, or for an own guard why no probe
 * can ask it (g->why, "1" when unknown). */
static void write_guard(struct guards *g, struct ks_record_guard *rec, char *cond,
			struct ks_buf *desc)
{
	rec->cond = rec->own ? (g->why ? g->why : const_cast<char *>("1"))
			     : *cond ? cond : const_cast<char *>("1");
	ks_record_encode_guard(desc, rec);
	free(g->why);
	g->why = NULL;
}

/* The guard record of a branch: the conditions that test the kernel
 * alone; own when one tests the module's own macros too. None when it
 * tests nothing that differs between kernels. */
static void encode(struct guards *g, const struct gfile *f, const struct ks_cond_branch *b,
		   struct ks_buf *desc)
{
	struct ks_record_guard rec = { const_cast<char *>(f->name), b->first, b->last, false, NULL };
	char *cond;

	free(g->why);
	g->why = NULL;
	cond = kernel_part(g, f, b, &rec.own);
	if (*cond || rec.own)
		write_guard(g, &rec, cond, desc);
	free(cond);
}

/* A macro of the module's own whose definition depends on the kernel:
 * the kernel's conditions of the branch it is defined in ("" none), *own
 * when they also test the module's own macros or its body names the
 * kernel's version or configuration. NULL: it does not depend on the
 * kernel. */
static char *macro_condition(struct guards *g, cpp_hashnode *node, bool *own)
{
	expanded_location x = expand_location(cpp_macro_definition_location(node));
	const struct ks_cond_branch *b;
	struct gfile *f;
	char *part;

	if (!x.file)
		return NULL;
	f = file_of(g, x.file);
	b = ks_cond_at(&f->cond, x.line);
	part = b ? kernel_part(g, f, b, own) : xstrdup("");
	if (ks_cond_idents((const char *)cpp_macro_definition(parse_in, node), names_version, NULL))
		*own = true;
	if (!*part && !*own) {
		free(part);
		return NULL;
	}
	return part;
}

/* An expansion of such a macro: where, what it depends on, and for one
 * that also depends on the module's own macros, why no probe can ask. */
struct dep {
	struct ks_record_use at;
	char *cond;
	bool own;
	char *why;
};

/* Whether dep lies on line of file, or in lines from..to of it. */
static bool dep_in(const struct dep *d, const char *file, unsigned from, unsigned to)
{
	return d->at.line >= from && d->at.line <= to && !strcmp(d->at.file, file);
}

/* A callback whose declarator is in a branch that tests the kernel
 * (nvidia-fs's nvfs_devnode, its device const from 6.2): the target's
 * build may store another definition of it, so the use's line depends on
 * that branch too (*any); its kernel part is added to cond. use is the
 * branch of the use's own line, whose part the caller adds. */
static void decl_branch(struct guards *g, const struct ks_record_use *from,
			const struct ks_cond_branch *use, struct ks_buf *cond, bool *own, bool *any)
{
	const struct ks_cond_branch *b;
	struct gfile *f;
	char *part;

	f = file_of(g, from->file);
	b = ks_cond_at(&f->cond, from->line);
	if (!b || b == use)
		return;
	part = kernel_part(g, f, b, own);
	if (*part)
		ks_buf_addf(cond, "%s(%s)", cond->len ? " && " : "", part);
	*any |= *part || *own;
	free(part);
}

/* A shape's line whose use is spelled with macros of the module's own
 * that the kernel decides (on its line, or in its callback's declarator:
 * ovpn's genl_split_ops, its own name for genl_ops before 6.2): a guard of
 * that line alone, their conditions and its branch's. */
static void line_guard(struct guards *g, const struct ks_pshape *s, const struct dep *deps,
		       size_t ndeps, struct ks_strmap *done, struct ks_buf *desc)
{
	struct ks_record_use at, from, to;
	struct ks_buf cond = KS_BUF_INIT;
	struct ks_record_guard rec;
	const struct ks_cond_branch *b;
	struct gfile *f;
	char *part, *key;
	const struct dep *owned = NULL;
	bool any = false, own = false;
	void **slot;

	place_line(s->loc, &at);
	memset(&from, 0, sizeof(from));
	memset(&to, 0, sizeof(to));
	if (s->decl != UNKNOWN_LOCATION) {
		place_line(s->decl, &from);
		place_line(s->decl_end, &to);
	}
	for (size_t i = 0; i < ndeps; i++) {
		if (!dep_in(&deps[i], at.file, at.line, at.line) &&
		    !(from.file && dep_in(&deps[i], from.file, from.line, to.line)))
			continue;
		any = true;
		own |= deps[i].own;
		owned = deps[i].own && !owned ? &deps[i] : owned;
		if (*deps[i].cond && !deps[i].own)
			ks_buf_addf(&cond, "%s(%s)", cond.len ? " && " : "", deps[i].cond);
	}
	free(g->why);
	g->why = NULL;
	if (from.file)
		decl_branch(g, &from, ks_cond_at(&file_of(g, at.file)->cond, at.line), &cond, &own,
			    &any);
	key = any ? ks_strdupf("%s:%u", at.file, at.line) : NULL;
	if (!any || ks_strmap_put(done, key, &slot) != 1) {
		free(key);
		ks_buf_free(&cond);
		free(g->why);
		g->why = NULL;
		return;
	}
	*slot = key;		/* the map borrows it: freed with the map */
	f = file_of(g, at.file);	/* after decl_branch's, which may move it */
	b = ks_cond_at(&f->cond, at.line);
	part = b ? kernel_part(g, f, b, &own) : xstrdup("");
	if (*part)
		ks_buf_addf(&cond, "%s%s", cond.len ? " && " : "", part);
	if (own && !g->why && owned)
		g->why = owned->why ? xstrdup(owned->why) : NULL;
	rec.file = at.file;
	rec.first = rec.last = at.line;
	rec.own = own;
	write_guard(g, &rec, cond.len ? cond.p : const_cast<char *>(""), desc);
	free(part);
	ks_buf_free(&cond);
}

/* The line guards of every shape (line_guard()). */
static void line_guards(struct guards *g, struct ks_buf *desc)
{
	struct ks_plugin *p = g->p;
	struct dep *deps = XNEWVEC(struct dep, p->a->nown_macros + 1);
	struct ks_strmap done, macros;
	size_t ndeps = 0;

	memset(&done, 0, sizeof(done));
	memset(&macros, 0, sizeof(macros));
	for (size_t i = 0; i < p->a->nown_macros; i++) {
		struct dep *d = &deps[ndeps];
		cpp_hashnode *node = p->a->own_macros[i].node;
		void **slot;

		/* each macro judged once: macros[name] is 1 + the index of its
		 * first dep, or the map's own address when it does not depend
		 * on the kernel */
		ks_strmap_put(&macros, (const char *)NODE_NAME(node), &slot);
		d->own = false;
		d->why = NULL;
		if (*slot == (void *)&macros)
			continue;
		if (*slot) {
			const struct dep *first = &deps[(uintptr_t)*slot - 1];

			d->cond = xstrdup(first->cond);
			d->own = first->own;
			d->why = first->why ? xstrdup(first->why) : NULL;
		} else {
			free(g->why);
			g->why = NULL;
			if (!(d->cond = macro_condition(g, node, &d->own))) {
				*slot = (void *)&macros;
				continue;
			}
			*slot = (void *)(uintptr_t)(ndeps + 1);
			/* why its line cannot be asked: named where it is used */
			if (d->own)
				d->why = g->why ? ks_strdupf("it is spelled with the module's %s, "
							     "defined where %s",
							     (const char *)NODE_NAME(node), g->why)
						: ks_strdupf("it is spelled with the module's %s, whose "
							     "body tests the kernel's version or "
							     "configuration",
							     (const char *)NODE_NAME(node));
			free(g->why);
			g->why = NULL;
		}
		ks_record_place(p, p->a->own_macros[i].loc, &d->at);
		ndeps++;
	}
	for (size_t i = 0; i < p->a->nshapes; i++)
		if (ndeps || p->a->shapes[i].decl != UNKNOWN_LOCATION)
			line_guard(g, &p->a->shapes[i], deps, ndeps, &done, desc);
	for (size_t i = 0; i < ndeps; i++) {
		free(deps[i].cond);
		free(deps[i].why);
	}
	for (size_t i = 0; i < done.cap; i++)
		free(done.slots[i].val);
	ks_strmap_free(&done);
	ks_strmap_free(&macros);
	XDELETEVEC(deps);
}

void ks_guard_encode(struct ks_plugin *p, struct ks_buf *desc)
{
	struct guards g = { p, NULL, 0, NULL, 0, NULL, 0, NULL };

	/* every file of the module's that the unit read: their #defines */
	for (size_t i = 0; i < p->foreign.cap; i++)
		if (p->foreign.slots[i].key && (intptr_t)p->foreign.slots[i].val == 1)
			file_of(&g, p->foreign.slots[i].key);
	for (size_t i = 0; i < p->a->nincludes; i++)
		mark(&g, p->a->includes[i].loc);
	for (size_t i = 0; i < p->a->nshapes; i++)
		mark(&g, p->a->shapes[i].loc);
	for (size_t i = 0; i < g.n; i++) {
		for (size_t j = 0; j < g.files[i].cond.n; j++)
			if (g.files[i].used[j])
				encode(&g, &g.files[i], &g.files[i].cond.v[j], desc);
	}
	line_guards(&g, desc);
	for (size_t i = 0; i < g.n; i++) {
		free(g.files[i].name);
		ks_cond_free(&g.files[i].cond);
		XDELETEVEC(g.files[i].used);
	}
	XDELETEVEC(g.files);
	XDELETEVEC(g.srcs);
	for (size_t i = 0; i < g.nvalues; i++)
		free(g.values[i]);
	XDELETEVEC(g.values);
	free(g.why);
}
