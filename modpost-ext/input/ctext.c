/* C on one line as the preprocessor and the compiler read it: names
 * whole, string and character literals and comments skipped, a call's
 * arguments split at its own commas. */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "input/ctext.h"

bool ks_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

size_t ks_skip_literal(const char *s, size_t len, size_t i)
{
	if (s[i] == '"' || s[i] == '\'') {
		char q = s[i];

		for (i++; i < len && s[i] != q; i++)
			i += s[i] == '\\';
		return i < len ? i + 1 : len;
	}
	if (i + 1 < len && s[i] == '/' && s[i + 1] == '/')
		return len;
	if (i + 1 < len && s[i] == '/' && s[i + 1] == '*') {
		for (i += 2; i + 1 < len; i++)
			if (s[i] == '*' && s[i + 1] == '/')
				return i + 2;
		return len;
	}
	return i;
}

/* The arguments of the call whose '(' is s[open]; false when its ')' is
 * not on the line. */
static bool arguments(const char *s, size_t len, struct ks_call *c)
{
	unsigned depth = 0;
	size_t start = c->open + 1;

	c->n = 0;
	for (size_t i = c->open + 1; i < len;) {
		size_t j = ks_skip_literal(s, len, i);

		if (j != i) {
			i = j;
			continue;
		}
		if (s[i] == '(' || s[i] == '[' || s[i] == '{') {
			depth++;
		} else if ((s[i] == ',' && !depth) || ((s[i] == ')' && !depth))) {
			size_t a = start, b = i;

			while (a < b && (s[a] == ' ' || s[a] == '\t'))
				a++;
			while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t'))
				b--;
			if (c->n == KS_CALL_MAX_ARGS)
				return false;
			/* "()" has no argument */
			if (a < b || s[i] == ',' || c->n) {
				c->a[c->n] = a;
				c->b[c->n++] = b;
			}
			if (s[i] == ')') {
				c->close = i;
				return true;
			}
			start = i + 1;
		} else if (s[i] == ')' || s[i] == ']' || s[i] == '}') {
			depth--;
		}
		i++;
	}
	return false;
}

size_t ks_find_name(const char *s, size_t len, const char *name, size_t from)
{
	size_t n = strlen(name);

	for (size_t i = from; i < len;) {
		size_t j = ks_skip_literal(s, len, i);

		if (j != i) {
			i = j;
			continue;
		}
		if (i + n <= len && !memcmp(s + i, name, n) && (!i || !ks_ident_char(s[i - 1])) &&
		    (i + n == len || !ks_ident_char(s[i + n])))
			return i;
		i++;
	}
	return len;
}

bool ks_member_at(const char *s, size_t i)
{
	while (i && (s[i - 1] == ' ' || s[i - 1] == '\t'))
		i--;
	return i && (s[i - 1] == '.' || (i >= 2 && s[i - 1] == '>' && s[i - 2] == '-'));
}

size_t ks_find_member(const char *s, size_t len, const char *member, size_t from)
{
	size_t n = strlen(member);

	for (size_t i = ks_find_name(s, len, member, from); i < len;
	     i = ks_find_name(s, len, member, i + n))
		if (ks_member_at(s, i))
			return i;
	return len;
}

size_t ks_past_field(const char *s, size_t len, size_t a, size_t *field)
{
	size_t k;

	if (a >= len || s[a] != '.')
		return a;
	for (*field = a + 1; *field < len && (s[*field] == ' ' || s[*field] == '\t'); (*field)++)
		;
	for (k = *field; k < len && ks_ident_char(s[k]); k++)
		;
	return k > *field ? k : a;
}

bool ks_find_call(const char *s, size_t len, const char *name, struct ks_call *c)
{
	size_t n = strlen(name);

	for (size_t i = ks_find_name(s, len, name, 0), k; i < len;
	     i = ks_find_name(s, len, name, i + n)) {
		for (k = i + n; k < len && (s[k] == ' ' || s[k] == '\t'); k++)
			;
		c->name = i;
		c->open = k;
		if (k < len && s[k] == '(' && arguments(s, len, c))
			return true;
	}
	return false;
}
