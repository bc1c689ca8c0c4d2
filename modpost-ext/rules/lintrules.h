/* What `ksunset lint` asks of a schedule entry beyond what the parser
 * requires, given what is known: the kernel's exports, today, the modules
 * that still use it. `mark` applies the same rules to the entry it writes. */
#ifndef KS_LINTRULES_H
#define KS_LINTRULES_H

#include <stddef.h>
#include <stdint.h>

#include "compiler.h"
#include "diag.h"
#include "schedule.h"
#include "strmap.h"
#include "input/symvers.h"

struct ks_lint {
	const struct ks_symvers *symvers;	/* NULL: no -i, rules needing it skip */
	int32_t today;
	const struct ks_release *target;	/* NULL: release-dated entries not due */
	const struct ks_strmap *users;	/* symbol -> concerned modules (uintptr_t);
					   NULL: no --modules */
	size_t modules;			/* how many modules users counts over */
};

/* Adds every rule's finding for e to d as "FILE:LINE: SEVERITY: ...". */
void ks_lint_entry(const struct ks_lint *l, const struct ks_entry *e, struct ks_diags *d);

#endif
