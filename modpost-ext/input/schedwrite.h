/* Writing to a schedule: the text of a new entry and how it joins the
 * existing text (lib/file.h replaces the file). Used by `ksunset mark`. */
#ifndef KS_SCHEDWRITE_H
#define KS_SCHEDWRITE_H

#include <stddef.h>

#include "buf.h"
#include "compiler.h"

struct ks_new_entry {
	char *const *syms;
	size_t nsyms;
	const char *when;	/* as the schedule writes it: "2027-12-03", "6.14" */
	const char *action;	/* "unexport", "gpl-only", "namespace NS" */
	const char *replace;	/* NULL or "": none; likewise why and who */
	const char *why;
	const char *who;
	const char *since;	/* "YYYY-MM-DD" */
};

/* Appends the entry, one "Field:   value" line per field, in the order
 * ksunset.schedule(5) shows. A value's further lines become indented
 * continuation lines; its blank lines are dropped, since a blank line ends
 * an entry. */
void ks_entry_format(struct ks_buf *out, const struct ks_new_entry *e);
/* What must come between the existing text and a new entry so that the
 * entry follows a blank line: "", "\n" or "\n\n" (none for empty text). */
const char *ks_entry_separator(const char *text, size_t len);
/* The line ending text uses, judged by its first line: "\r\n" or "\n" (the
 * default, for empty text or a single unterminated line). */
const char *ks_text_eol(const char *text, size_t len);
/* Appends n bytes of s with each "\n" written as eol. */
void ks_buf_add_eol(struct ks_buf *b, const char *s, size_t n, const char *eol);

#endif
