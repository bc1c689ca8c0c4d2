/* The token a use is reported at, from GCC's own locations: a call's
 * location is its callee's first token, an operand's or a statement's
 * carries the source range of its expression. Locations are followed out
 * of macro expansions to the module's source. The source text is read
 * only to tell whether a token is the name, and to find the name's token,
 * with comments and literals skipped, where GCC keeps no location of its
 * own for it: in the range of its expression, among the arguments of the
 * macro that holds it, in the initializer of a declaration. */
/* lib/ first: GCC's options.h defines warn_unused_result as a macro */
#include "buf.h"
#include "schedule.h"
#include <ksunset/record.h>

#include "gcc-plugin.h"
#include "tree.h"
#include "input.h"

#include <string.h>

#include "ksunset.h"

/* A window longer than this is not one expression worth reading. */
#define MAX_LINES 32

static bool ident_char(char c)
{
	return ISIDNUM(c) || c == '$';
}

/* Whether a token of a macro expansion came from one of the macro's
 * arguments: for those, libcpp keeps the token's location where the
 * argument is written apart from the parameter's in the definition; for a
 * token of the macro's body the two are the same. */
static bool from_argument(const line_map_macro *map, location_t loc, location_t *arg)
{
	unsigned i = loc - MAP_START_LOCATION(map);
	const location_t *locs = MACRO_MAP_LOCATIONS(map);

	if (i >= MACRO_MAP_NUM_MACRO_TOKENS(map) || locs[2 * i] == locs[2 * i + 1])
		return false;
	*arg = locs[2 * i];
	return true;
}

/* Follows loc out of macro expansions: a token that came from an argument
 * to where the argument is written, a token of a macro's body to the
 * macro's name at its expansion point (*macro is then set). */
static location_t unwind(location_t loc, bool *macro)
{
	loc = get_pure_location(loc);
	for (int depth = 0; depth < 256 && linemap_location_from_macro_expansion_p(line_table, loc);
	     depth++) {
		const line_map *m = linemap_lookup(line_table, loc);
		const line_map_macro *map;
		location_t arg;

		if (!m || !linemap_macro_expansion_map_p(m))
			break;
		map = linemap_check_macro(m);
		if (from_argument(map, loc, &arg)) {
			loc = get_pure_location(arg);
		} else {
			loc = MACRO_MAP_EXPANSION_POINT_LOCATION(map);
			*macro = true;
		}
	}
	return linemap_resolve_location(line_table, loc, LRK_MACRO_EXPANSION_POINT, NULL);
}

/* Whether line holds the identifier name at byte column col (1-based). */
static bool name_at(const char *file, int line, int col, const char *name)
{
	size_t n = strlen(name), i = (size_t)col - 1;
	char_span text = location_get_source_line(file, line);

	if (!text || col < 1 || i + n > text.length())
		return false;
	if (strncmp(text.get_buffer() + i, name, n))
		return false;
	if (i > 0 && ident_char(text[i - 1]))
		return false;
	return i + n == text.length() || !ident_char(text[i + n]);
}

/* The lexer state carried from one line to the next. */
enum lex_mode {
	LEX_ALL,	/* every token up to the end of the window */
	LEX_ARGS,	/* a macro invocation's parenthesised arguments, if any */
	LEX_INIT,	/* up to the ',' or ';' that ends a declarator */
};

struct lex {
	enum lex_mode mode;
	bool comment;	/* inside a block comment */
	int depth;	/* brackets open */
	bool done;
};

/* A token that is no identifier nor literal. */
static void punct(struct lex *lx, char c)
{
	if (lx->mode == LEX_ALL || ISSPACE(c))
		return;
	if (c == '(' || c == '[' || c == '{')
		lx->depth++;
	else if (lx->mode == LEX_ARGS && (!lx->depth || (c == ')' && !--lx->depth)))
		lx->done = true;
	else if (lx->mode == LEX_INIT && (c == ')' || c == ']' || c == '}'))
		lx->done = --lx->depth < 0;
	else if (lx->mode == LEX_INIT && !lx->depth && (c == ',' || c == ';'))
		lx->done = true;
}

