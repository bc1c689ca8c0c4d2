/* The ksunset record format: what the plugin writes into an object's
 * .note.ksunset section and the checker reads back. See ksunset-plugin(1).
 *
 * One ELF note per translation unit: name "ksunset", type KS_NOTE_TYPE, and
 * a descriptor of NUL-terminated text records:
 *   ksunset 1<TAB>unit<TAB>SOURCE-FILE<TAB>SCHEDULE-DIGEST<TAB>GCC-VERSION
 *   ksunset 1<TAB>use<TAB>SYMBOL<TAB>KIND<TAB>FILE<TAB>LINE<TAB>COLUMN<TAB>FUNCTION<TAB>WHEN
 *   ksunset 2<TAB>use<TAB>...<TAB>WHEN<TAB>ACCEPT-REASON
 *   ksunset 3<TAB>api<TAB>NAME<TAB>KIND<TAB>FILE<TAB>LINE<TAB>COLUMN<TAB>FUNCTION
 *   ksunset 4<TAB>include<TAB>HEADER<TAB>FILE<TAB>LINE
 *   ksunset 4<TAB>shape<TAB>WHAT<TAB>NAME<TAB>FILE<TAB>LINE<TAB>COLUMN<TAB>FUNCTION<TAB>OLD<TAB>PROBE
 *   ksunset 4<TAB>guard<TAB>FILE<TAB>FIRST<TAB>LAST<TAB>TESTS<TAB>COND
 * KIND is call, addr or data. TAB, newline and backslash inside fields are
 * written \t, \n and \\.
 * A record is written in the lowest version that can say it: version 2 only
 * for a use accepted in the source (KSUNSET_ACCEPT, <ksunset/sunset.h>),
 * whose reason is the tenth field. A reader of version 1 skips it, and so
 * does not accept the use.
 * Version 3 adds api records (plugin argument api): a function of the
 * kernel's headers that the source calls (call) or takes the address of
 * (addr), or a function-like macro of theirs it expands (call), whether or
 * not the object imports it. Readers of versions 1 and 2 skip them, as
 * they did before the plugin wrote them; use records stay version 1 or 2.
 * Version 4 (plugin argument api) replaces api records by what the
 * module's own code depends on in the kernel's headers, for
 * check --target's probe of another kernel (ksunset-plugin(1)):
 *   include  a header of the kernel (or the compiler) that the module's
 *            own files include, as written (<linux/fs.h>), at the
 *            #include, in the order the compiler read them;
 *   shape    one use, WHAT (enum ks_shape_what) of NAME where the source
 *            writes it: OLD is its shape in these headers as GCC prints
 *            it, PROBE what the probe needs to rebuild the use (types in
 *            declarator form, '@' standing for the declared name);
 *   guard    lines FIRST to LAST of FILE, a branch of the file's #if
 *            conditionals holding includes or shapes, were compiled
 *            because COND held (a condition of the preprocessor's, the
 *            branches around it included) and COND tests the kernel
 *            (LINUX_VERSION_CODE, CONFIG_*, a macro of its headers or
 *            none's): another kernel's build may take another branch.
 *            TESTS is "kernel" when COND is all a probe needs, "own" when
 *            the branch also tests the module's own macros in a way no
 *            probe can ask (COND then says why, or is "1").
 * Readers of versions 1 to 3 skip them.
 * Version 5 adds shape kinds a reader of version 4 does not know (enum:
 * an enumeration constant of the kernel's headers the code names); a
 * shape record of another kind stays version 4. It also adds
 *   ksunset 5<TAB>shaped
 * after a unit record of a unit built with api=, whatever the unit holds
 * (one empty after preprocessing has no other record to say so).
 * Version 6 adds the shape kind static (a name the module defines for
 * itself, which a kernel's header must not declare).
 * Probe result files (never a module's note) hold two more types, of
 * version 4: fact (how the probed kernel declares an item's name) and
 * error (a compiler error in the probe):
 *   ksunset 4<TAB>fact<TAB>ITEM<TAB>STATUS<TAB>NEW<TAB>FILE<TAB>EXTRA
 *   ksunset 4<TAB>error<TAB>LINE<TAB>COLUMN<TAB>MESSAGE
 */
#ifndef KSUNSET_RECORD_H
#define KSUNSET_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KS_NOTE_SECTION ".note.ksunset"
#define KS_NOTE_NAME "ksunset"
#define KS_NOTE_TYPE 0x4b53 /* "KS"; not 1, which tools print as NT_VERSION */
#define KS_RECORD_VERSION 7 /* the highest version read and written */

