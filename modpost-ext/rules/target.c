/* check --target: load verdicts on another kernel (missing, GPL-only,
 * namespace) and the remedy for each, from the names the module's source
 * writes at the located uses and the target's headers. */
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "module/namespace.h"
#include "module/policy.h"
#include "rules/target.h"

#define TABSTOP 8	/* GCC's -ftabstop default: records hold display columns */

int ks_target_open(struct ks_target *t, const char *arg, const char *release,
		   struct ks_diags *d)
{
	int r = ks_kernel_open(&t->k, arg, d);

	if (!r && release)
		r = ks_kernel_set_release(&t->k, release);
	if (!r)
		r = ks_headers_open(&t->h, t->k.dir);
	if (!r && !ks_headers_present(&t->h))
		r = ks_diag_add(d, KS_NOTE, arg, 0, 0,
				"no kernel headers here (no include/linux/module.h): --target gives load "
				"verdicts, but whether a rebuild is enough stays unknown") < 0
			    ? -ENOMEM
			    : 0;
	return r;
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
	return im->c->target && !im->written && !im->x && !ks_undef_ignored(im->sym);
}

bool ks_target_undeclared(const struct ks_import *im)
{
	return im->written && !im->declared;
}

bool ks_target_gpl_only(const struct ks_import *im)
{
	return im->c->target && im->x && im->x->gpl && !im->m->gpl_compatible;
}

bool ks_target_namespace(const struct ks_import *im)
{
	return im->c->target && im->x && !ks_ns_admits(im->x->ns, im->m);
}

/* The byte offset of display column dcol (1-based) in line: a tab runs to
 * the next tab stop, a UTF-8 sequence is one column (identifiers, which
 * are what is looked for, are ASCII). */
static size_t byte_at_column(const char *line, size_t len, unsigned dcol)
{
	unsigned col = 1;
	size_t i = 0;

	for (; i < len && col < dcol; i++) {
		if (line[i] == '\t')
			col = ((col - 1) / TABSTOP + 1) * TABSTOP + 1;
		else if (((unsigned char)line[i] & 0xc0) != 0x80)
			col++;
	}
	return i;
}

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* The identifier written at line:col of text (skipping '&', '*', '(' and
 * blanks before it); NULL if there is none. */
static char *name_at(const char *text, size_t len, unsigned line, unsigned col)
{
	const char *p = text, *end = text + len, *nl, *q;
	size_t off;

	for (unsigned l = 1; l < line && p < end; l++) {
		nl = memchr(p, '\n', (size_t)(end - p));
		p = nl ? nl + 1 : end;
	}
	if (p >= end)
		return NULL;
	nl = memchr(p, '\n', (size_t)(end - p));
	off = byte_at_column(p, (size_t)((nl ? nl : end) - p), col ? col : 1);
	for (p += off; p < end && strchr("&*( \t", *p) && *p; p++)
		;
	for (q = p; q < end && ident_char(*q); q++)
		;
	return q > p && !(*p >= '0' && *p <= '9') ? strndup(p, (size_t)(q - p)) : NULL;
}

/* The use's source file: as recorded, or relative to the module's folder. */
static int read_source(const char *file, const char *module, struct ks_buf *b)
{
	char *copy, *path;
	int r;

	if (file[0] == '/')
		return ks_buf_read_file(b, file);
	if (ks_buf_read_file(b, file) == 0)
		return 0;
	ks_buf_reset(b);
	copy = strdup(module);
	path = copy ? ks_strdupf("%s/%s", dirname(copy), file) : NULL;
	r = path ? ks_buf_read_file(b, path) : -ENOMEM;
	free(copy);
	free(path);
	return r;
}

/* Adds name to the ", "-separated list unless there already. */
static int add_written(struct ks_buf *w, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = w->p; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] ? 2 : 0))
		if (strcspn(p, ",") == n && !strncmp(p, name, n))
			return 0;
	return ks_buf_addf(w, "%s%s", w->len ? ", " : "", name);
}

/* Usable on the target: a macro or an inline is compiled into the module
 * (a rebuild picks up its new body); a function only declared must also
 * be exported. */
