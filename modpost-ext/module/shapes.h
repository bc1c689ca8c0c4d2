/* What a module's own code depends on in the kernel's headers: the
 * plugin's include and shape records (argument api), kept per
 * translation unit for check --target's probe of another kernel
 * (forecast/). */
#ifndef KS_SHAPES_H
#define KS_SHAPES_H

#include <stddef.h>

#include <ksunset/record.h>

#include "compiler.h"

struct ks_unit {
	char *source;			/* the unit record's source file */
	struct ks_record_include *includes; /* in the order they were read */
	size_t nincludes, capincludes;
	struct ks_record_shape *shapes;	/* sorted by place */
	size_t nshapes, capshapes;
	struct ks_record_guard *guards;	/* branches of its #if holding them */
	size_t nguards, capguards;
	bool shaped;			/* built with api= (a shaped record) */
};

struct ks_units {
	struct ks_unit *v;
	size_t n, cap;
	size_t nshaped;			/* units with any include or shape record */
};

/* A new unit, taking source. */
void ks_units_begin(struct ks_units *u, char *source);
/* Records of the last unit, taking their strings (the record is left
 * empty). 0 or -EINVAL (no unit yet). */
int ks_units_add_include(struct ks_units *u, struct ks_record_include *inc) KS_MUST_CHECK;
int ks_units_add_shape(struct ks_units *u, struct ks_record_shape *sh) KS_MUST_CHECK;
/* The unit's shaped record: built with api=. 0, or -EINVAL before any unit. */
int ks_units_shaped(struct ks_units *u) KS_MUST_CHECK;
int ks_units_add_guard(struct ks_units *u, struct ks_record_guard *g) KS_MUST_CHECK;
/* The guard of the innermost branch of un's that holds line of file;
 * NULL: none. */
const struct ks_record_guard *ks_unit_guard(const struct ks_unit *un, const char *file,
					    unsigned line);
/* A deep copy of from into to (empty). */
void ks_units_copy(struct ks_units *to, const struct ks_units *from);
void ks_units_free(struct ks_units *u);

#endif