/* The byte column (1-based) of the first identifier token name in text
 * from column from to column to (inclusive), outside comments and string
 * and character literals, or 0. */
static int find_in_line(struct lex *lx, char_span text, int from, int to, const char *name)
{
	size_t n = strlen(name), len = text.length();

	for (size_t i = (size_t)from - 1; i < len && (int)i < to && !lx->done;) {
		char c = text[i];

		if (lx->comment) {
			if (c == '*' && i + 1 < len && text[i + 1] == '/') {
				lx->comment = false;
				i++;
			}
			i++;
		} else if (c == '/' && i + 1 < len && text[i + 1] == '*') {
			lx->comment = true;
			i += 2;
		} else if (c == '/' && i + 1 < len && text[i + 1] == '/') {
			return 0;
		} else if (c == '"' || c == '\'' || ident_char(c)) {
			size_t j = i + 1;

			if (lx->mode == LEX_ARGS && !lx->depth)
				lx->done = true;
			if (!ident_char(c)) {
				for (; j < len && text[j] != c; j++)
					if (text[j] == '\\')
						j++;
				j++;
			} else {
				/* an identifier, or a number with its suffix */
				while (j < len &&
				       (ident_char(text[j]) || (ISDIGIT(c) && text[j] == '.')))
					j++;
				if (!lx->done && !ISDIGIT(c) && j - i == n &&
				    !strncmp(text.get_buffer() + i, name, n))
					return (int)i + 1;
			}
			i = j;
		} else {
			punct(lx, c);
			i++;
		}
	}
	return 0;
}

/* A location for file:line:col in the line map of near (the same file),
 * if the map has one. */
static location_t make_loc(location_t near, const char *file, int line, int col)
{
	const line_map_ordinary *map = linemap_check_ordinary(linemap_lookup(line_table, near));
	location_t loc;
	expanded_location x;

	if (!map || (linenum_type)line < ORDINARY_MAP_STARTING_LINE_NUMBER(map))
		return UNKNOWN_LOCATION;
	loc = linemap_position_for_line_and_column(line_table, map, line, col);
	if (loc > line_table->highest_location)
		return UNKNOWN_LOCATION;
	x = expand_location(loc);
	return x.line == line && x.column == col && x.file && !strcmp(x.file, file)
		       ? loc : UNKNOWN_LOCATION;
}

/* The name's token inside the source range of loc, in the module's own
 * code, or UNKNOWN_LOCATION; *in_macro: the range starts at a macro's name
 * (*start), the name may be in its body or its arguments. */
static location_t search_range(location_t loc, const char *name, bool *in_macro,
			       location_t *start)
{
	source_range r = get_range_from_loc(line_table, loc);
	bool unused = false;
	location_t finish = unwind(r.m_finish, &unused);
	expanded_location s, f = expand_location(finish);
	struct lex lx = { LEX_ALL, false, 0, false };

	*start = unwind(r.m_start, in_macro);
	s = expand_location(*start);
	if (!s.file || s.line < 1 || s.column < 1)
		return UNKNOWN_LOCATION;
	/* a range that ends in a macro or elsewhere: the first line only */
	if (!f.file || strcmp(f.file, s.file) || f.line < s.line ||
	    (f.line == s.line && f.column < s.column)) {
		f.line = s.line;
		f.column = INT_MAX;
	}
	if (f.line - s.line >= MAX_LINES)
		return UNKNOWN_LOCATION;
	for (int line = s.line; line <= f.line; line++) {
		char_span text = location_get_source_line(s.file, line);
		int col;

		if (!text)
			return UNKNOWN_LOCATION;
		col = find_in_line(&lx, text, line == s.line ? s.column : 1,
				   line == f.line ? f.column : INT_MAX, name);
		if (col)
			return make_loc(line == f.line ? finish : *start, s.file, line, col);
	}
	return UNKNOWN_LOCATION;
}

/* The name's token after the identifier at tok, up to where mode stops:
 * among the arguments of a macro invocation (time_after(jiffies, t),
 * pr_info("%lu", jiffies)), or in the initializer of a declaration
 * ('unsigned long now = jiffies;', whose statement has the location of
 * the declared name alone); else UNKNOWN_LOCATION. */
