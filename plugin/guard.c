/* api=: the branches of the module's own #if conditionals that hold its
 * includes and shapes and test the kernel, as guard records: built
 * against another kernel, the module may compile other branches, and
 * check --target's probe asks that kernel's preprocessor which. The files'
 * branches are lib/cond.c's; what each identifier of a condition is
 * (the kernel's, the module's own, the compiler's or the command line's)
 * is libcpp's, at the end of the unit. */
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

#include "ksunset.h"

/* What a condition's identifiers test. */
enum tests {
	TESTS_NOTHING = 0,	/* the same in any kernel's build */
	TESTS_KERNEL = 1,	/* the kernel: its version, configuration, macros */
	TESTS_OWN = 2,		/* a macro of the module's own */
};

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
	int depth;		/* of own macros looked into */
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
	if (!ks_buf_read_file(&text, name) && ks_cond_scan(text.p, text.len, &f->cond) < 0)
		error("%s: out of memory reading the conditionals of %qs", g->p->name, name);
	f->used = XCNEWVEC(bool, f->cond.n + 1);
	ks_buf_free(&text);
	return f;
}

/* Marks the branch that holds loc. */
static void mark(struct guards *g, location_t loc)
{
	struct ks_record_use at;
	const struct ks_cond_branch *b;
	struct gfile *f;

	ks_record_place(loc, &at);
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

/* The one #define of id (n bytes) in the module's files read, with no
 * #undef: its file and line. */
static bool sole_define(struct guards *g, const char *id, size_t n, struct gfile **at,
			unsigned *line)
{
	unsigned count = 0;

	for (size_t i = 0; i < g->n; i++)
		for (size_t k = 0; k < g->files[i].cond.ndefs; k++) {
			const struct ks_cond_define *d = &g->files[i].cond.defs[k];

			if (strlen(d->name) != n || strncmp(d->name, id, n))
				continue;
			if (d->undef)
				return false;
			count++;
			*at = &g->files[i];
			*line = d->line;
		}
	return count == 1;
}

static char *kernel_part(struct guards *g, const struct ks_cond_branch *b, bool *own);

struct ident_walk {
	struct guards *g;
	int tests;
	char *text;		/* the condition, its defined() of own macros resolved */
};

/* What identifier id (n bytes) tests: the kernel's version and
 * configuration, a macro of its headers, or a name that nothing defines
 * here (the target's headers answer for it); the module's own macro (the
 * kernel too when its definition sits in a branch that tests the kernel,
 * or its body names the kernel's version or configuration); the
 * compiler's and the command line's test nothing that differs between
 * kernels. A "defined(X)" of an own macro with one #define, in a branch
 * whose conditions test the kernel alone, becomes those conditions: what
 * the target's preprocessor can answer. */
static int ident_tests(const char *id, size_t n, void *arg)
{
	struct ident_walk *w = (struct ident_walk *)arg;
	struct guards *g = w->g;
	cpp_hashnode *node = cpp_lookup(parse_in, (const unsigned char *)id, (unsigned)n);
	location_t def = cpp_macro_p(node) ? cpp_macro_definition_location(node) : 0;
	expanded_location x = expand_location(def);
	struct gfile *f = NULL;
	unsigned line = 0;
	bool own_def = sole_define(g, id, n, &f, &line);
	int tests = TESTS_NOTHING;

	if (version_ident(id, n))
		tests = TESTS_KERNEL;
	else if (cpp_macro_p(node) && !cpp_user_macro_p(node))
		tests = TESTS_NOTHING;	/* the compiler's: __GNUC__, __has_include */
	else if (cpp_macro_p(node) && (def <= BUILTINS_LOCATION || !x.file || *x.file == '<'))
		tests = TESTS_NOTHING;	/* built in, or -D on the command line */
	else if (cpp_macro_p(node) && ks_api_foreign(g->p, ks_api_spelling(def)))
		tests = TESTS_KERNEL;
	else if (!cpp_macro_p(node) && !own_def)
		tests = TESTS_KERNEL;	/* defined nowhere here */
	else
		tests = TESTS_OWN;
	if (tests == TESTS_OWN && g->depth < 2) {
		const struct ks_cond_branch *b;
		char *part, *resolved;
		bool mixed = false;

		g->depth++;
		if (!own_def) {		/* defined more than once: where it counts */
			f = file_of(g, x.file);
			line = x.line;
		}
		b = ks_cond_at(&f->cond, line);
		part = b ? kernel_part(g, b, &mixed) : NULL;
		if (part && *part)
			tests |= TESTS_KERNEL;
		if (cpp_macro_p(node) &&
		    ks_cond_idents((const char *)cpp_macro_definition(parse_in, node), names_version,
				   NULL))
			tests |= TESTS_KERNEL;
		/* defined(X) of X defined once, in a branch of the kernel's */
		if (own_def && part && *part && !mixed &&
		    (resolved = ks_cond_replace_defined(w->text, id, n, part))) {
			free(w->text);
			w->text = resolved;
		}
		free(part);
		g->depth--;
	}
	w->tests |= tests;
	return 0;
}

/* What text (a condition) tests, after its defined() of own macros are
 * resolved where they can be (*text replaced). */
static int tests_of(struct guards *g, char **text)
{
	struct ident_walk w = { g, TESTS_NOTHING, xstrdup(*text) };

	(void)ks_cond_idents(*text, ident_tests, &w);
	if (strcmp(w.text, *text)) {	/* resolved: judged again */
		free(*text);
		*text = w.text;
		return tests_of(g, text);
	}
	free(w.text);
	return w.tests;
}

/* The conditions of branch b that test the kernel alone, joined by &&
 * ("" none); *own when one tests the module's own macros as well. */
static char *kernel_part(struct guards *g, const struct ks_cond_branch *b, bool *own)
{
	struct ks_buf cond = KS_BUF_INIT;
	int r = 0;

	for (size_t i = 0; i < b->nconds && !r; i++) {
		char *c = xstrdup(b->conds[i]);
		int t = tests_of(g, &c);

		if (t == (TESTS_KERNEL | TESTS_OWN))
			*own = true;
		else if (t == TESTS_KERNEL)
			r = ks_buf_addf(&cond, "%s%s", cond.len ? " && " : "", c);
		free(c);
	}
	if (r)
		error("%s: out of memory", g->p->name);
	return cond.p ? ks_buf_steal(&cond) : xstrdup("");
}

/* The guard record of a branch: the conditions that test the kernel
 * alone; own when one tests the module's own macros too. 0: none to
 * write (it tests nothing that differs between kernels). */
static int encode(struct guards *g, const struct gfile *f, const struct ks_cond_branch *b,
		  struct ks_buf *desc)
{
	struct ks_record_guard rec = { const_cast<char *>(f->name), b->first, b->last, false, NULL };
	char *cond = kernel_part(g, b, &rec.own);
	int r = 0;

	if (*cond || rec.own) {
		rec.cond = *cond ? cond : const_cast<char *>("1");
		r = ks_record_encode_guard(desc, &rec);
	}
	free(cond);
	return r;
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
	char *part;

	if (!x.file)
		return NULL;
	b = ks_cond_at(&file_of(g, x.file)->cond, x.line);
	part = b ? kernel_part(g, b, own) : xstrdup("");
	if (ks_cond_idents((const char *)cpp_macro_definition(parse_in, node), names_version, NULL))
		*own = true;
	if (!*part && !*own) {
		free(part);
		return NULL;
	}
	return part;
}

/* An expansion of such a macro: where, and what it depends on. */
struct dep {
	struct ks_record_use at;
	char *cond;
	bool own;
};

/* Whether dep lies on line of file, or in lines from..to of it. */
static bool dep_in(const struct dep *d, const char *file, unsigned from, unsigned to)
{
	return d->at.line >= from && d->at.line <= to && !strcmp(d->at.file, file);
}

/* A shape's line whose use is spelled with macros of the module's own
 * that the kernel decides (on its line, or in its callback's declarator:
 * ovpn's genl_split_ops, its own name for genl_ops before 6.2): a guard of
 * that line alone, their conditions and its branch's. */
static int line_guard(struct guards *g, const struct ks_pshape *s, const struct dep *deps,
		      size_t ndeps, struct ks_strmap *done, struct ks_buf *desc)
{
	struct ks_record_use at, from, to;
	struct ks_buf cond = KS_BUF_INIT;
	struct ks_record_guard rec;
	const struct ks_cond_branch *b;
	char *part, *key;
	bool any = false, own = false;
	void **slot;
	int r = 0;

	ks_record_place(s->loc, &at);
	memset(&from, 0, sizeof(from));
	memset(&to, 0, sizeof(to));
	if (s->decl != UNKNOWN_LOCATION) {
		ks_record_place(s->decl, &from);
		ks_record_place(s->decl_end, &to);
	}
	for (size_t i = 0; i < ndeps && !r; i++) {
		if (!dep_in(&deps[i], at.file, at.line, at.line) &&
		    !(from.file && dep_in(&deps[i], from.file, from.line, to.line)))
			continue;
		any = true;
		own |= deps[i].own;
		if (*deps[i].cond && !deps[i].own)
			r = ks_buf_addf(&cond, "%s(%s)", cond.len ? " && " : "", deps[i].cond);
	}
	key = any ? ks_strdupf("%s:%u", at.file, at.line) : NULL;
	if (!any || r || !key || ks_strmap_put(done, key, &slot) != 1) {
		free(key);
		ks_buf_free(&cond);
		return r;
	}
	*slot = key;		/* the map borrows it: freed with the map */
	b = ks_cond_at(&file_of(g, at.file)->cond, at.line);
	part = b ? kernel_part(g, b, &own) : xstrdup("");
	r = *part ? ks_buf_addf(&cond, "%s%s", cond.len ? " && " : "", part) : 0;
	rec.file = at.file;
	rec.first = rec.last = at.line;
	rec.own = own;
	rec.cond = cond.len ? cond.p : const_cast<char *>("1");
	r = r ? r : ks_record_encode_guard(desc, &rec);
	free(part);
	ks_buf_free(&cond);
	return r;
}

/* The line guards of every shape (line_guard()). */
static int line_guards(struct guards *g, struct ks_buf *desc)
{
	struct ks_plugin *p = g->p;
	struct dep *deps = XNEWVEC(struct dep, p->nown_macros + 1);
	struct ks_strmap done, macros;
	size_t ndeps = 0;
	int r = 0;

	memset(&done, 0, sizeof(done));
	memset(&macros, 0, sizeof(macros));
	for (size_t i = 0; i < p->nown_macros; i++) {
		struct dep *d = &deps[ndeps];
		cpp_hashnode *node = p->own_macros[i].node;
		void **slot;

		/* each macro judged once: macros[name] is 1 + the index of its
		 * first dep, or the map's own address when it does not depend
		 * on the kernel */
		if (ks_strmap_put(&macros, (const char *)NODE_NAME(node), &slot) < 0) {
			r = -ENOMEM;
			break;
		}
		d->own = false;
		if (*slot == (void *)&macros) {
			continue;
		} else if (*slot) {
			const struct dep *first = &deps[(uintptr_t)*slot - 1];

			d->cond = xstrdup(first->cond);
			d->own = first->own;
		} else if (!(d->cond = macro_condition(g, node, &d->own))) {
			*slot = (void *)&macros;
			continue;
		} else {
			*slot = (void *)(uintptr_t)(ndeps + 1);
		}
		ks_record_place(p->own_macros[i].loc, &d->at);
		ndeps++;
	}
	for (size_t i = 0; ndeps && i < p->nshapes && !r; i++)
		r = line_guard(g, &p->shapes[i], deps, ndeps, &done, desc);
	for (size_t i = 0; i < ndeps; i++)
		free(deps[i].cond);
	for (size_t i = 0; i < done.cap; i++)
		free(done.slots[i].val);
	ks_strmap_free(&done);
	ks_strmap_free(&macros);
	XDELETEVEC(deps);
	return r;
}

int ks_guard_encode(struct ks_plugin *p, struct ks_buf *desc)
{
	struct guards g = { p, NULL, 0, 0 };
	int r = 0;

	/* every file of the module's that the unit read: their #defines */
	for (size_t i = 0; i < p->foreign.cap; i++)
		if (p->foreign.slots[i].key && (intptr_t)p->foreign.slots[i].val == 1)
			file_of(&g, p->foreign.slots[i].key);
	for (size_t i = 0; i < p->nincludes; i++)
		mark(&g, p->includes[i].loc);
	for (size_t i = 0; i < p->nshapes; i++)
		mark(&g, p->shapes[i].loc);
	for (size_t i = 0; i < g.n && !r; i++) {
		for (size_t j = 0; j < g.files[i].cond.n && !r; j++)
			if (g.files[i].used[j])
				r = encode(&g, &g.files[i], &g.files[i].cond.v[j], desc);
	}
	r = r ? r : line_guards(&g, desc);
	for (size_t i = 0; i < g.n; i++) {
		free(g.files[i].name);
		ks_cond_free(&g.files[i].cond);
		XDELETEVEC(g.files[i].used);
	}
	XDELETEVEC(g.files);
	return r;
}
