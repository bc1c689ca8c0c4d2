/* A migrations file (ksunset.migrations(5)): how the kernel's in-tree code
 * adapted between two releases, as scripts/migrations.sh mines it. */
#ifndef KS_MIGRATIONS_H
#define KS_MIGRATIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler.h"
#include "diag.h"

enum ks_rewrite_op {
	KS_RW_HEADER,			/* another header included */
	KS_RW_DROP,			/* an argument dropped */
	KS_RW_INSERT,			/* an argument inserted */
	KS_RW_RENAME,			/* another function or macro called */
	KS_RW_CALL,			/* an assignment become a call */
	KS_RW_CONST,			/* a callback's parameter (or return type) made const */
	KS_RW_RETYPE,			/* a callback's parameter of another struct */
	KS_RW_INCLUDE,			/* a header included for a name */
	KS_RW_DELETE,			/* the line that names it deleted */
	KS_RW_OMIT,			/* it dropped from the flags it is OR-ed with */
	KS_RW_REPLACE,			/* another argument passed in its place */
	KS_RW_LOCAL,			/* a callback's parameter dropped declared a
					 * local in its body */
	KS_RW_WRAP,			/* the older headers' wrapper called, that
					 * passes one argument's text itself */
	KS_NRW_OPS
};

/* One rewrite the in-tree code made, how often, and where once. */
struct ks_rewrite {
	enum ks_rewrite_op op;
	unsigned arg;			/* DROP, INSERT, CONST, RETYPE, REPLACE, LOCAL,
					 * WRAP: which argument or parameter, 1-based
					 * (CONST: 0 the return type) */
	char *text;			/* HEADER, INCLUDE: the new header; INSERT,
					 * REPLACE: the argument; RENAME, CALL: the name
					 * called; RETYPE: the parameter's new type,
					 * "struct NAME"; LOCAL: the function whose
					 * value the local takes; WRAP: the wrapper */
	unsigned count;			/* sites that made it */
	char *example;			/* "FILE:LINE" of one, in the newer release */
	char *from;			/* RETYPE: the parameter's old type; REPLACE: the
					 * argument passed before; WRAP: the one the
					 * wrapper passes; else NULL */
	unsigned param;			/* LOCAL: the parameter that function is
					 * called with, 1-based */
};

/* A header its in-tree users stopped including (Header:), a function or
 * macro whose in-tree callers changed their arguments or called another
 * in its place (Call:), a member whose in-tree assignments with one
 * operator, or of one call, became calls (Assign:, "vm_flags |=",
 * "i_ctime = current_time()"), a member whose
 * in-tree callbacks changed their definitions (Callback:, "struct
 * class.devnode"), a member gone whose in-tree reads became calls
 * (Read:, "struct fd.file"; of one of its fields, "struct
 * inode.i_mtime.tv_sec"), or a name whose in-tree users added the
 * #include of a header that declares it (Include:, "crypto_register_alg",
 * "struct circ_buf"), or the calls of a function or macro that passed one
 * text as one argument (Argument:, "setattr_prepare 1 &init_user_ns"): the
 * rewrites they made, the most common first. */
struct ks_migration {
	char *name;			/* the header as #include <...> names it, the
					 * call's, "MEMBER OP", "struct S.MEMBER", the
					 * name included for, or "NAME N TEXT" */
	bool call;			/* a Call:, Assign:, Callback:, Read:, Include:
					 * or Argument: entry (Rewrite:) */
	bool assign;			/* an Assign: entry */
	bool callback;			/* a Callback: entry */
	bool read;			/* a Read: entry */
	char *member, *field;		/* a Read: entry's member, and the field of it
					 * its reads read ("struct inode.i_mtime.tv_sec":
					 * "i_mtime", "tv_sec"; NULL: the whole member) */
	bool include;			/* an Include: entry */
	bool argument;			/* an Argument: entry */
	bool target;			/* an Include: entry of the target's headers
					 * (ks_migrations_target_include), not of the
					 * file: no in-tree site */
	unsigned of;			/* the in-tree sites that changed */
	struct ks_rewrite rw[2];
	unsigned nrw;
	unsigned line;			/* of its Header: or Call: field */
};

struct ks_migrations {
	char *path;
	char *from, *to;		/* the releases, "X.Y" */
	const char *source;		/* the newer release's source tree
					 * (--kernel-source): examples' text; NULL */
	struct ks_migration *v;
	size_t n;
	struct ks_migration **target;	/* ks_migrations_target_include()'s */
	size_t ntarget;
};

