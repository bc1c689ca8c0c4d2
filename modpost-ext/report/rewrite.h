/* What in-tree code wrote instead (ksunset.migrations(5)), applied to a
 * line of a module's own source: the #include's header renamed, the
 * call's argument dropped or inserted, the name it calls replaced, a
 * callback's head rewritten, or a header's #include added. The text note,
 * GCC's fix-it, SARIF's fixes and ksunset fix's patch all take it from
 * here. */
#ifndef KS_REWRITE_H
#define KS_REWRITE_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "compiler.h"
#include "file.h"
#include "input/migrations.h"

struct ks_finding;
struct ks_findings;
struct ks_loc;
struct ks_module;

/* One line rewritten: its bytes [at[0], at[1]) become with (an Include:
 * entry's: with, a whole line, goes before the line, at[] 0). */
struct ks_edit {
	size_t at[2];
	char *with;
	unsigned dcol[2], ucol[2];	/* at[]'s display columns (GCC's) and UTF-16
					 * ones (SARIF's), 1-based */
	char *before, *after;		/* the header's name, the whole call or the
					 * callback's head, as the line has it and
					 * rewritten; an Include: entry's: NULL and
					 * the #include */
	unsigned line;			/* ks_edit_file's: the line edited */
	char *local;			/* a callback's parameter dropped that its body
					 * uses: its declaration as a local, a line
					 * that goes after line local_line, whose '{'
					 * opens the body (at byte local_at, display and
					 * UTF-16 columns local_col[]); NULL: none */
	unsigned local_line, local_col[2];
	size_t local_at;
};

/* The module's callback a Callback: entry's edit rewrites: its name, and
 * the member's type where the module was built ("int (*)(struct device *,
 * struct kobj_uevent_env *)"; NULL: not known), whose parameters pick
 * the definition this build compiled among those of the branches of an
 * #if (one per kernel version). */
struct ks_callee {
	const char *name;
	const char *type;
	const struct ks_migrations *ms;	/* a parameter dropped: the Call:
					 * entries whose rewrites drop the
					 * uses of it the body passes on
					 * (NULL: none may stay) */
	const struct ks_rewrite *local;	/* and the local in-tree bodies that
					 * used it declared in its place
					 * (ks_migration_local(); NULL: none) */
};

/* The edit rw of e makes of line s (len bytes, no line end): 0, or
 * -ERANGE when the line does not have what it rewrites (an #include of
 * e's header; e's name, to rename; a call of it, its arguments all on
 * the line, with the one to drop or a place for the one to insert; for
 * a Callback: entry the head of fn's definition, ks_edit_callback() of
 * the line alone), and for an Include: entry, which edits no line of its
 * own. fn: the module's callback (Callback: entries only; NULL: none). */
int ks_edit_line(const struct ks_migration *e, const struct ks_rewrite *rw, const char *s,
		 size_t len, const struct ks_callee *fn, struct ks_edit *ed) KS_MUST_CHECK;
/* The same for line lineno (1-based) of the lines ls; for a Callback:
 * entry ks_edit_callback() of them for the function line lineno stores
 * (ks_callback_at(), fn the fallback: its declaration whose edit is on
 * line lineno, else its definition); for an Include: entry its header's
 * #include, after the last #include before line lineno that no
 * conditional holds (a header's include guard aside), else after the
 * guard's #define of a header that includes nothing there. ed->line: the line
 * edited, or the one the #include goes before. 0, -ERANGE as above (an
 * Include: entry: no such #include, or the header's there already) or
 * past the end. */
int ks_edit_at(const struct ks_migration *e, const struct ks_rewrite *rw,
	       const struct ks_lines *ls, unsigned lineno, const struct ks_callee *fn,
	       struct ks_edit *ed) KS_MUST_CHECK;
/* ks_edit_at() on the lines of the file at path: its result, or -errno. */
int ks_edit_file(const struct ks_migration *e, const struct ks_rewrite *rw, const char *path,
		 unsigned lineno, const struct ks_callee *fn, struct ks_edit *ed) KS_MUST_CHECK;
/* A Callback: entry's rewrite rw of the head of fn's definition among the
 * lines p[0..n) (len: their lengths, without line ends): its name, its
 * parameters over up to 16 lines, then '{' or the last line's end
 * (directives and other heads of fn between); of several, the first whose
 * parameters spell the words of fn's type, else the first with as many,
 * else the first. The edit is of the line that has the parameter (or the return type: the
 * name's line, or the one before it when the name starts its line);
 * ed->line its number (1-based). 0, or -ERANGE: no such head, or it has
 * what rw makes already. */
int ks_edit_callback(const struct ks_rewrite *rw, const char *const *p, const size_t *len,
		     size_t n, const struct ks_callee *fn, struct ks_edit *ed) KS_MUST_CHECK;
