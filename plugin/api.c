/* api=: where the module's sources end and the kernel's headers begin,
 * for the shapes (shape.c), and what libcpp alone sees: the kernel's
 * headers that the module's own files include, as written and in order,
 * and the kernel's macros that they expand (a function-like one with its
 * parameters), whether or not the object imports what they make: a
 * macro may compile into other calls, and check --target still has to
 * know the source needs it. */
/* lib/ first: GCC's options.h defines warn_unused_result as a macro */
#include "array.h"
#include "buf.h"
#include "schedule.h"
#include <ksunset/record.h>

#include "gcc-plugin.h"
#include "tree.h"
#include "input.h"
#include "hash-set.h"
#include "cpplib.h"
#include "c-family/c-pragma.h"
#include "stringpool.h"

#include <stdlib.h>
#include <string.h>

#include "api.h"

/* libcpp's callbacks carry no data of their own: the one plugin of this
 * compilation, set when the unit starts. */
static struct ks_plugin *cpp_plugin;
static void (*chained_used)(cpp_reader *, location_t, cpp_hashnode *);
static void (*chained_include)(cpp_reader *, location_t, const unsigned char *, const char *, int,
			       const cpp_token **);
static void (*chained_file_change)(cpp_reader *, const line_map_ordinary *);
static void (*chained_line_change)(cpp_reader *, const cpp_token *, int);

/* Whether loc (spelled) is outside the module's sources, as
 * ks_where_foreign says, which depends on loc's line map only: libcpp
 * expands most macros inside the kernel's headers, one map after another,
 * and this is asked for every expansion. */
bool ks_api_foreign(struct ks_plugin *p, location_t loc)
{
	const line_map *map;

	if (loc <= BUILTINS_LOCATION)
		return true;
	map = linemap_lookup(line_table, loc);
	if (map != p->a->map) {
		p->a->map = map;
		p->a->map_foreign = ks_where_foreign(p, loc);
	}
	return p->a->map_foreign;
}

/* Whether libcpp is reading a file outside the module's sources: then
 * every macro it expands (nested ones and arguments too) is spelled
 * there. Most expansions happen inside the kernel's headers, and this
 * costs no location lookup: the file read is the last ordinary map's. */
static bool reading_foreign(struct ks_plugin *p)
{
	const line_map_ordinary *cur = LINEMAPS_LAST_ORDINARY_MAP(line_table);

	if (!cur)
		return true;
	if (cur != p->a->cur) {
		p->a->cur = cur;
		p->a->cur_foreign = ks_where_foreign(p, MAP_START_LOCATION(cur));
	}
	return p->a->cur_foreign;
}

bool ks_api_reading_foreign(struct ks_plugin *p)
{
	return reading_foreign(p);
}

/* Whether the line at loc is a directive: a macro tested or expanded in
 * #if (LINUX_VERSION_CODE, CONFIG_*) says what the sources test, not what
 * they use. */
static bool in_directive(struct ks_plugin *p, location_t loc)
{
	expanded_location x = expand_location(loc);
	struct ks_line line;
	size_t i = 0;

	if (!ks_text_line(p, x.file, x.line, &line))
		return false;
	while (i < line.len && (line.p[i] == ' ' || line.p[i] == '\t'))
		i++;
	return i < line.len && line.p[i] == '#';
}

location_t ks_api_written(struct ks_plugin *p, location_t loc)
{
	location_t at = ks_where_spelling(loc);

	if (ks_api_foreign(p, at))
		return UNKNOWN_LOCATION;
	if (!linemap_location_from_macro_expansion_p(line_table, loc) || !in_directive(p, at))
		return at;
	/* spelled in the body of a macro of the module's own: its use is
	 * where the module's code expands it (as the use records say) */
	at = ks_where_resolve(loc);
	return ks_api_foreign(p, at) || in_directive(p, at) ? UNKNOWN_LOCATION : at;
}

char *ks_macro_params(const cpp_macro *m)
{
	struct ks_buf b = KS_BUF_INIT;

	ks_buf_addc(&b, '(');
	for (unsigned i = 0; i < m->paramc; i++) {
		const char *n = (const char *)NODE_NAME(m->parm.params[i]);
		bool va = m->variadic && i + 1 == m->paramc;

		ks_buf_addf(&b, "%s%s%s", i ? ", " : "", va && !strcmp(n, "__VA_ARGS__") ? "" : n,
			    va ? "..." : "");
	}
	ks_buf_addc(&b, ')');
	return ks_buf_steal(&b);
}

