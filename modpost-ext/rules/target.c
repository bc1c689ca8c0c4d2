/* check --target: load verdicts on another kernel (missing, GPL-only,
 * namespace), the remedy for each from the forecast of the module's
 * build there (forecast/), and the rows of that forecast's breaks. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "date.h"
#include "forecast/forecast.h"
#include "module/namespace.h"
#include "module/policy.h"
#include "input/migrations.h"
#include "rules/target.h"

int ks_target_open(struct ks_target *t, const char *arg, const char *release,
		   struct ks_diags *d)
{
	int r = ks_kernel_open(&t->k, arg, d);

	if (r)
		return r;
	if (release)
		ks_kernel_set_release(&t->k, release);
	ks_headers_open(&t->h, t->k.dir);
	if (!ks_headers_present(&t->h))
		ks_diag_add(d, KS_NOTE, arg, 0, 0,
			    "no kernel headers here (no include/linux/module.h): --target gives "
			    "load verdicts, but whether the modules build there stays unknown");
	return 0;
}

void ks_target_free(struct ks_target *t)
{
	ks_kernel_free(&t->k);
	ks_headers_free(&t->h);
}

const char *ks_remedy_name(enum ks_remedy r)
{
	static const char *const names[] = { "none", "rebuild", "source-change", "unknown" };

	return r <= KS_REMEDY_UNKNOWN ? names[r] : "?";
}

bool ks_target_missing(const struct ks_import *im)
{
	return im->c->target && !im->diff && !im->x && !ks_undef_ignored(im->sym);
}

bool ks_target_gpl_only(const struct ks_import *im)
{
	return im->c->target && im->x && im->x->gpl && !im->m->gpl_compatible;
}

bool ks_target_namespace(const struct ks_import *im)
{
	return im->c->target && im->x && !ks_ns_admits(im->x->ns, im->m);
}

/* Whether shape sh is of a name the source writes (not a member's). */
static bool names_something(const struct ks_record_shape *sh)
{
	return sh->what == KS_SHAPE_CALL || sh->what == KS_SHAPE_ADDR || sh->what == KS_SHAPE_MACRO ||
	       sh->what == KS_SHAPE_OBJECT || sh->what == KS_SHAPE_VAR || sh->what == KS_SHAPE_ENUM;
}

/* Whether a shape's kind fits a use's: a call is written as a function
 * or a function-like macro, data and addresses as the rest. */
static bool fits(const struct ks_record_shape *sh, enum ks_use_kind k)
{
	bool called = sh->what == KS_SHAPE_CALL || sh->what == KS_SHAPE_MACRO;

	return k == KS_USE_CALL ? called : !called;
}

/* The name m's source writes where l is (the plugin records a use at the
 * token the source writes; DWARF gives the line, roughly the column, and
 * the kernel's inline function called there): the inline's shape on the
 * line, else a shape at l's place, else the import's own name on its
 * line, else the first on its line whose kind fits the use, else
 * any on the line, else (a call written in a macro of the module's own,
 * which the plugin records where the macro says it, maybe in the
 * module's header) the import's own name in the same function. NULL:
 * none. */
static const char *written_at(const struct ks_module *m, const struct ks_loc *l, const char *sym)
{
	const char *own = NULL, *fit = NULL, *line = NULL, *same = NULL;

	for (size_t u = 0; u < m->units.n; u++) {
		const struct ks_unit *un = &m->units.v[u];

		for (size_t i = 0; i < un->nshapes; i++) {
			const struct ks_record_shape *sh = &un->shapes[i];
			bool here = !strcmp(sh->file, l->file) && sh->line == l->line;

			if (!names_something(sh))
				continue;
			if (here && l->written_as && !strcmp(sh->name, l->written_as))
				return sh->name;	/* the inline DWARF says it called */
			if (here && l->col && sh->col == l->col && fits(sh, l->kind) &&
			    (!l->written_as || l->source == KS_SOURCE_PLUGIN))
				return sh->name;
			if (here && !own && !strcmp(sh->name, sym))
				own = sh->name;
			if (here && !fit && fits(sh, l->kind))
				fit = sh->name;
			if (here && !line)
				line = sh->name;
			if (!same && !strcmp(sh->name, sym) && !strcmp(sh->function, l->function))
				same = sh->name;
		}
	}
	return own ? own : fit ? fit : line ? line : same;
}

