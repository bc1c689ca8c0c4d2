/* C on one line as the preprocessor and the compiler read it: where a
 * name stands whole, and a call's arguments, outside literals and
 * comments. Shared by the migrations' reading of a module's lines and by
 * their rewriting. */
#ifndef KS_CTEXT_H
#define KS_CTEXT_H

#include <stdbool.h>
#include <stddef.h>

#define KS_CALL_MAX_ARGS 64

/* A call on a line: where its name starts, its '(' and ')', and where
 * each argument starts and ends, blanks around it left out. */
struct ks_call {
	size_t name, open, close;
	size_t a[KS_CALL_MAX_ARGS], b[KS_CALL_MAX_ARGS];
	unsigned n;
};

/* A letter, a digit or '_'. */
bool ks_ident_char(char c);
/* Past the string or character literal, or comment, that starts at s[i];
 * i itself when none starts there; len when it runs past the line. */
size_t ks_skip_literal(const char *s, size_t len, size_t i);
/* Where name stands whole on the line at or after byte from, outside
 * strings and comments; len when nowhere. */
size_t ks_find_name(const char *s, size_t len, const char *name, size_t from);
/* Whether the name at s[i] is accessed as a member, after '.' or '->'
 * (blanks between). */
bool ks_member_at(const char *s, size_t i);
/* Where member stands whole on the line at or after byte from as a
 * member accessed, after '.' or '->' (blanks between); len when nowhere. */
size_t ks_find_member(const char *s, size_t len, const char *member, size_t from);
/* Past ".FIELD" at s[a] (blanks after the '.'), *field where FIELD
 * starts; a itself when none is there. */
size_t ks_past_field(const char *s, size_t len, size_t a, size_t *field);
/* The first call of name on the line whose arguments are all there. */
bool ks_find_call(const char *s, size_t len, const char *name, struct ks_call *c);

#endif
