/* Shared state of the ksunset GCC plugin: one context, created by
 * plugin_init and handed to every callback and pass, so no part of the
 * plugin reads file-wide globals. */
#ifndef KSUNSET_PLUGIN_H
#define KSUNSET_PLUGIN_H

struct cpp_macro;

/* Include after lib/'s headers (buf.h, schedule.h, <ksunset/record.h>) and
 * GCC's: GCC's options.h defines warn_unused_result as a macro, which
 * breaks lib/compiler.h if GCC's headers come first. */

/* One use, found by a pass or an initializer walk, reported at the end of
 * the translation unit (sorted, so the output does not depend on the order
 * in which GCC runs its passes). */
struct ks_puse {
	char *sym;		/* assembler name: what the ELF symbol table says */
	char *name;		/* the name in the source (differs with asm labels) */
	enum ks_use_kind kind;
	location_t loc;		/* resolved: no macro, no block */
	bool own;		/* the token at loc is the symbol's name */
	char *func;		/* "" at file scope */
	const struct ks_entry *e;
	const char *accept;	/* KSUNSET_ACCEPT's reason in func; NULL: none */
};

struct ks_plugin {
	const char *name;		/* the plugin's base name, for messages */
	struct ks_schedule sched;	/* from schedule= */
	struct ks_schedule marks;	/* from sunset attributes */
	bool strict, quiet;
	bool api;			/* api=: record the names of the kernel's headers */
	bool probe;			/* probe: check --target's probe (probe.c) */
	int32_t today;
	char **kdirs;			/* kernel source and build trees (real paths) */
	char *srcdir;			/* the directory of the file compiled */
	size_t nkdirs;
	struct ks_strmap foreign;	/* file name -> 1 (module) or 2 (kernel) */
	const line_map *where_map;	/* the last map ks_where_foreign asked about */
	bool where_foreign;		/* and its answer */
	const char *where_file;		/* the last file foreign_file() classified */
	bool where_file_foreign;	/* and its answer */
	struct ks_puse *uses;
	size_t nuses, cap;
	char *license;			/* the unit's MODULE_LICENSE; NULL: none */
	char **import_ns;		/* its MODULE_IMPORT_NS namespaces */
	size_t nimport_ns;
	struct ks_strmap accepts;	/* function -> KSUNSET_ACCEPT's reason */
	struct ks_api *a;		/* api= and probe: the forecast's part (api.h) */
	struct ks_strmap reach;		/* function -> what it reaches (reach.c) */
	unsigned reach_gen;
	tree reach_fn;			/* the function reach_cur is of */
	struct fn_reach *reach_cur;
	struct nested *nested;		/* calls in calls' arguments (reach.c) */
	size_t nnested, capnested;
	bool nested_sorted;
	struct ks_strmap texts;		/* file -> its text and lines (text.c) */
	tree early_fn;			/* the function the early pass is in */
	bool early_fn_foreign;		/* and whether the kernel's headers wrote it */
};

/* where.c: whose source a location is. */
bool ks_where_init(struct ks_plugin *p, const char *explicit_dirs);
location_t ks_where_resolve(location_t loc);
bool ks_where_foreign(struct ks_plugin *p, location_t loc);
/* Where loc is spelled (out of every macro expansion). */
location_t ks_where_spelling(location_t loc);
/* Whether loc (any kind) is spelled in a kernel header: under a kernel
 * tree, not a system header, not built in. */
bool ks_where_kernel(struct ks_plugin *p, location_t loc);

/* token.c: the token a use is reported at. loc is GCC's (a call's, an
 * operand's or a statement's, maybe in a macro expansion); returns where
 * the module's source writes the use: the name itself (*own set), else a
 * macro's or a wrapper's name. */
enum ks_token_how {
	KS_TOKEN_AT,	/* loc's token: a kernel-header wrapper's call */
	KS_TOKEN_RANGE,	/* else the name in loc's source range: a call */
	KS_TOKEN_ARGS,	/* also among a macro's arguments: an operand */
};
location_t ks_token_locate(location_t loc, const char *name, enum ks_token_how how, bool *own);

