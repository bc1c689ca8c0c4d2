/* Where a module uses an import: the checker's own record of a use, the
 * same whichever source located it (the plugin's records, the module's
 * DWARF). Adding a source: doc/HACKING.md. */
#ifndef KS_USE_H
#define KS_USE_H

#include <stdbool.h>
#include <stddef.h>

#include <ksunset/record.h>

#include "compiler.h"

/* Where a location came from; JSON and SARIF name it. */
enum ks_use_source {
	KS_SOURCE_PLUGIN,	/* .note.ksunset records written at compile time */
	KS_SOURCE_DWARF,	/* the module's DWARF (dwarf/dwarf.c and its rooms) */
};

struct ks_use {
	char *symbol;		/* the import, as the symbol table names it */
	enum ks_use_kind kind;	/* call, address taken, data */
	char *file;
	unsigned line;
	unsigned col;		/* 0: unknown */
	char *function;		/* as written in the source; "" at file scope */
	enum ks_use_source source;
	char *var;		/* DWARF, in data: the variable initialized; else NULL */
	char *member;		/* and the member there (".llseek"), or "" */
	char *accept_reason;	/* KSUNSET_ACCEPT's in the source; NULL: none */
	unsigned call_line;	/* check --target's forecast: a site at an argument's
				   line, the line of its call; 0: none */
	char *note;		/* check --target's forecast: the compiler's message
				   where the use breaks; NULL: none */
	char *written_as;	/* DWARF: the kernel's inline function the source
				   calls here, which made the call of the import;
				   NULL: none (the import's own name, a macro's) */
};

/* A module's uses, in the order their sources gave them. */
struct ks_uses {
	struct ks_use *v;
	size_t n, cap;
};

/* --locations and the options of the sources (cmd/locate.h). */
struct ks_locate_opts {
	bool only;		   /* --locations named one source: the others' uses are left out */
	enum ks_use_source source; /* that one */
	const char *debug_dir;	   /* DWARF: separate debug files; NULL: /usr/lib/debug */
	bool libdw;		   /* DWARF: KSUNSET_DWARF_READER=libdw, libdwfl and libdw only */
};

/* A source that reads the module again: adds a use (ks_uses_add()) to
 * m->uses for every place in m that uses one of syms (sorted, as
 * strcmp). 0, or -ENOENT when m has nothing for it to read (it
 * sets what the report says of that); other problems are a note in d and
 * 0. */
struct ks_module;
struct ks_diags;
typedef int (*ks_locate_fn)(struct ks_module *m, char *const *syms, size_t nsyms,
			    const struct ks_locate_opts *o, struct ks_diags *d);

const char *ks_use_source_name(enum ks_use_source s);
/* Takes u's strings (u is left empty). */
void ks_uses_add(struct ks_uses *uses, struct ks_use *u);
void ks_use_free(struct ks_use *u);
void ks_uses_free(struct ks_uses *uses);

#endif