/* Reads path; a bad line is "FILE:LINE: error: ...". Returns 0, -EINVAL
 * if the file is malformed (nothing of it is kept), or -errno. */
int ks_migrations_load(struct ks_migrations *m, const char *path, struct ks_diags *d) KS_MUST_CHECK;
/* The entry of a header (without its <>), or of a call (a Call:,
 * Assign:, Callback: or Read: entry); NULL: none. */
const struct ks_migration *ks_migrations_find(const struct ks_migrations *m, const char *name,
					      bool call);
/* The Include: entry of a name ("vmap", "struct circ_buf"); NULL: none. */
const struct ks_migration *ks_migrations_include(const struct ks_migrations *m, const char *name);
/* An Include: entry of the target's own headers, for a name ("struct
 * circ_buf") that no entry of m has: header, which declares (or defines)
 * it there, included; made once per name and header, kept with m. */
const struct ks_migration *ks_migrations_target_include(struct ks_migrations *m, const char *name,
							const char *header);
/* The rewrite a module's line can take from e: the one that at least 3,
 * and two in three, of the sites made, that names nothing of the callers'
 * own (an inserted argument is a number, NULL, true, false or a name in
 * capitals; one passed instead, that or the address of a name); a
 * target's Include: entry's; a wrapper's (the older headers define it so).
 * NULL: in-tree code shows no single rewrite, or none that is
 * mechanical. */
const struct ks_rewrite *ks_migration_rewrite(const struct ks_migration *e);
/* Whether e's rewrites are of a callback's head (a Callback: entry's,
 * but the deletion of a member gone's initializer). */
bool ks_migration_head(const struct ks_migration *e);
/* Of a Callback: entry whose rewrite rw drops a parameter, the local its
 * in-tree callbacks whose bodies used the parameter declared in its
 * place (a second Rewrite: "local N F K" of at least 3 sites); NULL:
 * none. */
const struct ks_rewrite *ks_migration_local(const struct ks_migration *e,
					    const struct ks_rewrite *rw);
/* "vm_flags |=": member, and the operator that line lineno of path
 * assigns it with (|=, &= or =); NULL when it does not. */
char *ks_assigned_with(const char *member, const char *path, unsigned lineno);
/* The Assign: entry of ms for how line lineno of path assigns member: the
 * one of the call its value is ("i_ctime = current_time()", a value that
 * is a whole call, up to the ';'), else the one of the operator
 * ("i_ctime ="); NULL: none, or the line does not assign it. */
const struct ks_migration *ks_migrations_assign(const struct ks_migrations *ms, const char *member,
						const char *path, unsigned lineno);
/* The Argument: entry of a call of name at line lineno of path: of the
 * first of its arguments whose text (blanks around it left out) one has;
 * NULL: none, or no call of name with all its arguments there. */
const struct ks_migration *ks_migrations_argument(const struct ks_migrations *ms,
						  const char *name, const char *path,
						  unsigned lineno);
/* The Read: entry of member name ("struct inode.i_mtime") at line lineno
 * of path: of the field the line's first read of the member reads
 * ("struct inode.i_mtime.tv_sec") when the file has one, else of the whole
 * member; NULL: neither. */
const struct ks_migration *ks_migrations_read(const struct ks_migrations *ms, const char *name,
					      const char *path, unsigned lineno);
/* The function or macro an Argument: entry's calls call, to free. */
char *ks_migration_callee(const struct ks_migration *e);
/* The entry that applies at line lineno of path: e, or, e being an
 * Assign: entry, or a Read: entry at a line that assigns its member,
 * ks_migrations_assign()'s for e's member; e being a Read: entry at a line
 * whose first read of the member reads a field of it, the Read: entry of
 * that field, else of the whole member; e being an Argument: entry,
 * ks_migrations_argument()'s for its callee (NULL: none). */
const struct ks_migration *ks_migration_at(const struct ks_migrations *ms,
					   const struct ks_migration *e, const char *path,
					   unsigned lineno);
void ks_migrations_free(struct ks_migrations *m);
/* The line rw's example is, as the source tree m->source has it, its
 * blanks around left out; NULL: no tree, or no such line there. */
char *ks_migration_example_text(const struct ks_migrations *m, const struct ks_rewrite *rw);
/* The op as a Rewrite: value spells it: "drop", "const"... */
const char *ks_rewrite_op_name(enum ks_rewrite_op op);

#endif
