/* Turning MODULE arguments (files, directories, modules.order lists) into
 * the module files to read, one at a time: reading can start with the
 * first, and memory does not grow with the number of modules. */
#ifndef KS_INPUTS_H
#define KS_INPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compiler.h"
#include "diag.h"

struct ks_dir_frame;

struct ks_inputs {
	char *const *args;
	size_t nargs, arg;		/* the next argument to expand */
	struct ks_dir_frame *dirs;	/* the directories being searched, outermost first */
	size_t depth, cap;
	FILE *order;			/* the modules.order being read */
	char *order_dir;		/* its folder: entries are relative to it */
	char *line;
	size_t line_cap;
	size_t found;			/* modules the current argument gave */
	bool arg_open;			/* an argument is being expanded */
	bool arg_failed;		/* and a problem with it was reported */
	bool allow_empty;		/* a folder or list without modules is fine */
	bool unusable;			/* some argument or entry could not be used */
};

/* Starts the expansion of args, which must outlive in. */
void ks_inputs_init(struct ks_inputs *in, char *const *args, size_t nargs);

/* Hands out the next module path (the caller frees it): true, or false at
 * the end. What each argument names: a directory is searched
 * recursively for *.ko, *.ko.xz, *.ko.zst and *.ko.gz, in the order of
 * their sorted paths, symlinks not followed; a file named modules.order
 * lists modules relative to its folder; anything else is a module file.
 * A directory or list that cannot be read is a diagnostic in d and sets
 * in->unusable; the expansion goes on. So is one that gives no module
 * ("DIR: error: no module found": a gate that checked nothing must not
 * pass), unless in->allow_empty. */
bool ks_inputs_next(struct ks_inputs *in, char **path, struct ks_diags *d);
void ks_inputs_free(struct ks_inputs *in);

#endif
