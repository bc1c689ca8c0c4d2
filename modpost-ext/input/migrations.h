/* A migrations file (ksunset.migrations(5)): how the kernel's in-tree code
 * adapted between two releases, as scripts/migrations.sh mines it. */
#ifndef KS_MIGRATIONS_H
#define KS_MIGRATIONS_H

#include <stddef.h>

#include "compiler.h"
#include "diag.h"

/* A header its in-tree users stopped including, and what they include
 * instead. */
struct ks_migration {
	char *header, *instead;		/* as #include <...> names them */
	unsigned count, of;		/* count of the of files that included it */
	char *example;			/* "FILE:LINE" of one, in the newer release */
	unsigned line;			/* of its Header field */
};

struct ks_migrations {
	char *path;
	char *from, *to;		/* the releases, "X.Y" */
	struct ks_migration *v;
	size_t n;
};

/* Reads path; a bad line is "FILE:LINE: error: ...". Returns 0, -EINVAL
 * if the file is malformed (nothing of it is kept), or -errno. */
int ks_migrations_load(struct ks_migrations *m, const char *path, struct ks_diags *d) KS_MUST_CHECK;
/* The entry of header (without its <>); NULL: none. */
const struct ks_migration *ks_migrations_find(const struct ks_migrations *m, const char *header);
void ks_migrations_free(struct ks_migrations *m);

#endif
