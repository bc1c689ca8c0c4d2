/* Reporting uses: at the end of the translation unit every use found is
 * sorted, de-duplicated, diagnosed (GCC-style, with the date, the action
 * and a fix-it) and encoded as a record, which note.c writes into the
 * .note.ksunset note. */
/* lib/ first: GCC's options.h defines warn_unused_result as a macro */
#include "array.h"
#include "buf.h"
#include "schedule.h"
#include "wording.h"
#include <ksunset/record.h>

#include "gcc-plugin.h"
#include "tree.h"
#include "c-family/c-common.h"
#include "c-family/c-pragma.h"
#include "stringpool.h"
#include "cgraph.h"
#include "diagnostic.h"
#include "gcc-rich-location.h"
#include "input.h"
#include "cpplib.h"

#include <stdlib.h>
#include <string.h>

#include "ksunset.h"

static const char *decl_name(tree decl)
{
	return decl && DECL_NAME(decl) ? IDENTIFIER_POINTER(DECL_NAME(decl)) : "";
}

void ks_puse_add(struct ks_plugin *p, tree decl, const struct ks_entry *e,
		   const char *sym, enum ks_use_kind kind, location_t loc, bool own, tree fn)
{
	struct ks_puse *u;

	ks_array_room((void **)&p->uses, &p->cap, p->nuses + 1, sizeof(*p->uses));
	u = &p->uses[p->nuses++];
	/* assemble_name() marks the identifier of the name it writes with
	 * the '*' of an asm label stripped, if that identifier exists */
	get_identifier(sym);
	u->sym = xstrdup(sym);
	u->name = xstrdup(decl_name(decl));
	u->kind = kind;
	u->loc = loc;
	u->own = own;
	u->func = xstrndup(decl_name(fn), ks_function_name_len(decl_name(fn)));
	u->e = e;
}

static int cmp_use(const void *a, const void *b)
{
	const struct ks_puse *x = (const struct ks_puse *)a, *y = (const struct ks_puse *)b;

	return ks_cmp_place(x->loc, x->sym, (int)x->kind, y->loc, y->sym, (int)y->kind);
}

static bool same_place(const struct ks_puse *a, const struct ks_puse *b)
{
	return a->loc == b->loc && !strcmp(a->sym, b->sym);
}

static void free_use(struct ks_puse *u)
{
	free(u->sym);
	free(u->name);
	free(u->func);
}

/* Sorts and keeps one use per symbol and place. */
static void settle(struct ks_plugin *p)
{
	size_t n = 0;

	qsort(p->uses, p->nuses, sizeof(*p->uses), cmp_use);
	for (size_t i = 0; i < p->nuses; i++) {
		if ((n && same_place(&p->uses[n - 1], &p->uses[i])) ||
		    ks_defined_here(p->uses[i].sym))
			free_use(&p->uses[i]);
		else
			p->uses[n++] = p->uses[i];
	}
	p->nuses = n;
}

/* "'name' (symbol 'sym') ACTION[ (overdue by N days)][; ADVICE]", in the
 * checker's phrases, for no module in particular. Built with plain quotes,
 * so that the output does not depend on the locale (GCC's %qs quotes are
 * typographic in UTF-8). */
static char *message(const struct ks_plugin *p, const struct ks_puse *u,
		     const struct ks_when_eval *ev)
{
	struct ks_buf b = KS_BUF_INIT;
	bool past = ev->status == KS_STATUS_OVERDUE;

	if (strcmp(u->name, u->sym) && *u->name)
		ks_buf_addf(&b, "'%s' (symbol '%s') ", u->name, u->sym);
	else
		ks_buf_addf(&b, "'%s' ", u->sym);
	ks_say_action(&b, u->e, past);
	if (past)
		ks_say_days(&b, ev);
	ks_say_advice(&b, u->e, p->license ? p->license : ks_license_unknown);
	return ks_buf_steal(&b);
}

/* The fix-it replaces the name only where the source writes it (not at a
 * macro's or a wrapper's name, nor for an asm-renamed alias). */
static void add_fixit(gcc_rich_location *rich, const struct ks_puse *u)
{
	size_t len = strlen(u->name);
	location_t end;

	if (!u->e->replace_ident || !u->own || !len)
		return;
	end = linemap_position_for_loc_and_offset(line_table, u->loc, len - 1);
	rich->add_fixit_replace(source_range::from_locations(u->loc, end), u->e->replace);
}

/* The name the source writes at loc (a kernel header's inline or macro
 * that makes the call), or NULL. */
static char *written_name(struct ks_plugin *p, location_t loc)
{
	expanded_location x = expand_location(loc);
	size_t i = x.column > 0 ? (size_t)x.column - 1 : 0, j = i;
	struct ks_line line;

	if (!ks_text_line(p, x.file, x.line, &line))
		return NULL;
	while (j < line.len && ISIDNUM(line.p[j]))
		j++;
	return j > i && !ISDIGIT(line.p[i]) ? xstrndup(line.p + i, j - i) : NULL;
}

