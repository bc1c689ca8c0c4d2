/* The plugin's second job, the forecast's: what api= records of the
 * module's dependence on the kernel's headers (api.c, shape.c, consts.c,
 * guard.c), and the probe mode of check --target (probe.c). Built on the
 * first (ksunset.h: where, text, tokens), which calls in here only to
 * register, to hand over a declaration and to encode the records. */
#ifndef KSUNSET_PLUGIN_API_H
#define KSUNSET_PLUGIN_API_H

#include "ksunset.h"

/* api=: one thing the module's source does with the kernel's headers
 * (record.h's shape records say what each field holds). */
struct ks_pshape {
	enum ks_shape_what what;
	char *name;
	location_t loc;		/* spelled in the module's source */
	char *func;		/* "" at file scope */
	char *old, *probe;
	location_t decl, decl_end;	/* callback: the function's declarator */
	char *arglines;		/* call: where its arguments start; NULL: its line */
	expanded_location at;	/* loc, expanded for sorting */
};

/* api=: a kernel struct that a prototype of the module's own names by its
 * tag, and how many of the unit's includes were read by then. */
struct ks_pproto {
	tree fn;
	char *tag;		/* "struct i2c_msg" */
	size_t nincludes;
};

/* api=: a macro of the module's own, expanded in its code. */
struct ks_pexpansion {
	location_t loc;			/* spelled */
	cpp_hashnode *node;
};

/* api=: a header of the kernel's that the module's own files include. */
struct ks_pinclude {
	char *header;		/* as written, with <> or "" */
	location_t loc;		/* the #include */
};

/* The state of api= and probe, p->a: allocated by ks_api_register()
 * and ks_probe_register(). */
struct ks_api {
	struct ks_pshape *shapes;	/* found so far */
	size_t nshapes, capshapes;
	struct ks_pinclude *includes;	/* in the order they were read */
	size_t nincludes, capincludes;
	struct ks_pproto *protos;	/* kernel tags of the module's prototypes */
	size_t nprotos, capprotos;
	struct ks_pexpansion *own_macros; /* expansions of the module's macros */
	size_t nown_macros, capown_macros;
	const char *pending_include;	/* an #include not entered yet */
	const char *pending_file;	/* and its file name, without "" or <> */
	location_t pending_loc;
	bool pending_own;		/* written in the module's own files */
	struct ks_strmap entered;	/* its file name -> 2 foreign, 1 not */
	const line_map *map;		/* the last line map asked about */
	bool map_foreign;		/* and whether it is foreign */
	const line_map_ordinary *cur;	/* the file libcpp read last */
	bool cur_foreign;
	struct ks_strmap consts;	/* file -> its lines and identifiers (consts.c) */
	FILE *probe_out;		/* probe: SOURCE.probe */
	bool probe_failed;		/* probe: a result could not be written */
};

/* api.c: api=, where the kernel's headers begin, and what libcpp sees:
 * the kernel's headers the module's files include, the kernel's macros
 * they expand. */
void ks_api_register(struct ks_plugin *p, const char *plugin_name);
void ks_api_start_unit(struct ks_plugin *p);
/* Where the module's code writes the use at loc: where it is spelled, or,
 * spelled in the body of a macro of the module's own, where that macro is
 * expanded; UNKNOWN_LOCATION outside the module's code (the kernel's
 * headers, an #if). */
location_t ks_api_written(struct ks_plugin *p, location_t loc);
/* Whether libcpp is reading a file outside the module's sources (the
 * last ordinary line map's: no location lookup). */
bool ks_api_reading_foreign(struct ks_plugin *p);
/* Whether loc, a spelling location, lies outside the module's sources. */
bool ks_api_foreign(struct ks_plugin *p, location_t loc);
void ks_include_add(struct ks_plugin *p, const char *header, location_t loc);
/* "(a, b)", "(fmt, ...)", "(args...)": a function-like macro's parameters. */
char *ks_macro_params(const struct cpp_macro *m);
/* Appends the unit's include and shape records to desc. */
void ks_api_encode(struct ks_plugin *p, struct ks_buf *desc);

/* shape.c: api=, what the module's own code depends on in the kernel's
 * headers. */
/* A shape at loc (where the source writes it, if that is in the module's
 * sources), in function fn (NULL: file scope); old may be NULL. */
void ks_shape_add(struct ks_plugin *p, enum ks_shape_what what, const char *name,
		  location_t loc, tree fn, const char *old);
/* The type as GCC's diagnostics print it, runs of blanks made one. */
char *ks_type_printed(tree type);
/* A function of the module's own, before it is gimplified. */
void ks_shape_function(struct ks_plugin *p, tree fn);
/* A variable of static storage, when it is finished. */
void ks_shape_decl(struct ks_plugin *p, tree decl);
/* A struct or union of the module's own, when it is finished. */
void ks_shape_type(struct ks_plugin *p, tree type);
/* A function declared, when the declaration is finished. */
void ks_shape_prototype(struct ks_plugin *p, tree decl);
void ks_shape_encode(struct ks_plugin *p, struct ks_buf *desc);
void ks_shape_free(struct ks_plugin *p);

/* consts.c: api=, the kernel's enumeration constants the module names. */
/* A line of the module's files that libcpp read: loc, its first token. */
void ks_consts_line(struct ks_plugin *p, location_t loc);
/* The constants named in lines from..to (one file) of fn (NULL: file
 * scope), once parsed: shapes of each. */
void ks_consts_scan(struct ks_plugin *p, tree fn, location_t from, location_t to);
void ks_consts_free(struct ks_plugin *p);
/* shape.c: a function-like macro of the kernel's expanded at loc, with
 * the types of the arguments the source writes there where they can be
 * told (the target may have made it a function). */
void ks_shape_macro_add(struct ks_plugin *p, const char *name, location_t loc, tree fn,
			const char *params);
char *ks_shape_macro_probe(struct ks_plugin *p, location_t loc);
/* shape.c: an aggregate of the kernel's that loc needs complete (by
 * value, or its size taken). */
void ks_shape_complete(struct ks_plugin *p, tree type, location_t loc, tree fn);
/* shape.c: an enumeration constant of type's, named at loc. */
void ks_const_add(struct ks_plugin *p, const char *name, location_t loc, tree fn, tree type);

/* guard.c: api=, the branches of the module's #if conditionals that hold
 * its includes and shapes and test the kernel: guard records. */
void ks_guard_encode(struct ks_plugin *p, struct ks_buf *desc);

/* probe.c: probe, the plugin in check --target's probe of another kernel. */
void ks_probe_register(struct ks_plugin *p, const char *plugin_name);

#endif
