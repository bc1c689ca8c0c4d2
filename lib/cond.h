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
	size_t nconds;
};

/* A #define or #undef of the file. */
struct ks_cond_define {
	char *name;
	unsigned line;
	bool undef;
};

struct ks_cond_file {
	struct ks_cond_branch *v;
	size_t n;
	struct ks_cond_define *defs;	/* in the order of the file */
	size_t ndefs;
};

/* The branches of text (len bytes), and its #define and #undef lines:
 * comments and line continuations as the preprocessor reads them; a
 * conditional left open ends with the text. 0, or -ENOMEM. */
int ks_cond_scan(const char *text, size_t len, struct ks_cond_file *out) KS_MUST_CHECK;
/* The innermost branch holding line; NULL: none. */
const struct ks_cond_branch *ks_cond_at(const struct ks_cond_file *f, unsigned line);
void ks_cond_free(struct ks_cond_file *f);

/* cond with every "defined NAME" and "defined(NAME)" of name (n bytes)
 * made "(with)"; NULL when out of memory. */
char *ks_cond_replace_defined(const char *cond, const char *name, size_t n, const char *with);

/* Calls fn for each identifier of cond (a condition of
 * ks_cond_branch) that the preprocessor would expand or test:
 * not "defined", nor what __has_include() names. Stops at fn's
 * first non-zero return and returns it. */
int ks_cond_idents(const char *cond, int (*fn)(const char *id, size_t n, void *arg), void *arg);

KS_END_DECLS

#endif
