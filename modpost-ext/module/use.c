/* The checker's uses: what every location source hands in. */
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "module/use.h"

const char *ks_use_source_name(enum ks_use_source s)
{
	switch (s) {
	case KS_SOURCE_PLUGIN:
		break;
	case KS_SOURCE_DWARF:
		return "dwarf";
	}
	return "plugin";
}

void ks_uses_add(struct ks_uses *uses, struct ks_use *u)
{
	ks_array_room((void **)&uses->v, &uses->cap, uses->n + 1, sizeof(*uses->v));
	uses->v[uses->n++] = *u;
	memset(u, 0, sizeof(*u));
}

void ks_use_free(struct ks_use *u)
{
	free(u->symbol);
	free(u->file);
	free(u->function);
	free(u->var);
	free(u->member);
	free(u->accept_reason);
	free(u->note);
	free(u->written_as);
	memset(u, 0, sizeof(*u));
}

void ks_uses_free(struct ks_uses *uses)
{
	for (size_t i = 0; i < uses->n; i++)
		ks_use_free(&uses->v[i]);
	free(uses->v);
	uses->v = NULL;
	uses->n = uses->cap = 0;
}
