/* Reporting uses: at the end of the translation unit every use found is
 * sorted, de-duplicated, diagnosed (GCC-style, with the date, the action
 * and a fix-it) and written as a record into the .note.ksunset note. */
/* lib/ first: GCC's options.h defines warn_unused_result as a macro */
#include "buf.h"
#include "schedule.h"
#include "wording.h"
#include <ksunset/record.h>

#include "gcc-plugin.h"
#include "tree.h"
#include "stringpool.h"
#include "cgraph.h"
#include "diagnostic.h"
#include "gcc-rich-location.h"
#include "input.h"
#include "cpplib.h"
#include "output.h"
#include "version.h"

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

	if (p->nuses == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 16;
		p->uses = XRESIZEVEC(struct ks_puse, p->uses, p->cap);
	}
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

int ks_cmp_place(location_t la, const char *na, int ka, location_t lb, const char *nb, int kb)
{
	expanded_location ex = expand_location(la), ey = expand_location(lb);
	int r = strcmp(ex.file ? ex.file : "", ey.file ? ey.file : "");

	if (r)
		return r;
	if (ex.line != ey.line)
		return ex.line < ey.line ? -1 : 1;
	if (ex.column != ey.column)
		return ex.column < ey.column ? -1 : 1;
	r = strcmp(na, nb);
	return r ? r : ka - kb;
}

static int cmp_use(const void *a, const void *b)
{
	const struct ks_puse *x = (const struct ks_puse *)a, *y = (const struct ks_puse *)b;

	return ks_cmp_place(x->loc, x->sym, (int)x->kind, y->loc, y->sym, (int)y->kind);
}

/* A symbol defined later in the unit than an initializer that named it is
 * not an import either. */
bool ks_defined_here(const char *sym)
{
	symtab_node *n = symtab_node::get_for_asmname(get_identifier(sym));

	return n && n->definition && !DECL_EXTERNAL(n->decl);
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
	int r;

	if (strcmp(u->name, u->sym) && *u->name)
		r = ks_buf_addf(&b, "'%s' (symbol '%s') ", u->name, u->sym);
	else
		r = ks_buf_addf(&b, "'%s' ", u->sym);
	r = r ? r : ks_say_action(&b, u->e, past);
	r = r || !past ? r : ks_say_days(&b, ev);
	r = r ? r : ks_say_advice(&b, u->e, p->license ? p->license : ks_license_unknown);
	if (r) {
		ks_buf_free(&b);
		return NULL;
	}
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

/* The warning says what and when; a note says why, and that an accept in
 * the source does not cover a use past its date. */
static void notes(const struct ks_puse *u)
{
	if (u->e->why)
		inform(u->loc, "%s", u->e->why);
	if (u->accept) {
		/* plain quotes, as in the warning */
		char *s = ks_strdupf("accepted in the source (\"%s\"), but a use past its date "
				     "never is", u->accept);

		if (s)
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
	if (!msg)
		return;
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
		notes(u);
	free(msg);
}

void ks_record_place(location_t loc, struct ks_record_use *r)
{
	expanded_location x = expand_location(loc);
	cpp_char_column_policy policy(8, cpp_wcwidth);

	r->file = const_cast<char *>(x.file ? x.file : "");
	r->line = x.line;
	/* GCC's display column as -fdiagnostics-column-unit=display counts
	 * it by default (a tab to the next multiple of 8), whatever the
	 * options: what the checker reads back and turns into SARIF's */
	r->col = x.column > 0 ? location_compute_display_column(x, policy) : 0;
}

static int encode_use(struct ks_buf *b, const struct ks_puse *u)
{
	struct ks_record_use r;

	r.symbol = u->sym;
	r.kind = u->kind;
	ks_record_place(u->loc, &r);
	r.function = u->func;
	r.when = const_cast<char *>(u->e->when.text);
	r.accept_reason = const_cast<char *>(u->accept);
	return ks_record_encode_use(b, &r);
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

/* One record as an assembler string: printable bytes as they are, the rest
 * (TAB, and anything a path may hold) in octal. */
static int asm_string(struct ks_buf *out, const char *s, size_t n)
{
	int r = ks_buf_adds(out, "\t.asciz \"");

	for (size_t i = 0; i < n && !r; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			r = ks_buf_addf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			r = ks_buf_addf(out, "\\%03o", c);
		else
			r = ks_buf_addc(out, (char)c);
	}
	return r ? r : ks_buf_adds(out, "\"\n");
}

/* One ELF note: namesz, descsz, type, "ksunset\0", the records, each part
 * padded to 4 bytes. "%note", not "@note": '@' starts a comment on ARM.
 * Built whole and written with one call: per-byte output was a visible
 * share of the plugin's cost. */
static int write_note(const struct ks_buf *desc)
{
	struct ks_buf out = KS_BUF_INIT;
	int r = ks_buf_addf(&out, "\t.pushsection %s,\"\",%%note\n\t.balign 4\n"
				  "\t.long %u\n\t.long %u\n\t.long %#x\n\t.asciz \"%s\"\n\t.balign 4\n",
			    KS_NOTE_SECTION, (unsigned)sizeof(KS_NOTE_NAME), (unsigned)desc->len,
			    KS_NOTE_TYPE, KS_NOTE_NAME);

	/* the descriptor is NUL-terminated records: one .asciz each */
	for (size_t off = 0; !r && off < desc->len;) {
		size_t n = strnlen(desc->p + off, desc->len - off);

		r = asm_string(&out, desc->p + off, n);
		off += n + 1;
	}
	r = r ? r : ks_buf_adds(&out, "\t.balign 4\n\t.popsection\n");
	if (!r)
		fputs(out.p, asm_out_file);
	ks_buf_free(&out);
	return r;
}

void ks_puses_finish(struct ks_plugin *p)
{
	struct ks_buf desc = KS_BUF_INIT;
	char digest[17];
	int r;

	settle(p);
	ks_modinfo_collect(p);
	/* records stay facts; the checker judges them by the module's .modinfo,
	 * and an accept by the status the use has for the module */
	for (size_t i = 0; i < p->nuses; i++) {
		p->uses[i].accept = ks_accept_reason(p, p->uses[i].func);
		if (ks_modinfo_concerns(p, p->uses[i].e))
			diagnose(p, &p->uses[i]);
	}
	if (!asm_out_file)
		return;
	ks_schedule_digest_hex(&p->sched, digest);
	r = ks_record_encode_unit(&desc, main_input_filename ? main_input_filename : "",
				  digest, version_string);
	for (size_t i = 0; i < p->nuses && !r; i++) {
		if (in_object(p->uses[i].sym))
			r = encode_use(&desc, &p->uses[i]);
	}
	if (!r && p->api)
		r = ks_api_encode(p, &desc);
	if (r || write_note(&desc) < 0)
		error("%s: out of memory writing the %s note", p->name, KS_NOTE_SECTION);
	ks_buf_free(&desc);
}