/* Each location's name as the source writes it, and the distinct ones. */
static void written_names(const struct ks_module *m, struct ks_finding *f)
{
	for (size_t i = 0; i < f->nlocs; i++) {
		const char *w = written_at(m, &f->locs[i], f->symbol);

		if (!w)
			continue;
		free(f->locs[i].written_as);
		f->locs[i].written_as = ks_xstrdup(w);
		ks_strv_add_unique(&f->written_as, &f->nwritten, w);
	}
}

/* How many of f's locations are the site of a break of v; the others are
 * marked as compiling there. */
static size_t breaking(const struct ks_verdict *v, struct ks_finding *f)
{
	size_t n = 0;

	for (size_t i = 0; i < f->nlocs; i++) {
		bool hit = false;

		for (size_t d = 0; d < v->ndiffs && !hit; d++)
			for (size_t s = 0; s < v->diffs[d].sites.n && !hit; s++)
				hit = (v->diffs[d].sites.v[s].line == f->locs[i].line ||
				       v->diffs[d].sites.v[s].call_line == f->locs[i].line) &&
				      !strcmp(v->diffs[d].sites.v[s].file, f->locs[i].file);
		n += hit;
		f->locs[i].compiles = !hit;
	}
	return n;
}

static void set_why(struct ks_finding *f, enum ks_remedy r, const char *fmt, ...) KS_PRINTF(3, 4);

static void set_why(struct ks_finding *f, enum ks_remedy r, const char *fmt, ...)
{
	struct ks_buf b = KS_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	ks_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	f->remedy = r;
	f->remedy_why = ks_buf_steal(&b);
}

/* Whether the target's headers import namespace ns for the module (its
 * forecast found MODULE_IMPORT_NS(ns) in them). */
static bool headers_import(const struct ks_verdict *v, const char *ns)
{
	for (size_t i = 0; v && i < v->nimport_ns; i++)
		if (!strcmp(v->import_ns[i], ns))
			return true;
	return false;
}

/* A missing export: its remedy speaks of its uses alone. A rebuild is
 * enough when every use compiles there (the forecast's probe judged each
 * place and found no break); a use that breaks is a source change; a use
 * the forecast could not judge, or without a forecast, nothing is
 * claimed. Whether the module builds there is its outlook's to say. */
static void remedy_missing(const struct ks_verdict *v, struct ks_finding *f)
{
	size_t n;

	/* no rebuild makes the target export what its kernel never did */
	if (v && v->built && !ks_symvers_lookup(v->built, f->symbol)) {
		set_why(f, KS_REMEDY_UNKNOWN, "the kernel it was built for does not export it "
			"either: another module provides it, which was not given with it");
		return;
	}
	if (!v || v->whole) {
		set_why(f, KS_REMEDY_UNKNOWN, "%s", v && v->why ? v->why : "no forecast");
		return;
	}
	if (!f->nlocs) {
		set_why(f, KS_REMEDY_UNKNOWN, "no source location");
		return;
	}
	for (size_t i = 0; i < f->nlocs; i++) {
		const char *why = ks_verdict_unjudged(v, f->locs[i].file, f->locs[i].line);

		if (!f->locs[i].written_as) {
			set_why(f, KS_REMEDY_UNKNOWN,
				"the plugin recorded nothing the source writes at %s:%u",
				f->locs[i].file, f->locs[i].line);
			return;
		}
		if (why) {
			set_why(f, KS_REMEDY_UNKNOWN, "%s:%u: %s", f->locs[i].file, f->locs[i].line,
				why);
			return;
		}
	}
	n = breaking(v, f);
	if (n && f->nlocs == 1)
		set_why(f, KS_REMEDY_SOURCE_CHANGE, "its use does not compile there");
	else if (n)	/* only those are listed: the others need no change */
		set_why(f, KS_REMEDY_SOURCE_CHANGE,
			"%zu of its %zu uses do%s not compile there; a rebuild is enough for "
			"the other %zu",
			n, f->nlocs, n == 1 ? "es" : "", f->nlocs - n);
	else
		set_why(f, KS_REMEDY_REBUILD, "every use compiles there");
}