struct ks_buf;

enum ks_use_kind {
	KS_USE_CALL,	/* a call */
	KS_USE_ADDR,	/* the address of a function taken */
	KS_USE_DATA,	/* a read or write of a data symbol */
};

enum ks_record_type {
	KS_REC_UNIT,
	KS_REC_USE,
	KS_REC_API,	/* in rec->use: symbol is the name, when NULL */
	KS_REC_INCLUDE,	/* in rec->include */
	KS_REC_SHAPE,	/* in rec->shape */
	KS_REC_FACT,	/* in rec->fact: probe results only */
	KS_REC_ERROR,	/* in rec->error: probe results only */
	KS_REC_GUARD,	/* in rec->guard */
	KS_REC_SHAPED,	/* the unit was built with api=: its shapes are all here */
};

/* What a shape record says the module's code does with NAME: one row
 * each, X(ID, NAME-IN-RECORDS); the rows from READ to CALLBACK are the
 * member shapes (ks_shape_member), whose NAME is "AGGREGATE.MEMBER". */
#define KS_SHAPE_LIST(X)                                                                       \
	X(CALL, "call")		/* calls function NAME: OLD its type, PROBE "RET|ARG|..."  \
				   (RET "-" when the value is not used) */                 \
	X(ADDR, "addr")		/* takes the address of function NAME: OLD its type */     \
	X(MACRO, "macro")	/* expands function-like macro NAME: OLD "(a, b)" */       \
	X(OBJECT, "object")	/* expands object-like macro NAME */                       \
	X(READ, "read")		/* reads member NAME ("struct inode.i_mtime"): OLD its     \
				   type, PROBE the type read ("" when it cannot be         \
				   written down) */                                        \
	X(WRITE, "write")	/* assigns the member: PROBE the type of the value */      \
	X(INIT, "init")		/* initializes it (designated initializers) */             \
	X(CALLBACK, "callback") /* stores a function of its own in it: PROBE               \
				   "FUNCTION|TYPE", OLD the member's type */               \
	X(COMPLETE, "complete") /* needs aggregate NAME complete (by value);   \
				   PROBE "@N": there, after N includes */                \
	X(VAR, "var")		/* uses global variable NAME: OLD its type */              \
	X(TYPEDEF, "typedef")	/* writes typedef name NAME */                             \
	X(ENUM, "enum")		/* names enumeration constant NAME: OLD its type (version  \
				   5) */                                                   \
	X(STATIC, "static")	/* defines function or variable NAME, static, at file      \
				   scope: no kernel header may declare it (version 6) */   \
	X(DECLARED, "declared") /* defines a function whose prototype, in its own   \
				   files, names kernel struct NAME by its tag: PROBE "@N": \
				   declared there, after N includes (version 7) */

enum ks_shape_what {
#define KS_X(id, name) KS_SHAPE_##id,
	KS_SHAPE_LIST(KS_X)
#undef KS_X
	KS_SHAPE_NWHAT
};

static inline bool ks_shape_member(enum ks_shape_what w)
{
	return w >= KS_SHAPE_READ && w <= KS_SHAPE_CALLBACK;
}

/* How a probed kernel declares an item's name (fact records): one row
 * each, X(ID, NAME-IN-RECORDS). */
#define KS_FACT_LIST(X)                                                                        \
	X(NONE, "none")		  /* not at all, in the unit's include context */         \
	X(MACRO, "macro")	  /* an object-like macro */                               \
	X(FMACRO, "fmacro")	  /* a function-like macro: NEW "(a, ...)" */              \
	X(FUNCTION, "function")	  /* a function declared only: the kernel must export it */ \
	X(INLINE, "inline")	  /* a function defined in the headers */                  \
	X(VAR, "var")		  /* a variable */                                         \
	X(ENUM, "enum")		  /* an enumeration constant */                            \
	X(TYPEDEF, "typedef")	  /* a typedef name */                                     \
	X(MEMBER, "member")	  /* the member exists: NEW its type, EXTRA "ro" if        \
				     read-only */                                          \
	X(NO_MEMBER, "no-member") /* the aggregate is complete and has no such member */   \
	X(INCOMPLETE, "incomplete") /* the aggregate is incomplete there */                \
	X(COMPLETE, "complete")	  /* the aggregate is complete */                          \
	X(HEADER_GONE, "header-gone") /* the item's header cannot be included */           \
	X(IMPORT_NS, "import-ns") /* item 0: the headers import namespace NEW for the      \
				     module */                                             \
	X(OFF, "off")		  /* the item's guard does not hold there */                \
	X(FILE, "file")		  /* item 0: a file the probe read, FILE (version 5): the  \
				     cache's results hold while it is unchanged */

