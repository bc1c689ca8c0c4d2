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
 * a Callback: entry the head of fn's definition, its parameters all on
 * the line). fn: the module's callback (Callback: entries only). */
int ks_edit_line(const struct ks_migration *e, const struct ks_rewrite *rw, const char *s,
		 size_t len, const char *fn, struct ks_edit *ed) KS_MUST_CHECK;
/* The same for line lineno (1-based) of the file at path, or for a
 * Callback: entry the line of path that defines fn (ed->line: the line
 * edited): 0, -ERANGE as above or past the end, or -errno. */
int ks_edit_file(const struct ks_migration *e, const struct ks_rewrite *rw, const char *path,
		 unsigned lineno, const char *fn, struct ks_edit *ed) KS_MUST_CHECK;
/* The line of path where the definition of function fn starts: its name,
 * its parameters' ')' followed by '{' on the line or the next one; 0:
 * none. */
unsigned ks_definition_line(const char *path, const char *fn);
void ks_edit_free(struct ks_edit *ed);
/* Why a line has no edit, into b: "no longer includes <asm/unaligned.h>
 * (changed since the build)", "no longer names strlcpy (...)", "has no
 * call of class_create() with all its arguments (...)". */
void ks_edit_missing(struct ks_buf *b, const struct ks_migration *e, const struct ks_rewrite *rw);

#endif
