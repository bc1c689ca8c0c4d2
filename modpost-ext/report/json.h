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
/* "locations": [{"file": ..., "line": ..., "column": ..., "function": ..., "kind": ...,
 * "source": ...}], each with "baselined": true|false too if baselined is true. */
void ks_json_locations(FILE *out, const struct ks_loc *locs, size_t n, bool baselined);
/* "  \"input_errors\": [...]\n": each diagnostic as its formatted line. */
void ks_json_problems(FILE *out, const struct ks_diags *d);

#endif