static location_t search_after(location_t tok, const char *name, enum lex_mode mode)
{
	expanded_location x = expand_location(tok);
	struct lex lx = { mode, false, 0, false };
	char_span text = location_get_source_line(x.file, x.line);
	size_t end = (size_t)x.column - 1;

	if (!text || x.column < 1)
		return UNKNOWN_LOCATION;
	while (end < text.length() && ident_char(text[end]))
		end++;
	for (int line = x.line, from = (int)end + 1; line < x.line + MAX_LINES && !lx.done;
	     line++, from = 1) {
		int col;

		text = location_get_source_line(x.file, line);
		if (!text)
			break;
		col = find_in_line(&lx, text, from, INT_MAX, name);
		if (col)
			return make_loc(tok, x.file, line, col);
	}
	return UNKNOWN_LOCATION;
}

/* The name written just before the punctuation at tok, on its line: GCC
 * gives a read through '->' or '.' (nforce2_smbus->algo) the location of
 * the operator, and an indexed call (pcim_iomap_table(pdev)[0]) that of
 * the '['. The identifier before it, past a bracketed group ("(pdev)"),
 * is the use if it is the name; else UNKNOWN_LOCATION. */
static location_t search_before(location_t tok, const char *name)
{
	expanded_location x = expand_location(tok);
	char_span text = location_get_source_line(x.file, x.line);
	size_t n = strlen(name), i, end;
	char c;

	if (!text || x.column < 2 || (size_t)x.column > text.length())
		return UNKNOWN_LOCATION;
	i = (size_t)x.column - 1;
	c = text[i];
	if (c != '-' && c != '.' && c != '[' && c != '(')
		return UNKNOWN_LOCATION;
	while (i > 0 && ISSPACE(text[i - 1]))
		i--;
	/* a call's or an index's brackets: back to the one that opens them */
	while (i > 0 && (text[i - 1] == ')' || text[i - 1] == ']')) {
		int depth = 0;

		do {
			c = text[--i];
			if (c == '"' || c == '\'' || (c == '/' && i > 0 && text[i - 1] == '*'))
				return UNKNOWN_LOCATION;
			if (c == ')' || c == ']')
				depth++;
			else if (c == '(' || c == '[')
				depth--;
		} while (depth > 0 && i > 0);
		if (depth)
			return UNKNOWN_LOCATION;
		while (i > 0 && ISSPACE(text[i - 1]))
			i--;
	}
	end = i;
	while (i > 0 && ident_char(text[i - 1]))
		i--;
	if (end - i != n || strncmp(text.get_buffer() + i, name, n) || ISDIGIT(text[i]))
		return UNKNOWN_LOCATION;
	return make_loc(tok, x.file, x.line, (int)i + 1);
}

location_t ks_token_locate(location_t loc, const char *name, enum ks_token_how how, bool *own)
{
	bool macro = false;
	location_t tok = unwind(loc, &macro), found = UNKNOWN_LOCATION, start;
	expanded_location x = expand_location(tok);

	*own = false;
	if (tok <= BUILTINS_LOCATION || !x.file || !*name)
		return tok;
	if (name_at(x.file, x.line, x.column, name)) {
		*own = true;
		return tok;
	}
	/* a wrapper's name: the token the use is written as */
	if (how == KS_TOKEN_AT)
		return tok;
	if (!macro) {
		found = search_range(loc, name, &macro, &start);
		if (found == UNKNOWN_LOCATION && macro)
			tok = start;
	}
	if (found == UNKNOWN_LOCATION && !macro)
		found = search_before(tok, name);
	/* An operand's use, unlike a call's (whose location is the callee's
	 * token, which a macro's body holds when it is not an argument), may
	 * be among a macro's arguments, or in a declaration's initializer. */
	if (found == UNKNOWN_LOCATION && how == KS_TOKEN_ARGS)
		found = search_after(tok, name, macro ? LEX_ARGS : LEX_INIT);
	if (found == UNKNOWN_LOCATION)
		return tok;
	*own = true;
	return found;
}
