/* Two kernels' exports compared: what `ksunset diff` lists and writes as
 * schedule entries. */
#ifndef KS_SYMDIFF_H
#define KS_SYMDIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler.h"
#include "input/symvers.h"

enum ks_change_kind {
	KS_CHANGE_REMOVED,
	KS_CHANGE_ADDED,
	KS_CHANGE_GPL_ONLY,		/* EXPORT_SYMBOL -> EXPORT_SYMBOL_GPL */
	KS_CHANGE_NO_LONGER_GPL_ONLY,
	KS_CHANGE_NAMESPACE,		/* into, out of or between namespaces */
	KS_CHANGE_OWNER,		/* exported by another module or vmlinux */
	KS_CHANGE_NKINDS,
};

/* One aspect of one export that changed; a symbol whose type and
 * namespace both changed has two. */
struct ks_change {
	const char *symbol;
	enum ks_change_kind kind;
	const struct ks_export *old, *new;	/* NULL: not exported there */
};

struct ks_changes {
	struct ks_change *v;
	size_t n, cap;
	size_t count[KS_CHANGE_NKINDS];
};

/* Compares old with new; changes sorted by symbol, then kind. */
void ks_symvers_diff(const struct ks_symvers *old, const struct ks_symvers *new,
		     struct ks_changes *out);
/* "removed", "added", "gpl-only", "no-longer-gpl-only", "namespace", "owner" */
const char *ks_change_name(enum ks_change_kind k);
/* Whether a module built outside the kernel tree that uses the old export
 * may fail to load on the new kernel: removed, turned GPL-only, moved into
 * (or between) namespaces. */
bool ks_change_breaks(const struct ks_change *c);
/* The change is a move into a "module:" list: for every other module, a
 * removal. */
bool ks_change_is_removal(const struct ks_change *c);
void ks_changes_free(struct ks_changes *c);

#endif
