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

static int tests_of_text(struct guards *g, const char *text);

struct ident_walk {
	struct guards *g;
	int tests;
};

/* What identifier id (n bytes) tests: the kernel's version and
 * configuration, a macro of its headers, or one it may define and this
 * kernel does not (an undefined name: the target's headers answer for it);
 * the module's own macro (the kernel too when it is defined in a branch
 * that tests the kernel, or its body names the kernel's version or
 * configuration); the compiler's and the command line's test nothing that
 * differs between kernels. */
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

static int ident_tests(const char *id, size_t n, void *arg)
{
	struct ident_walk *w = (struct ident_walk *)arg;
	struct guards *g = w->g;
	cpp_hashnode *node;
	location_t def;
	expanded_location x;

	if (version_ident(id, n)) {
		w->tests |= TESTS_KERNEL;
		return 0;
	}
	node = cpp_lookup(parse_in, (const unsigned char *)id, (unsigned)n);
	if (!cpp_macro_p(node)) {
		w->tests |= TESTS_KERNEL;	/* undefined here */
		return 0;
	}
	if (!cpp_user_macro_p(node))
		return 0;		/* the compiler's: __GNUC__, __has_include */
	def = cpp_macro_definition_location(node);
	x = expand_location(def);
	if (def <= BUILTINS_LOCATION || !x.file || *x.file == '<')
		return 0;		/* built in, or -D on the command line */
	if (ks_api_foreign(g->p, ks_api_spelling(def))) {
		w->tests |= TESTS_KERNEL;
		return 0;
	}
	w->tests |= TESTS_OWN;
	if (g->depth < 2) {
		const struct ks_cond_branch *b = ks_cond_at(&file_of(g, x.file)->cond, x.line);
		const char *body = (const char *)cpp_macro_definition(parse_in, node);

		g->depth++;
		for (size_t i = 0; b && i < b->nconds; i++)
			w->tests |= tests_of_text(g, b->conds[i]) & TESTS_KERNEL;
		if (ks_cond_idents(body, names_version, NULL))
			w->tests |= TESTS_KERNEL;
		g->depth--;
	}
	return 0;
}

static int tests_of_text(struct guards *g, const char *text)
{
	struct ident_walk w = { g, TESTS_NOTHING };

	(void)ks_cond_idents(text, ident_tests, &w);
	return w.tests;
}

/* The guard record of a branch: the conditions that test the kernel
 * alone; own when one tests the module's own macros too. 0: none to
 * write (it tests nothing that differs between kernels). */
static int encode(struct guards *g, const struct gfile *f, const struct ks_cond_branch *b,
		  struct ks_buf *desc)
{
	struct ks_buf cond = KS_BUF_INIT;
	struct ks_record_guard rec = { const_cast<char *>(f->name), b->first, b->last, false, NULL };
	int r = 0;

	for (size_t i = 0; i < b->nconds && !r; i++) {
		int t = tests_of_text(g, b->conds[i]);

		if (t == (TESTS_KERNEL | TESTS_OWN))
			rec.own = true;
		else if (t == TESTS_KERNEL)
			r = ks_buf_addf(&cond, "%s%s", cond.len ? " && " : "", b->conds[i]);
	}
	if (!r && (cond.len || rec.own)) {
		rec.cond = cond.len ? cond.p : const_cast<char *>("1");
		r = ks_record_encode_guard(desc, &rec);
	}
	ks_buf_free(&cond);
	return r;
}

int ks_guard_encode(struct ks_plugin *p, struct ks_buf *desc)
{
	struct guards g = { p, NULL, 0, 0 };
	int r = 0;

	for (size_t i = 0; i < p->nincludes; i++)
		mark(&g, p->includes[i].loc);
	for (size_t i = 0; i < p->nshapes; i++)
		mark(&g, p->shapes[i].loc);
	for (size_t i = 0; i < g.n && !r; i++) {
		for (size_t j = 0; j < g.files[i].cond.n && !r; j++)
			if (g.files[i].used[j])
				r = encode(&g, &g.files[i], &g.files[i].cond.v[j], desc);
	}
	for (size_t i = 0; i < g.n; i++) {
		free(g.files[i].name);
		ks_cond_free(&g.files[i].cond);
		XDELETEVEC(g.files[i].used);
	}
	XDELETEVEC(g.files);
	return r;
}