void ks_target_remedy(const struct ks_check *c, const struct ks_module *m, struct ks_finding *f)
{
	const struct ks_verdict *v = c->forecast ? ks_forecast_lookup(c->forecast, m->path) : NULL;
	const char *ns = f->exported ? f->exported->ns : "";

	written_names(m, f);
	if (!strcmp(f->rule->target_status, "missing")) {
		remedy_missing(v, f);
		return;
	}
	/* a GPL-only export needs another license, a namespace an import,
	 * unless the target's own headers import it for the module: which
	 * only a probe of every unit can tell */
	if (strcmp(f->rule->target_status, "namespace") || ks_ns_is_module_list(ns))
		f->remedy = KS_REMEDY_SOURCE_CHANGE;
	else if (headers_import(v, ns))
		set_why(f, KS_REMEDY_REBUILD, "the target's headers import %s", ns);
	else if (!v || v->whole || v->unjudged.n)
		set_why(f, KS_REMEDY_UNKNOWN, "%s", v && v->why ? v->why : "no forecast");
	else
		f->remedy = KS_REMEDY_SOURCE_CHANGE;
}

/* "'kmalloc', 'vmalloc'": the names the source writes, or its symbol. */
static void say_written(struct ks_buf *b, const struct ks_finding *f)
{
	if (!f->nwritten)
		ks_buf_addf(b, "'%s'", f->symbol);
	for (size_t i = 0; i < f->nwritten; i++)
		ks_buf_addf(b, "%s'%s'", i ? ", " : "", f->written_as[i]);
}

/* "is not exported by target kernel REL: a rebuild against its headers is
 * enough (every use compiles there: 'kmalloc' as the source writes it)"
 * and the other verdicts. */
static void word_remedy(struct ks_buf *b, const struct ks_finding *f)
{
	const char *why = f->remedy_why ? f->remedy_why : "?";

	switch (f->remedy) {
	case KS_REMEDY_REBUILD:
		ks_buf_addf(b, ": a rebuild against its headers is enough (%s: ", why);
		say_written(b, f);
		ks_buf_adds(b, " as the source writes it)");
		break;
	case KS_REMEDY_SOURCE_CHANGE:
		ks_buf_addf(b, ": the source must change (%s: ", why);
		say_written(b, f);
		ks_buf_adds(b, " as the source writes it)");
		break;
	default:
		ks_buf_addf(b, ": whether a rebuild is enough is unknown (%s)", why);
	}
}

/* MODULE_IMPORT_NS(NS), or MODULE_IMPORT_NS("NS") for a target of 6.13
 * or later, where the macro takes a string. */
static void say_import(struct ks_buf *b, const struct ks_finding *f, const char *ns)
{
	struct ks_release rel, string_form = { 6, 13, 0, 0 };
	bool quoted = f->target && ks_release_parse_target(f->target, &rel) == 0 &&
		      ks_release_cmp(&rel, &string_form) >= 0;

	ks_buf_addf(b, quoted ? "MODULE_IMPORT_NS(\"%s\")" : "MODULE_IMPORT_NS(%s)", ns);
}

void ks_target_word(struct ks_buf *b, const struct ks_finding *f)
{
	const char *rel = f->target ? f->target : "(release unknown)";
	const char *ns = f->exported ? f->exported->ns : "";

	if (!strcmp(f->rule->target_status, "missing")) {
		ks_buf_addf(b, "is not exported by the target kernel %s", rel);
		word_remedy(b, f);
	} else if (!strcmp(f->rule->target_status, "gpl-only")) {
		ks_buf_addf(b, "is GPL-only in the target kernel %s and module license '%s' "
			       "is not GPL-compatible: the module will not load there",
			    rel, f->license ? f->license : "(none)");
	} else if (ks_ns_is_module_list(ns)) {
		ks_buf_addf(b, "is exported only to %s in the target kernel %s: the module "
			       "will not load there",
			    ns, rel);
	} else if (f->remedy == KS_REMEDY_REBUILD) {
		ks_buf_addf(b, "is in namespace %s in the target kernel %s: a rebuild against "
			       "its headers is enough (%s)",
			    ns, rel, f->remedy_why ? f->remedy_why : "?");
	} else {
		ks_buf_addf(b, "is in namespace %s in the target kernel %s: add ", ns, rel);
		say_import(b, f, ns);
		if (f->remedy == KS_REMEDY_UNKNOWN)
			ks_buf_addf(b, ", unless the target's headers import it (whether they do "
				       "is unknown: %s), or the module will not load there",
				    f->remedy_why ? f->remedy_why : "?");
		else
			ks_buf_adds(b, ", or the module will not load there");
	}
}

