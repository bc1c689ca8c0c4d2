/* What in-tree code wrote instead (ksunset.migrations(5)), applied to a
 * line of a module's own source: the #include's header renamed, the
 * call's argument dropped or inserted, or the name it calls replaced. The text note, GCC's fix-it,
 * SARIF's fixes and ksunset fix's patch all take it from here. */
#ifndef KS_REWRITE_H
#define KS_REWRITE_H

#include <stddef.h>

#include "buf.h"
#include "compiler.h"
#include "input/migrations.h"

/* One line rewritten: its bytes [at[0], at[1]) become with. */
struct ks_edit {
	size_t at[2];
	char *with;
	unsigned dcol[2], ucol[2];	/* at[]'s display columns (GCC's) and UTF-16
					 * ones (SARIF's), 1-based */
	char *before, *after;		/* the header's name, the whole call or the
					 * callback's head, as the line has it and
					 * rewritten */
	unsigned line;			/* ks_edit_file's: the line edited */
};

/* The edit rw of e makes of line s (len bytes, no line end): 0, or
 * -ERANGE when the line does not have what it rewrites (an #include of
 * e's header; e's name, to rename; a call of it, its arguments all on
 * the line, with the one to drop or a place for the one to insert; for
 * a Callback: entry the head of fn's definition, ks_edit_callback() of
 * the line alone). fn: the module's callback (Callback: entries only). */
int ks_edit_line(const struct ks_migration *e, const struct ks_rewrite *rw, const char *s,
		 size_t len, const char *fn, struct ks_edit *ed) KS_MUST_CHECK;
/* The same for line lineno (1-based) of the file at path, or for a
 * Callback: entry ks_edit_callback() of its lines for the function line
 * lineno stores (ks_callback_at(), fn the fallback; ed->line: the line
 * edited): 0, -ERANGE as above or past the end, or -errno. */
int ks_edit_file(const struct ks_migration *e, const struct ks_rewrite *rw, const char *path,
		 unsigned lineno, const char *fn, struct ks_edit *ed) KS_MUST_CHECK;
/* A Callback: entry's rewrite rw of the head of fn's definition among the
 * lines p[0..n) (len: their lengths, without line ends): its name, its
 * parameters over up to 16 lines, then '{' or the last line's end. The
 * edit is of the line that has the parameter (or the return type: the
 * name's line, or the one before it when the name starts its line);
 * ed->line its number (1-based). 0, or -ERANGE: no such head, or it has
 * what rw makes already. */
int ks_edit_callback(const struct ks_rewrite *rw, const char *const *p, const size_t *len,
		     size_t n, const char *fn, struct ks_edit *ed) KS_MUST_CHECK;
void ks_edit_free(struct ks_edit *ed);
/* The module's function that line lineno of path stores in a Callback:
 * entry e's member (".devnode = f", "c->devnode = &f"), to free; fallback
 * (copied) when the line stores none there. */
char *ks_callback_at(const struct ks_migration *e, const char *path, unsigned lineno,
		     const char *fallback);
/* Why a line has no edit, into b: "no longer includes <asm/unaligned.h>
 * (changed since the build)", "no longer names strlcpy (...)", "has no
 * call of class_create() with all its arguments (...)". */
void ks_edit_missing(struct ks_buf *b, const struct ks_migration *e, const struct ks_rewrite *rw);

#endif