static int usable(struct ks_target *t, const char *name, bool *yes)
{
	unsigned how;
	int r = ks_headers_declares(&t->h, name, &how);

	*yes = (how & (KS_DECL_MACRO | KS_DECL_INLINE)) ||
	       ((how & KS_DECL_PROTO) && ks_symvers_lookup(&t->k.sv, name));
	return r;
}

static const char *blanks(const char *q, const char *end)
{
	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	return q;
}

/* The body of "#define name" in text (after its parameters, continued
 * lines and all), or NULL: *blen is its length. */
static const char *macro_body(const char *text, size_t len, const char *name, size_t *blen)
{
	const char *end = text + len, *b, *e;
	size_t n = strlen(name);

	for (const char *p = text, *q; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		q = blanks(p, end);
		p = nl ? nl + 1 : end;
		if (q >= end || *q != '#')
			continue;
		q = blanks(q + 1, end);
		if ((size_t)(end - q) <= 7 + n || strncmp(q, "define", 6) || (q[6] != ' ' && q[6] != '\t'))
			continue;
		q = blanks(q + 7, end);
		if ((size_t)(end - q) < n || strncmp(q, name, n) || (q + n < end && ident_char(q[n])))
			continue;
		b = q + n;
		if (b < end && *b == '(') {
			const char *close = memchr(b, ')', (size_t)(end - b));

			b = close ? close + 1 : end;
		}
		for (e = b; e < end && *e != '\n';)
			e += (*e == '\\' && e + 1 < end) ? 2 : 1;
		*blen = (size_t)(e - b);
		return b;
	}
	return NULL;
}

/* A macro the module's own source file defines (#define v4l2l_vzalloc
 * vzalloc): what it writes of the kernel's is its body's names that the
 * target's headers declare, and the symbol itself. Adds those to w; *found:
 * there were any. 0 or -ENOMEM. */
static int own_macro(struct ks_target *t, const char *text, size_t len, const char *name,
		     const char *sym, struct ks_buf *w, bool *found)
{
	size_t blen = 0;
	const char *b = macro_body(text, len, name, &blen);
	int r = 0;

	*found = false;
	for (size_t i = 0; b && i < blen && !r;) {
		size_t j = i;
		unsigned how = 0;
		char *id;

		if (!ident_char(b[i])) {
			i++;
			continue;
		}
		while (j < blen && ident_char(b[j]))
			j++;
		if (b[i] >= '0' && b[i] <= '9') {	/* a number */
			i = j;
			continue;
		}
		if (!(id = strndup(b + i, j - i)))
			return -ENOMEM;
		r = strcmp(id, sym) ? ks_headers_declares(&t->h, id, &how) : 0;
		if (!r && (how || !strcmp(id, sym))) {
			r = add_written(w, id);
			*found = true;
		}
		free(id);
		i = j;
	}
	return r;
}

/* The names written at f's locations, into w; *unread counts those that
 * could not be read. 0 or -ENOMEM. */
static int written_names(struct ks_target *t, const struct ks_finding *f, struct ks_buf *w,
			 size_t *unread)
{
	struct ks_buf src = KS_BUF_INIT;
	int r = 0;

	for (size_t i = 0; !r && i < f->nlocs; i++) {
		const struct ks_loc *l = &f->locs[i];
		char *name = NULL;
		bool own = false;

		ks_buf_reset(&src);
		if (read_source(l->file, f->module, &src) == 0 && src.p)
			name = name_at(src.p, src.len, l->line, l->col);
		if (name && ks_headers_present(&t->h))
			r = own_macro(t, src.p, src.len, name, f->symbol, w, &own);
		if (name && !r && !own)
			r = add_written(w, name);
		else if (!name)
			++*unread;
		free(name);
	}
	ks_buf_free(&src);
	return r;
}

static int classify(struct ks_target *t, struct ks_finding *f, const char *names)
{
	bool all = true;
	int r = 0;

	for (const char *p = names; !r && *p;) {
		size_t n = strcspn(p, ",");
		char *name = strndup(p, n);
		bool ok = false;

		r = name ? usable(t, name, &ok) : -ENOMEM;
		all &= ok;
		free(name);
		p += n + (p[n] ? 2 : 0);
	}
	f->remedy = all ? KS_REMEDY_REBUILD : KS_REMEDY_SOURCE_CHANGE;
	return r;
}