/* The warning says what and when; a note says why, one that the source
 * does not name the symbol (a kernel header's inline or macro makes the
 * call, and a rebuild against headers that no longer do is enough for
 * this use), and one that an accept in the source does not cover a use
 * past its date. */
static void notes(struct ks_plugin *p, const struct ks_puse *u)
{
	char *w = u->own ? NULL : written_name(p, u->loc);
	cpp_hashnode *node = w ? cpp_lookup(parse_in, (const unsigned char *)w, strlen(w)) : NULL;

	/* a macro of the module's own is not the kernel's headers' */
	if (node && cpp_user_macro_p(node) &&
	    !ks_where_kernel(p, cpp_macro_definition_location(node))) {
		free(w);
		w = NULL;
	}
	if (u->e->why)
		inform(u->loc, "%s", u->e->why);
	if (w && strcmp(w, u->sym) && strcmp(w, u->name)) {
		/* plain quotes, as in the warning */
		char *s = ks_strdupf("the source writes '%s', which the kernel's headers make a "
				     "call of '%s': a rebuild against headers that no longer do is "
				     "enough for this use (ksunset check --target tells)",
				     w, u->sym);

		inform(u->loc, "%s", s);
		free(s);
	}
	free(w);
	if (u->accept) {
		/* plain quotes, as in the warning */
		char *s = ks_strdupf("accepted in the source (\"%s\"), but a use past its date "
				     "never is", u->accept);

		inform(u->loc, "%s", s);
		free(s);
	}
}

/* Under -Werror the warning stays a warning, as -Wno-error=deprecated-
 * declarations would make it; -Wno-deprecated-declarations, -w and the
 * diagnostic pragmas still silence it. strict makes it an error. */
static void diagnose(struct ks_plugin *p, const struct ks_puse *u)
{
	struct ks_when_eval ev = ks_when_evaluate(&u->e->when, p->today, NULL, -1);
	char *msg;
	gcc_rich_location rich(u->loc);
	bool shown;

	/* KSUNSET_ACCEPT: silent, also when strict, until the date */
	if (u->accept && ev.status != KS_STATUS_OVERDUE)
		return;
	msg = message(p, u, &ev);
	add_fixit(&rich, u);
	if (p->strict) {
		error_at(&rich, "%s", msg);
		shown = true;
	} else if (p->quiet) {
		shown = false;
	} else {
		diagnostic_t old = diagnostic_classify_diagnostic(global_dc,
			OPT_Wdeprecated_declarations, DK_WARNING, UNKNOWN_LOCATION);

		shown = warning_at(&rich, OPT_Wdeprecated_declarations, "%s", msg);
		diagnostic_classify_diagnostic(global_dc, OPT_Wdeprecated_declarations, old,
					       UNKNOWN_LOCATION);
	}
	if (shown)
		notes(p, u);
	free(msg);
}

static void encode_use(struct ks_plugin *p, struct ks_buf *b, const struct ks_puse *u)
{
	struct ks_record_use r;

	r.symbol = u->sym;
	r.kind = u->kind;
	ks_record_place(p, u->loc, &r);
	r.function = u->func;
	r.when = const_cast<char *>(u->e->when.text);
	r.accept_reason = const_cast<char *>(u->accept);
	ks_record_encode_use(b, &r);
}

/* Whether the object refers to sym: GCC marks every name it writes into
 * the assembly. A use that the optimiser removed altogether (memset
 * expanded inline, a WARN() in dead code, static data never referenced) is
 * still warned about, as it is in the source, but recorded only if the
 * object still imports the symbol, so the records describe the object.
 * With -flto the object holds no code yet, and every use is recorded. */
static bool in_object(const char *sym)
{
	tree id = maybe_get_identifier(sym);

	if (flag_generate_lto)
		return true;

	return id && TREE_SYMBOL_REFERENCED(id);
}

/* Diagnoses the uses that concern this module (its .modinfo), after
 * sorting them; records stay facts, which the checker judges by the
 * module's .modinfo, and an accept by the status the use has for it. */
void ks_puses_finish(struct ks_plugin *p)
{
	settle(p);
	ks_modinfo_collect(p);
	for (size_t i = 0; i < p->nuses; i++) {
		p->uses[i].accept = ks_accept_reason(p, p->uses[i].func);
		if (ks_modinfo_concerns(p, p->uses[i].e))
			diagnose(p, &p->uses[i]);
	}
}

void ks_puses_encode(struct ks_plugin *p, struct ks_buf *desc)
{
	for (size_t i = 0; i < p->nuses; i++) {
		if (in_object(p->uses[i].sym))
			encode_use(p, desc, &p->uses[i]);
	}
}