void ks_target_tag(struct ks_buf *b, const struct ks_finding *f)
{
	const char *rel = f->target ? f->target : "target";

	if (!strcmp(f->rule->target_status, "missing"))
		ks_buf_addf(b, "not exported by %s", rel);
	else if (!strcmp(f->rule->target_status, "gpl-only"))
		ks_buf_addf(b, "GPL-only in %s", rel);
	else
		ks_buf_addf(b, "namespace %s in %s", f->exported->ns, rel);
}

static const char *const wordings[] = {
#define KS_BREAK(id, name, wording, sarif, decided, headers) [KS_BREAK_##id] = wording,
#include "forecast/breaks.def"
#undef KS_BREAK
};
_Static_assert(KS_ARRAY_SIZE(wordings) == KS_NBREAKS, "a wording per kind of break");

/* A shape as the message shows it: a macro's parameters after its name. */
static const char *named(const struct ks_diff *d, const char *shape)
{
	return shape[0] == '(' ? d->name : "";
}

/* "'OLD' where the module was built, 'NEW' there", as far as each is known. */
static void say_shapes(struct ks_buf *b, const struct ks_diff *d)
{
	const char *old = d->old ? d->old : "", *now = d->now ? d->now : "";

	if (*old && *now)
		ks_buf_addf(b, "'%s%s' where the module was built, '%s%s' there", named(d, old),
			    old, named(d, now), now);
	else if (*now)
		ks_buf_addf(b, "'%s%s' there", named(d, now), now);
	else if (*old)
		ks_buf_addf(b, "'%s%s' where the module was built", named(d, old), old);
}

/* The value of a wording's field (breaks.def); NULL: no such field. */
static const char *field(const struct ks_diff *d, char c, const struct ks_buf *shapes)
{
	const char *s = c == 'o' ? d->old : c == 'n' ? d->now : c == 'h' ? d->header
		      : c == 'c' ? d->callback : c == 'S' ? (shapes->p ? shapes->p : "") : NULL;

	return s ? s : strchr("onhc", c) ? "" : NULL;
}

/* A kind's wording (breaks.def's template) with d's fields. */
static void say_break(struct ks_buf *b, const struct ks_diff *d)
{
	struct ks_buf shapes = KS_BUF_INIT;

	say_shapes(&shapes, d);
	for (const char *t = wordings[d->kind]; *t; t++) {
		bool neg = t[0] == '{' && t[1] == '!';
		const char *v = t[0] == '{' ? field(d, t[1 + neg], &shapes)
			      : t[0] == '$' ? field(d, t[1], &shapes) : NULL;

		if (t[0] == '$' && v) {
			ks_buf_adds(b, v);
			t++;
		} else if (t[0] == '{' && v) {	/* {X:...} or {!X:...}: kept or skipped */
			t += 2 + neg;
			if (!*v != neg)
				t += strcspn(t, "}");
		} else if (t[0] != '}') {
			ks_buf_addc(b, *t);
		}
	}
	ks_buf_free(&shapes);
}

/* "dropped argument 2", "passed 'NULL' as argument 3", "passed '&y'
 * instead of '&x' as argument 1", "called x()",
 * "made parameter 1 const", "made the return type const", "took a
 * 'struct x' as parameter 2", "dropped parameter 2", "declared parameter 2
 * a local set by f(parameter 1)" (of e's callbacks) */