void ks_edit_free(struct ks_edit *ed);
/* The heads of fn among ls that a Callback: entry's rewrite rw edits:
 * its definition (ks_edit_callback()'s) and each declaration of it (a
 * ';' after its parameters, a type before its name, each parameter
 * spelling every word of fn's type's: "extern int x_getattr(struct
 * user_namespace *, ...);"), the line each edit is on. ks_edit_at() edits
 * the declaration whose edit is on the line it is given. */
struct ks_heads {
	unsigned def;		/* 1-based; 0: no definition, or it has what rw
				 * makes already */
	bool local;		/* the definition is static */
	unsigned *decl;
	size_t ndecl;
};
void ks_callback_heads(const struct ks_rewrite *rw, const struct ks_lines *ls,
		       const struct ks_callee *fn, struct ks_heads *out);
void ks_heads_free(struct ks_heads *h);
/* A module's own source files, read on first need (ks_sources_load()):
 * its units' sources, and the files that hold their #includes below a
 * directory; real paths, each once. */
struct ks_sources {
	const struct ks_module *m;
	char *below;			/* NULL: the units' sources alone */
	bool read;
	char **path;
	struct ks_lines *ls;
	size_t n;
};
void ks_sources_init(struct ks_sources *s, const struct ks_module *m, const char *below);
void ks_sources_load(struct ks_sources *s);
void ks_sources_free(struct ks_sources *s);
/* The file of s, other than skip (a real path; NULL: none), that defines
 * fn not static (ks_callback_heads()): its index, the line of rw's edit
 * there in *line; -1: none. */
long ks_sources_definition(struct ks_sources *s, const char *skip, const struct ks_rewrite *rw,
			   const struct ks_callee *fn, unsigned *line);
/* ks_edit_file() of e's rewrite rw at line lineno of path, a location of
 * finding f; for a Callback: entry whose function path does not define,
 * at its definition in another of the module's files (src; NULL: none,
 * ks_sources_definition()). *at: the file edited (path, or one of src's,
 * not to free). */
int ks_edit_use(const struct ks_migration *e, const struct ks_rewrite *rw,
		const struct ks_finding *f, const char *path, unsigned lineno,
		struct ks_sources *src, const char **at, struct ks_edit *ed) KS_MUST_CHECK;
/* The module's function that line lineno of path stores in a Callback:
 * entry e's member (".devnode = f", "c->devnode = &f"), to free; fallback
 * (copied) when the line stores none there. */
char *ks_callback_at(const struct ks_migration *e, const char *path, unsigned lineno,
		     const char *fallback);
/* The rewrites rw[i] of e[i] (i < n) of line s (len bytes), each made of
 * the line as the ones before it left it, in as many rounds as it takes
 * ("a->i_mtime = a->i_ctime = V;": the chain's inner link, then its outer
 * one); a callback's and an #include's are not made here. *out: the line
 * rewritten (to free), done[i]: whether rw[i] was made. Returns how many
 * were. */
size_t ks_edit_compose(const struct ks_migration *const *e, const struct ks_rewrite *const *rw,
		       size_t n, const char *s, size_t len, char **out, bool *done);
/* Line s's code (len bytes): its blanks before and after, and a comment
 * after, left out; to free. */
char *ks_line_code(const char *s, size_t len);
/* The entries whose rewrites apply at finding f's location l, and the
 * rewrites: ks_migration_at()'s, then, at a line that assigns a member
 * gone and reads it too ("inode->i_ctime = dir->i_ctime;"), f's Read:
 * entry's when it rewrites a read there. Returns how many (0: none, or no
 * single rewrite: e[0] the entry that applies, or NULL). */
size_t ks_fix_entries(const struct ks_finding *f, const struct ks_loc *l,
		      const struct ks_migration *e[2], const struct ks_rewrite *rw[2]);
/* Line l of finding f as ks_fix_entries()'s rewrites make it, with those
 * of the other breaks of all (f's module's) on the line
 * (ks_edit_compose(), as ksunset fix's patch makes it): its code before
 * and after (ks_line_code(), to free). 0; -ERANGE: f's rewrite is none, a
 * callback's or an #include's (made elsewhere than the line), or not made
 * there, or the line still names a member gone that a break on it is of;
 * -errno: the file unread. */
int ks_fix_line(const struct ks_findings *all, const struct ks_finding *f, const struct ks_loc *l,
		char **before, char **after);
/* Whether line s (len bytes) names member after a '.' or '->', outside
 * strings and comments. */
bool ks_line_accesses(const char *s, size_t len, const char *member);
/* Why a line has no edit, into b: "no longer includes <asm/unaligned.h>
 * (changed since the build)", "no longer names strlcpy (...)", "has no
 * call of class_create() with all its arguments (...)". */
void ks_edit_missing(struct ks_buf *b, const struct ks_migration *e, const struct ks_rewrite *rw);

#endif