/* mark.c: the sunset attribute and the schedule lookup of a declaration. */
void ks_mark_register_attribute(void);
const struct ks_entry *ks_mark_lookup(struct ks_plugin *p, tree decl, const char **sym);

/* uses.c: the passes and the initializer walk that find uses. */
void ks_uses_register(struct ks_plugin *p, const char *plugin_name);
void ks_uses_finish_decl(struct ks_plugin *p, tree decl);

/* reach.c: what each function reaches as written, noted by the early
 * pass: the scheduled symbols it names, and a kernel-header function's
 * callees, or a module function's calls of kernel-header functions. */
enum ks_reach { KS_REACH_UNKNOWN, KS_REACH_NO, KS_REACH_YES };
/* decl: a function or variable fn names (NULL: fn is seen, whatever it
 * names); sym: decl's symbol if it is scheduled. */
void ks_reach_note(struct ks_plugin *p, tree fn, bool fn_foreign, tree decl, const char *sym,
		   location_t loc);
/* Whether fn, as written, reaches sym (by name or through what it calls). */
enum ks_reach ks_reach(struct ks_plugin *p, tree fn, const char *sym);
/* The first call in fn of a kernel-header function that reaches sym. */
bool ks_reach_call(struct ks_plugin *p, tree fn, const char *sym, location_t *loc,
		   const char **callee);
/* Notes where fn's calls in other calls' arguments are written, before
 * GCC gives them the location of the call they are passed to. */
void ks_reach_nested(struct ks_plugin *p, tree fn);
/* Where the call of callee that GCC put at loc is written, or
 * UNKNOWN_LOCATION. */
location_t ks_reach_written(struct ks_plugin *p, location_t loc, const char *callee);
void ks_reach_free(struct ks_plugin *p);

/* modinfo.c: the unit's MODULE_LICENSE and MODULE_IMPORT_NS. */
void ks_modinfo_collect(struct ks_plugin *p);
/* Whether e's action concerns this module: gpl-only not a GPL-compatible
 * one, namespace NS not one that imports NS. */
bool ks_modinfo_concerns(const struct ks_plugin *p, const struct ks_entry *e);

/* accept.c: KSUNSET_ACCEPT, the #pragma ksunset accept of <ksunset/sunset.h>. */
void ks_accept_register(struct ks_plugin *p, const char *plugin_name);
/* The reason the uses in function fn (as written) are accepted; NULL:
 * they are not. */
const char *ks_accept_reason(const struct ks_plugin *p, const char *fn);

/* report.c: collecting, diagnosing and recording uses. */
void ks_puse_add(struct ks_plugin *p, tree decl, const struct ks_entry *e,
		   const char *sym, enum ks_use_kind kind, location_t loc, bool own, tree fn);
/* Sorts the unit's uses and diagnoses them. */
void ks_puses_finish(struct ks_plugin *p);
/* Appends the records of the uses the object still refers to. */
void ks_puses_encode(struct ks_plugin *p, struct ks_buf *desc);

/* note.c: the unit's .note.ksunset, written into the assembly. */
void ks_note_write(struct ks_plugin *p);

/* text.c: the lines of the files the plugin reads itself, each read once. */
struct ks_line {
	const char *p;		/* not NUL-terminated */
	size_t len;		/* without the line end */
};
bool ks_text_line(struct ks_plugin *p, const char *file, int line, struct ks_line *out);
/* GCC's display column of x, as it prints it by default. */
int ks_text_display_col(struct ks_plugin *p, expanded_location x);
void ks_text_free(struct ks_plugin *p);

/* where.c (continued): places and symbols as the records give them. The
 * order of uses and shapes: by file, line, column, then name and kind;
 * for qsort's comparators. */
int ks_cmp_place(location_t la, const char *na, int ka, location_t lb, const char *nb, int kb);
/* Whether the unit defines sym (an assembler name): then it is no import. */
bool ks_defined_here(const char *sym);
/* r's file, line and display column from loc. */
void ks_record_place(struct ks_plugin *p, location_t loc, struct ks_record_use *r);

#endif
