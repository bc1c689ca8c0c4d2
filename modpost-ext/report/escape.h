/* Output no input can break (escape.c): the standard streams filtered,
 * and the UTF-8 judgement the JSON writer shares. */
#ifndef KS_ESCAPE_H
#define KS_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler.h"

/* The length of the UTF-8 sequence that starts p (n bytes there): 1 for
 * ASCII, 2 to 4 for a valid sequence of a character other than a C1
 * control; 0 when it is none (a stray continuation byte, an overlong
 * form, a surrogate, beyond U+10FFFF, a C1 control); -1 when n cuts it
 * short. */
int ks_utf8_len(const unsigned char *p, size_t n);
/* Whether ASCII byte c is written as it is: printable, newline, tab. */
bool ks_text_plain(unsigned char c);
/* Makes stdout and stderr write every byte that is neither printable
 * ASCII, a newline, a tab nor part of valid UTF-8 (C1 controls excepted)
 * as \xHH. 0 or a negative errno. */
int ks_escape_streams(void) KS_MUST_CHECK;

#endif