enum ks_fact_status {
#define KS_X(id, name) KS_FACT_##id,
	KS_FACT_LIST(KS_X)
#undef KS_X
	KS_FACT_NSTATUS
};

struct ks_record_unit {
	char *source;
	char *digest;
	char *gcc_version;
};

struct ks_record_use {
	char *symbol;
	enum ks_use_kind kind;
	char *file;
	unsigned line;
	unsigned col;		/* GCC's default display column: a tab to the next multiple of 8 */
	char *function;		/* "" at file scope */
	char *when;
	char *accept_reason;	/* KSUNSET_ACCEPT's reason; NULL: not accepted */
};

struct ks_record_include {
	char *header;		/* as written, with its <> or "" */
	char *file;		/* the file holding the #include */
	unsigned line;
};

struct ks_record_shape {
	enum ks_shape_what what;
	char *name;
	char *file;
	unsigned line;
	unsigned col;
	char *function;		/* "" at file scope */
	char *old;
	char *probe;
	char *arglines;		/* call: "L1,L2,..." the lines its arguments start on,
				   0 for the call's own (version 5); NULL: all there */
};

struct ks_record_guard {
	char *file;
	unsigned first, last;
	bool own;		/* TESTS "own": COND says why no probe can ask it */
	char *cond;
};

struct ks_record_fact {
	unsigned item;		/* the probe's number of the item */
	enum ks_fact_status status;
	char *shape;		/* NEW: as GCC prints it, or a macro's parameters */
	char *file;		/* the header that declares it; "" unknown */
	char *extra;		/* functions: "N", "N+" (variadic) or "?" (no prototype),
				   then " =ASMNAME" when the symbol differs; members: "ro" */
};

struct ks_record_error {
	unsigned line;		/* in the probe source */
	unsigned col;
	char *message;
};

struct ks_record {
	enum ks_record_type type;
	struct ks_record_unit unit;
	struct ks_record_use use;
	struct ks_record_include include;
	struct ks_record_shape shape;
	struct ks_record_fact fact;
	struct ks_record_error error;
	struct ks_record_guard guard;
};

const char *ks_use_kind_name(enum ks_use_kind k);
/* How long the function name fn is as the source writes it: GCC's clones
 * carry a suffix after a '.' (foo.constprop.0, foo.isra.0, foo.part.0,
 * foo.cold), which a C identifier never holds. Records store the name as
 * written, so the same function reads the same at every -O level. */
size_t ks_function_name_len(const char *fn);

/* Append one record and its terminating NUL to out. */
void ks_record_encode_unit(struct ks_buf *out, const char *source, const char *digest,
			   const char *gcc_version);
void ks_record_encode_use(struct ks_buf *out, const struct ks_record_use *u);
/* An api record: u's symbol (the name written), kind, file, line, col and
 * function; when and accept_reason are not part of it. */
void ks_record_encode_api(struct ks_buf *out, const struct ks_record_use *u);

void ks_record_encode_include(struct ks_buf *out, const struct ks_record_include *inc);
void ks_record_encode_shape(struct ks_buf *out, const struct ks_record_shape *sh);
void ks_record_encode_fact(struct ks_buf *out, const struct ks_record_fact *f);
void ks_record_encode_error(struct ks_buf *out, const struct ks_record_error *e);
void ks_record_encode_guard(struct ks_buf *out, const struct ks_record_guard *g);
void ks_record_encode_shaped(struct ks_buf *out);
const char *ks_shape_what_name(enum ks_shape_what w);
const char *ks_fact_status_name(enum ks_fact_status s);

/* Decode one record (n bytes, without its NUL). Returns 0, 1 if the record
 * is of a newer version and was skipped, or -EINVAL with *why set. */
int ks_record_decode(const char *p, size_t n, struct ks_record *rec, const char **why);
void ks_record_free(struct ks_record *rec);

#ifdef __cplusplus
}
#endif

#endif