int ks_target_remedy(struct ks_target *t, const struct ks_module *m, struct ks_finding *f)
{
	struct ks_buf w = KS_BUF_INIT;
	size_t unread = 0;
	int r;

	(void)m;
	if (f->written) {	/* the name itself, declared nowhere there */
		f->remedy = KS_REMEDY_SOURCE_CHANGE;
		f->written_as = strdup(f->symbol);
		return f->written_as ? 0 : -ENOMEM;
	}
	r = written_names(t, f, &w, &unread);
	if (r)
		return r;
	f->written_as = w.len ? ks_buf_steal(&w) : NULL;
	ks_buf_free(&w);
	/* GPL-only and namespace verdicts: a rebuild changes nothing */
	f->remedy = strcmp(f->rule->target_status, "missing") ? KS_REMEDY_SOURCE_CHANGE
							      : KS_REMEDY_UNKNOWN;
	if (f->remedy == KS_REMEDY_SOURCE_CHANGE)
		return 0;
	if (!ks_headers_present(&t->h))
		f->remedy_why = "no headers of the target kernel";
	else if (!f->nlocs)
		f->remedy_why = "no source location";
	else if (unread)
		f->remedy_why = "the source at a location cannot be read";
	else
		return classify(t, f, f->written_as);
	return 0;
}

/* "is not exported by target kernel REL: a rebuild against its headers is
 * enough ('kmalloc' is still declared there)" and the other verdicts. */
static int word_remedy(struct ks_buf *b, const struct ks_finding *f)
{
	switch (f->remedy) {
	case KS_REMEDY_REBUILD:
		return ks_buf_addf(b, ": a rebuild against its headers is enough ('%s', as the "
				      "source writes it, is still declared there)",
				   f->written_as);
	case KS_REMEDY_SOURCE_CHANGE:
		return ks_buf_addf(b, ": the source must change ('%s', as the source writes it, is "
				      "no macro, inline or exported function there)",
				   f->written_as);
	default:
		return ks_buf_addf(b, ": whether a rebuild is enough is unknown (%s)",
				   f->remedy_why ? f->remedy_why : "?");
	}
}

int ks_target_word(struct ks_buf *b, const struct ks_finding *f)
{
	const char *rel = f->target ? f->target : "(release unknown)";
	const char *ns = f->exported ? f->exported->ns : "";
	int r;

	if (!strcmp(f->rule->target_status, "missing"))
		return (r = ks_buf_addf(b, "is not exported by the target kernel %s", rel)) ? r
											 : word_remedy(b, f);
	if (!strcmp(f->rule->target_status, "gpl-only"))
		return ks_buf_addf(b, "is GPL-only in the target kernel %s and module license '%s' "
				      "is not GPL-compatible: the module will not load there",
				   rel, f->license ? f->license : "(none)");
	if (ks_ns_is_module_list(ns))
		return ks_buf_addf(b, "is exported only to %s in the target kernel %s: the module "
				      "will not load there",
				   ns, rel);
	return ks_buf_addf(b, "is in namespace %s in the target kernel %s: add "
			      "MODULE_IMPORT_NS(%s), or the module will not load there",
			   ns, rel, ns);
}

/* "is declared nowhere in the headers of the target kernel REL: the
 * source must change (...)" */
int ks_target_word_undeclared(struct ks_buf *b, const struct ks_finding *f)
{
	return ks_buf_addf(b, "is declared nowhere in the headers of the target kernel %s: the "
			      "source must change (the source writes it; the module does not "
			      "import it)",
			   f->target ? f->target : "(release unknown)");
}

int ks_target_tag_undeclared(struct ks_buf *b, const struct ks_finding *f)
{
	return ks_buf_addf(b, "not declared by %s", f->target ? f->target : "target");
}

int ks_target_tag(struct ks_buf *b, const struct ks_finding *f)
{
	const char *rel = f->target ? f->target : "target";

	if (!strcmp(f->rule->target_status, "missing"))
		return ks_buf_addf(b, "not exported by %s", rel);
	if (!strcmp(f->rule->target_status, "gpl-only"))
		return ks_buf_addf(b, "GPL-only in %s", rel);
	return ks_buf_addf(b, "namespace %s in %s", f->exported->ns, rel);
}
