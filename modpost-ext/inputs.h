/* Turning MODULE arguments (files, directories, modules.order lists) into
 * the list of module files to read. */
#ifndef KS_INPUTS_H
#define KS_INPUTS_H

#include <stddef.h>

#include "compiler.h"
#include "diag.h"

struct ks_inputs {
	char **paths;
	size_t n, cap;
};

/* Adds what arg names: a directory is searched recursively for *.ko,
 * *.ko.xz, *.ko.zst and *.ko.gz (sorted, symlinks not followed); a file
 * named modules.order lists modules relative to its folder; anything else
 * is a module file. A path that cannot be used is a diagnostic and
 * -errno; the others are still added. */
int ks_inputs_add(struct ks_inputs *in, const char *arg, struct ks_diags *d) KS_MUST_CHECK;
void ks_inputs_free(struct ks_inputs *in);

#endif