static void made(struct ks_buf *b, const struct ks_migration *e, const struct ks_rewrite *rw)
{
	if (rw->op == KS_RW_DROP)
		ks_buf_addf(b, "dropped %s %u", e->callback ? "parameter" : "argument", rw->arg);
	else if (rw->op == KS_RW_INSERT)
		ks_buf_addf(b, "passed '%s' as argument %u", rw->text, rw->arg);
	else if (rw->op == KS_RW_REPLACE)
		ks_buf_addf(b, "passed '%s' instead of '%s' as argument %u", rw->text, rw->from,
			    rw->arg);
	else if (rw->op == KS_RW_CONST && rw->arg)
		ks_buf_addf(b, "made parameter %u const", rw->arg);
	else if (rw->op == KS_RW_CONST)
		ks_buf_adds(b, "made the return type const");
	else if (rw->op == KS_RW_RETYPE)
		ks_buf_addf(b, "took a '%s' instead of a '%s' as parameter %u", rw->text, rw->from,
			    rw->arg);
	else if (rw->op == KS_RW_INCLUDE)
		ks_buf_addf(b, "included <%s>", rw->text);
	else if (rw->op == KS_RW_DELETE)
		ks_buf_adds(b, "deleted the line");
	else if (rw->op == KS_RW_OMIT)
		ks_buf_adds(b, "dropped it from the flags it was OR-ed with");
	else if (rw->op == KS_RW_LOCAL)
		ks_buf_addf(b, "declared parameter %u a local set by %s(parameter %u)", rw->arg,
			    rw->text, rw->param);
	else if (rw->op == KS_RW_WRAP)
		ks_buf_addf(b, "called %s() without argument %u ('%s')", rw->text, rw->arg, rw->from);
	else
		ks_buf_addf(b, "called %s()", rw->text);
}

/* Whether a Call: entry's sites are lines that name it, not only calls
 * (its first rewrite deletes the line, or drops it from flags). */
static bool names_it(const struct ks_migration *e)
{
	return e->rw[0].op == KS_RW_DELETE || e->rw[0].op == KS_RW_OMIT;
}

/* What a Call:, Assign:, Callback: or Read: entry's sites are, said of
 * of them. */
static const char *sites(const struct ks_migration *e)
{
	return e->callback ? names_it(e) ? "initializers" : "callbacks"
	       : e->read   ? "reads"
	       : e->assign ? "assignments"
	       : names_it(e)  ? "lines"
			   : "calls";
}

/* The sites of entry e that changed: "in-tree calls of f() that changed
 * from 6.1 to 6.12" ("in-tree calls that changed ..." when the name is
 * said before: named false); an Include: entry's "in-tree files that named
 * f (it) in 6.1 and 6.12 and added the #include of a header that declares
 * it". */
static void changed(struct ks_buf *b, const struct ks_migration *e,
		    const struct ks_migrations *ms, bool named)
{
	if (e->include) {
		ks_buf_addf(b, "in-tree files that named %s in %s and %s and added the #include of "
			       "a header that declares it",
			    named ? e->name : "it", ms->from, ms->to);
		return;
	}
	ks_buf_addf(b, "in-tree %s", sites(e));
	if (e->argument) {	/* "calls of f() that passed 'x' as argument 1 in 6.1" */
		ks_buf_addf(b, " of %.*s() that passed '%s' as argument %u in %s, paired in %s",
			    (int)strcspn(e->name, " "), e->name, e->rw[0].from, e->rw[0].arg,
			    ms->from, ms->to);
		return;
	}
	if (named && e->assign)
		ks_buf_addf(b, " with '%s'", e->name);
	else if (named)
		ks_buf_addf(b, " of %s%s", e->name, e->callback || e->read || names_it(e) ? "" : "()");
	ks_buf_addf(b, " that changed from %s to %s", ms->from, ms->to);
}

/* "e.g. FILE:LINE in 6.12", and the line's text where the source is at
 * hand (--kernel-source): "e.g. FILE:LINE in 6.12: `TEXT`" */
static void example(struct ks_buf *b, const struct ks_migrations *ms, const struct ks_rewrite *rw)
{
	char *text = ks_migration_example_text(ms, rw);

	ks_buf_addf(b, "e.g. %s in %s", rw->example, ms->to);
	if (text)
		ks_buf_addf(b, ": `%s`", text);
	free(text);
}