/* A macro of the module's own (not the command line's), expanded in its
 * code: guard.c asks whether its definition depends on the kernel. */
static void own_macro(struct ks_plugin *p, location_t at, cpp_hashnode *node)
{
	location_t def = cpp_macro_definition_location(node);

	if (def <= BUILTINS_LOCATION || ks_api_foreign(p, ks_where_spelling(def)))
		return;
	ks_array_room((void **)&p->a->own_macros, &p->a->capown_macros, p->a->nown_macros + 1,
		      sizeof(*p->a->own_macros));
	p->a->own_macros[p->a->nown_macros].loc = at;
	p->a->own_macros[p->a->nown_macros++].node = node;
}

/* A macro of the kernel's headers, expanded in the module's sources. */
static void macro_used(cpp_reader *reader, location_t loc, cpp_hashnode *node)
{
	struct ks_plugin *p = cpp_plugin;
	location_t at;
	bool fun;

	if (chained_used)
		chained_used(reader, loc, node);
	if (!cpp_user_macro_p(node) || reading_foreign(p))
		return;
	at = ks_api_written(p, loc);
	/* tested in #if, or spelled where the kernel's headers are read */
	if (at == UNKNOWN_LOCATION || in_directive(p, at))
		return;
	if (!ks_where_kernel(p, cpp_macro_definition_location(node))) {
		own_macro(p, at, node);
		return;
	}
	fun = cpp_fun_like_macro_p(node);
	if (fun) {
		char *params = ks_macro_params(node->value.macro);

		/* the argument types only where the source writes the use
		 * itself, not in a macro of its own */
		if (at == ks_where_spelling(loc))
			ks_shape_macro_add(p, (const char *)NODE_NAME(node), at,
					   current_function_decl, params);
		else
			ks_shape_add(p, KS_SHAPE_MACRO, (const char *)NODE_NAME(node), at,
				     current_function_decl, params);
		free(params);
	} else {
		ks_shape_add(p, KS_SHAPE_OBJECT, (const char *)NODE_NAME(node), at,
			     current_function_decl, NULL);
	}
}

/* An #include in the module's own files names a header of the kernel's
 * (or the compiler's) if the file libcpp enters for it is not the
 * module's; one it does not enter (its guard says it was read before) is
 * judged by the file entered earlier under the same name, in quotes or
 * angle brackets alike ("afsconfig.h", then <afsconfig.h>), else by its
 * angle brackets. Every include is remembered by name for that. */
static void include_done(struct ks_plugin *p, const line_map_ordinary *entered)
{
	const char *name = p->a->pending_include;
	void **slot;
	bool foreign;

	if (!name)
		return;
	if (entered) {
		foreign = ks_where_foreign(p, MAP_START_LOCATION(entered));
		ks_strmap_put(&p->a->entered, p->a->pending_file, &slot);
		*slot = (void *)(intptr_t)(foreign ? 2 : 1);
	} else {
		intptr_t seen = (intptr_t)ks_strmap_get(&p->a->entered, p->a->pending_file);

		foreign = seen ? seen == 2 : name[0] == '<';
	}
	if (p->a->pending_own && foreign)
		ks_include_add(p, name, p->a->pending_loc);
	p->a->pending_include = NULL;
}

static void include_seen(cpp_reader *reader, location_t loc, const unsigned char *dir,
			 const char *fname, int angle, const cpp_token **comments)
{
	struct ks_plugin *p = cpp_plugin;
	char *name;

	if (chained_include)
		chained_include(reader, loc, dir, fname, angle, comments);
	include_done(p, NULL);
	/* only the module's own includes are recorded: the kernel's headers
	 * include each other by the thousand (an include of the module's
	 * that is not entered, since it was read before, is then judged by
	 * its angle brackets) */
	if (strncmp((const char *)dir, "include", 7) || reading_foreign(p))
		return;
	/* an identifier's string lives as long as the compilation */
	name = ks_strdupf(angle ? "<%s>" : "\"%s\"", fname);
	p->a->pending_include = IDENTIFIER_POINTER(get_identifier(name));
	p->a->pending_file = IDENTIFIER_POINTER(get_identifier(fname));
	free(name);
	p->a->pending_loc = loc;
	p->a->pending_own = true;
}

