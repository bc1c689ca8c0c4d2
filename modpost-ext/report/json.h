/* JSON strings, as every JSON and SARIF document of ksunset escapes them
 * (the documents themselves are report.h's). */
#ifndef KS_JSON_H
#define KS_JSON_H

#include <stdio.h>

/* A JSON string, or null for NULL. */
void ks_json_str(FILE *out, const char *s);
/* The same as a string of its own. */
char *ks_json_quote(const char *s);

#endif