void ks_fix_words(struct ks_buf *b, const struct ks_migration *e, const struct ks_migrations *ms)
{
	const struct ks_rewrite *rw = ks_migration_rewrite(e), *r0 = &e->rw[0], *l;

	if (e->target) {
		ks_buf_addf(b, "the target's <%s> %s %s (in-tree code shows no #include to copy)",
			    r0->text,
			    strncmp(e->name, "struct ", 7) && strncmp(e->name, "union ", 6)
				    ? "declares"
				    : "defines",
			    e->name);
		return;
	}
	if (!e->call) {
		ks_buf_addf(b, "in-tree code includes <%s> instead (%u of the %u files that included "
			       "<%s> in %s; ",
			    r0->text, r0->count, e->of, e->name, ms->from);
		example(b, ms, r0);
		ks_buf_addc(b, ')');
		return;
	}
	if (rw && rw->op == KS_RW_WRAP) {	/* a definition, not sites */
		ks_buf_addf(b, "%s's headers define %s() as %.*s() with '%s' as argument %u, and %s's "
			       "still declare %s() (",
			    ms->from, rw->text, (int)strcspn(e->name, " "), e->name, rw->from, rw->arg,
			    ms->to, rw->text);
		example(b, ms, rw);
		ks_buf_addc(b, ')');
		return;
	}
	if (rw) {
		if (rw->op == KS_RW_DROP && !e->callback)
			ks_buf_addf(b, "in-tree code drops argument %u of %s()", rw->arg, e->name);
		else if (rw->op == KS_RW_INSERT)
			ks_buf_addf(b, "in-tree code passes '%s' as argument %u of %s()", rw->text,
				    rw->arg, e->name);
		else if (rw->op == KS_RW_REPLACE)
			ks_buf_addf(b, "in-tree code passes '%s' instead of '%s' as argument %u of "
				       "%.*s()",
				    rw->text, rw->from, rw->arg, (int)strcspn(e->name, " "), e->name);
		else if (rw->op == KS_RW_RENAME)
			ks_buf_addf(b, "in-tree code calls %s() instead of %s()", rw->text, e->name);
		else if (rw->op == KS_RW_CALL && e->read)
			ks_buf_addf(b, "in-tree code calls %s() instead of reading %s", rw->text,
				    e->name);
		else if (rw->op == KS_RW_CALL)
			ks_buf_addf(b, "in-tree code calls %s() instead of assigning with '%s'",
				    rw->text, e->name);
		else if (rw->op == KS_RW_INCLUDE)
			ks_buf_addf(b, "in-tree code that names %s includes <%s>", e->name, rw->text);
		else if (rw->op == KS_RW_DELETE)
			ks_buf_addf(b, "in-tree code deletes the %s %s",
				    e->callback ? "initializer of" : "line that names", e->name);
		else if (rw->op == KS_RW_OMIT)
			ks_buf_addf(b, "in-tree code drops %s from the flags it ORs it with",
				    e->name);
		else {
			ks_buf_addf(b, "in-tree %s callbacks ", e->name);
			made(b, e, rw);
		}
		ks_buf_addf(b, " (%u of the %u ", rw->count, e->of);
		changed(b, e, ms, false);
		ks_buf_adds(b, "; ");
		example(b, ms, rw);
		ks_buf_addc(b, ')');
		if ((l = ks_migration_local(e, rw))) {	/* where the body used it */
			ks_buf_addf(b, "; %u of them, whose bodies still use it, ", l->count);
			made(b, e, l);
			ks_buf_adds(b, " (");
			example(b, ms, l);
			ks_buf_addc(b, ')');
		}
		return;
	}
	/* what the callers did, said as such, never as the fix */
	ks_buf_addf(b, "in-tree code shows no rewrite to copy: of the %u ", e->of);
	changed(b, e, ms, true);
	ks_buf_adds(b, ", ");
	for (unsigned i = 0; i < e->nrw; i++) {
		ks_buf_addf(b, "%s%u ", i ? ", " : "", e->rw[i].count);
		made(b, e, &e->rw[i]);
		ks_buf_adds(b, " (");
		example(b, ms, &e->rw[i]);
		ks_buf_addc(b, ')');
	}
	if (e->nrw == 1 && r0->op == KS_RW_INSERT && r0->count * 3 >= e->of * 2)
		ks_buf_adds(b, ", a value of the callers' own");
}

/* "does not build on the target kernel REL (arity): takes other
 * arguments: '(owner, name)' where the module was built, ... there; use
 * 'x' instead" (a replacement a schedule or the history names). */