static void file_changed(cpp_reader *reader, const line_map_ordinary *map)
{
	struct ks_plugin *p = cpp_plugin;

	if (chained_file_change)
		chained_file_change(reader, map);
	include_done(p, map && map->reason == LC_ENTER ? map : NULL);
}

/* A line of tokens that libcpp reads (not one it skips): the module's
 * own are noted, for the enumeration constants they may name. */
static void line_changed(cpp_reader *reader, const cpp_token *token, int parsing_args)
{
	struct ks_plugin *p = cpp_plugin;

	if (chained_line_change)
		chained_line_change(reader, token, parsing_args);
	if (token->type != CPP_EOF && !reading_foreign(p))
		ks_consts_line(p, token->src_loc);
}

/* Whether the unit is modpost's NAME.mod.c: generated anew for each
 * kernel the module is built for, so no name in it is the authors'. */
static bool generated_unit(void)
{
	size_t n = main_input_filename ? strlen(main_input_filename) : 0;

	return n > 6 && !strcmp(main_input_filename + n - 6, ".mod.c");
}

void ks_api_start_unit(struct ks_plugin *p)
{
	cpp_callbacks *cb;

	/* modpost's NAME.mod.c holds nothing of the authors': api= skips it
	 * whole (a fifth of a small module's api= cost was there) */
	if (p->api && generated_unit())
		p->api = false;
	if (!p->api || !parse_in)
		return;
	cb = cpp_get_callbacks(parse_in);
	cpp_plugin = p;
	chained_used = cb->used;
	cb->used = macro_used;
	chained_include = cb->include;
	cb->include = include_seen;
	chained_file_change = cb->file_change;
	cb->file_change = file_changed;
	chained_line_change = cb->line_change;
	cb->line_change = line_changed;
}

/* Before the body is gimplified; not the kernel's inline functions,
 * which every header defines by the hundred. */
static void pre_genericize(void *gcc_data, void *user_data)
{
	struct ks_plugin *p = (struct ks_plugin *)user_data;
	tree fn = (tree)gcc_data;

	if (!p->api || ks_where_foreign(p, ks_where_resolve(DECL_SOURCE_LOCATION(fn))))
		return;
	ks_shape_function(p, fn);
	if (DECL_STRUCT_FUNCTION(fn))
		ks_consts_scan(p, fn, DECL_SOURCE_LOCATION(fn),
			       DECL_STRUCT_FUNCTION(fn)->function_end_locus);
}

static void finish_type(void *gcc_data, void *user_data)
{
	struct ks_plugin *p = (struct ks_plugin *)user_data;
	tree type = (tree)gcc_data;

	/* most types are finished while libcpp reads the kernel's headers */
	if (p->api && type && TYPE_P(type) && TYPE_STUB_DECL(type) && !reading_foreign(p) &&
	    !ks_where_foreign(p, ks_where_resolve(DECL_SOURCE_LOCATION(TYPE_STUB_DECL(type)))))
		ks_shape_type(p, type);
}

void ks_api_register(struct ks_plugin *p, const char *plugin_name)
{
	if (!p->api)
		return;
	register_callback(plugin_name, PLUGIN_PRE_GENERICIZE, pre_genericize, p);
	register_callback(plugin_name, PLUGIN_FINISH_TYPE, finish_type, p);
}

void ks_include_add(struct ks_plugin *p, const char *header, location_t loc)
{
	struct ks_pinclude *inc;

	ks_array_room((void **)&p->a->includes, &p->a->capincludes, p->a->nincludes + 1,
		      sizeof(*p->a->includes));
	inc = &p->a->includes[p->a->nincludes++];
	inc->header = xstrdup(header);
	inc->loc = loc;
}


/* The unit's includes in the order they were read, then its shapes,
 * sorted, each once. */
void ks_api_encode(struct ks_plugin *p, struct ks_buf *desc)
{
	ks_record_encode_shaped(desc);
	for (size_t i = 0; i < p->a->nincludes; i++) {
		struct ks_record_use place;
		struct ks_record_include rec;

		ks_record_place(p, p->a->includes[i].loc, &place);
		rec.header = p->a->includes[i].header;
		rec.file = place.file;
		rec.line = place.line;
		ks_record_encode_include(desc, &rec);
	}
	ks_guard_encode(p, desc);
	ks_shape_encode(p, desc);
}
