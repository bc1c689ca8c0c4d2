/* The conditional branches of a C source file (#if, #ifdef, #ifndef,
 * #elif, #elifdef, #elifndef, #else, #endif), read from its text: for each
 * branch the lines it spans and the conditions under which the
 * preprocessor reads them, its own and those of the branches around it.
 * The plugin records the branches that hold a module's uses of the
 * kernel and test the kernel (LINUX_VERSION_CODE, a macro of its
 * headers), so that a probe of another kernel tells whether its build
 * takes the same branch. */
#ifndef KS_COND_H
#define KS_COND_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler.h"

KS_BEGIN_DECLS

struct ks_cond_branch {
	unsigned first, last;	/* its lines, the directives excluded */
	char **conds;		/* each a condition of the preprocessor's, in
				   parentheses or negated: "(X >= 2)",
				   "defined(Y)", "!(Z)"; the outermost first */
	unsigned *lines;	/* each one's directive: where it is evaluated */
	size_t nconds;
};

/* A #define or #undef of the file. */
struct ks_cond_define {
	char *name;
	unsigned line;
	bool undef;
	char *params;		/* a function-like macro's: "a,b" ("" none);
				   NULL: object-like (or #undef) */
	char *body;		/* its replacement list, trimmed ("" none) */
};

struct ks_cond_file {
	struct ks_cond_branch *v;
	size_t n;
	bool configure;			/* a configure script's header ("Generated
					   from X.in by configure" at its top, or
					   only #define and #undef lines, some
					   #undef: NVIDIA's conftest): its #defines
					   and #undefs (autoconf's in comments) are
					   what it found of a kernel */
	struct ks_cond_define *defs;	/* in the order of the file */
	size_t ndefs, capdefs;
};

/* The branches of text (len bytes), and its #define and #undef lines:
 * comments and line continuations as the preprocessor reads them; a
 * conditional left open ends with the text. */
void ks_cond_scan(const char *text, size_t len, struct ks_cond_file *out);
/* The innermost branch holding line; NULL: none. */
const struct ks_cond_branch *ks_cond_at(const struct ks_cond_file *f, unsigned line);
void ks_cond_free(struct ks_cond_file *f);

/* cond with every "defined NAME" and "defined(NAME)" of name (n bytes)
 * made "(with)". */
char *ks_cond_replace_defined(const char *cond, const char *name, size_t n, const char *with);

/* Calls fn for each identifier of cond (a condition of
 * ks_cond_branch) that the preprocessor would expand or test:
 * not "defined", nor what __has_include() names. Stops at fn's
 * first non-zero return and returns it. */
int ks_cond_idents(const char *cond, int (*fn)(const char *id, size_t n, void *arg), void *arg);

/* What an identifier of a condition is, apart from the module's own
 * #defines (which ks_cond_resolve reads in the files themselves). */
enum ks_ident_is {
	KS_IDENT_KERNEL,	/* a macro of the kernel's headers: the target answers */
	KS_IDENT_NONE,		/* no macro here: the target answers (0 where it is none) */
	KS_IDENT_SAME,		/* the compiler's: its own answer wherever */
	KS_IDENT_FLAG,		/* the command line's: the same in both builds; its body */
	KS_IDENT_OWN,		/* the module's, in a file that was not read */
};

/* A file of the module's, as ks_cond_scan read it. */
struct ks_cond_src {
	const char *name;
	const struct ks_cond_file *cond;
};

struct ks_cond_ctx {
	const struct ks_cond_src *files;	/* every file of the module's read */
	size_t nfiles;
	/* What id (n bytes) is; for KS_IDENT_FLAG *value its body (NULL:
	 * a function-like macro). value may be NULL. */
	enum ks_ident_is (*is)(const char *id, size_t n, const char **value, void *arg);
	void *arg;
};

/* cond, read at line of file (an index of c->files), rewritten so that
 * the target kernel's preprocessor can evaluate it alone: each macro of
 * the module's own replaced by its #defines that are read before that
 * point (another file's, or earlier in the same one), each under the
 * conditions of its branch ("((C1) ? (BODY1) : NAME)"; defined(NAME):
 * "(defined(NAME) || (C1))"), each command-line macro by its value. NULL
 * with *why (allocated) when it cannot be (an #undef, a macro that pastes
 * its arguments, a macro a configure script sets). */
char *ks_cond_resolve(const struct ks_cond_ctx *c, size_t file, unsigned line, const char *cond,
		      char **why);

KS_END_DECLS

#endif