void ks_build_word(struct ks_buf *b, const struct ks_finding *f)
{
	const struct ks_diff *d = f->diff;

	ks_buf_addf(b, "does not build on the target kernel %s (%s): ",
		    f->target ? f->target : "(release unknown)", ks_break_name(d->kind));
	say_break(b, d);
	/* the target's header is named already: what to do with it */
	if (f->fix && f->fix->target) {
		ks_buf_adds(b, ", to include (in-tree code shows no #include to copy)");
	} else if (f->fix) {
		ks_buf_adds(b, "; ");
		ks_fix_words(b, f->fix, f->fixes);
	}
	if (f->entry && f->entry->replace)
		ks_buf_addf(b, "; %s%s%s", f->entry->replace_ident ? "use '" : "",
			    f->entry->replace, f->entry->replace_ident ? "' instead" : "");
}

void ks_build_tag(struct ks_buf *b, const struct ks_finding *f)
{
	ks_buf_addf(b, "%s on %s", ks_break_name(f->diff->kind), f->target ? f->target : "target");
}

/* "needs source changes: 7 places (3 kinds: arity, gone, prototype)";
 * without what, "7 places: arity, gone, prototype" (ks_outlook_places) */
static void say_places(struct ks_buf *b, const char *what, const struct ks_outlook *o)
{
	const struct ks_verdict *v = o->v;
	size_t places = o->places, kinds = 0;
	bool seen[KS_NBREAKS] = { false };
	size_t n = 0;

	for (size_t i = 0; v && i < v->ndiffs; i++) {
		kinds += !seen[v->diffs[i].kind];
		seen[v->diffs[i].kind] = true;
	}
	kinds += o->nload_kinds;
	ks_buf_addf(b, "%s%s%zu place%s", what ? what : "", what ? ": " : "", places,
		    places == 1 ? "" : "s");
	if (kinds && !what)
		ks_buf_adds(b, ": ");
	else if (kinds)
		ks_buf_addf(b, " (%zu kind%s: ", kinds, kinds == 1 ? "" : "s");
	if (kinds) {
		for (size_t k = 0; k < KS_NBREAKS; k++)
			if (seen[k])
				ks_buf_addf(b, "%s%s", n++ ? ", " : "",
					    ks_break_name((enum ks_break)k));
		for (size_t k = 0; k < o->nload_kinds; k++)
			ks_buf_addf(b, "%s%s", n++ ? ", " : "", o->load_kinds[k]);
		if (what)
			ks_buf_addc(b, ')');
	}
	if (o->unjudged && !what)
		ks_buf_addf(b, "; %zu more unknown", o->unjudged);
	/* the places it could not judge may need changes too */
	if (o->unjudged && v && what)
		ks_buf_addf(b, "; whether %zu more place%s build%s there is unknown (%s)",
			    o->unjudged, o->unjudged == 1 ? "" : "s", o->unjudged == 1 ? "s" : "",
			    v->why ? v->why : "not judged");
}

const char *ks_outlook_word(struct ks_buf *b, const struct ks_outlook *o)
{
	const struct ks_verdict *v = o->v;
	bool loads = !o->load_findings;

	if (v && v->build == KS_BUILD_OK && o->unknowns) {
		ks_buf_addf(b, "does not load as built; whether a rebuild is enough for %zu of "
			       "its imports is unknown",
			    o->unknowns);
		return "unknown";
	}
	if (!v || v->build == KS_BUILD_UNKNOWN) {
		ks_buf_addf(b, "%s; whether it builds there is unknown (%s)",
			    loads ? "loads as built" : "does not load as built",
			    v && v->why ? v->why : "no forecast");
		return "unknown";
	}
	if (v->build == KS_BUILD_OK && !o->changes) {
		if (loads)
			ks_buf_adds(b, "builds and loads there");
		else
			ks_buf_addf(b, "builds and loads there once rebuilt (%zu of its imports "
				       "%s not exported there as built)",
				    o->load_findings, o->load_findings == 1 ? "is" : "are");
		return "builds-and-loads";
	}
	if (loads) {
		say_places(b, "loads, but the rebuild fails", o);
		return "loads-but-rebuild-fails";
	}
	say_places(b, "needs source changes", o);
	return "needs-source-changes";
}

void ks_outlook_places(struct ks_buf *b, const struct ks_outlook *o)
{
	say_places(b, NULL, o);
}
