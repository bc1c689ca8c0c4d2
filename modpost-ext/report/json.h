/* The pieces of JSON output that every subcommand's --format json shares:
 * string escaping, source locations and the list of unusable inputs. */
#ifndef KS_JSON_H
#define KS_JSON_H

#include <stdbool.h>
#include <stdio.h>

#include "rules/rules.h"
#include "diag.h"

/* A JSON string, or null for NULL. */
void ks_json_str(FILE *out, const char *s);
/* The same as a string of its own; NULL: no memory. */
char *ks_json_quote(const char *s);
/* "locations": [{"file": ..., "line": ..., "column": ..., "function": ..., "kind": ...,
 * "source": ...}] of f's uses, each with "baselined": true|false, "accepted":
 * true|false (baselined, or accepted in the source) and "reason" (of
 * KSUNSET_ACCEPT in the source, or null) too if accepts is true. */
void ks_json_locations(FILE *out, const struct ks_finding *f, bool accepts);
/* "  \"input_errors\": [...]\n": each diagnostic as its formatted line. */
void ks_json_problems(FILE *out, const struct ks_diags *d);

#endif
