/* Comparing two Module.symvers: every export looked up in the other file,
 * one change per aspect (presence, GPL-only, namespace, owner). */
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "input/symdiff.h"
#include "module/namespace.h"

static const char *const names[KS_CHANGE_NKINDS] = {
	[KS_CHANGE_REMOVED] = "removed",
	[KS_CHANGE_ADDED] = "added",
	[KS_CHANGE_GPL_ONLY] = "gpl-only",
	[KS_CHANGE_NO_LONGER_GPL_ONLY] = "no-longer-gpl-only",
	[KS_CHANGE_NAMESPACE] = "namespace",
	[KS_CHANGE_OWNER] = "owner",
};

const char *ks_change_name(enum ks_change_kind k)
{
	return k < KS_CHANGE_NKINDS ? names[k] : "?";
}

static void add(struct ks_changes *c, const char *sym, enum ks_change_kind k,
		const struct ks_export *old, const struct ks_export *new)
{
	ks_array_room((void **)&c->v, &c->cap, c->n + 1, sizeof(*c->v));
	c->v[c->n++] = (struct ks_change){ sym, k, old, new };
	c->count[k]++;
}

/* The aspects in which one export differs between the two kernels. */
static void compare(struct ks_changes *c, const struct ks_export *o, const struct ks_export *n)
{
	if (o->gpl != n->gpl)
		add(c, o->symbol, n->gpl ? KS_CHANGE_GPL_ONLY : KS_CHANGE_NO_LONGER_GPL_ONLY, o, n);
	if (strcmp(o->ns, n->ns) != 0)
		add(c, o->symbol, KS_CHANGE_NAMESPACE, o, n);
	if (strcmp(o->module, n->module) != 0)
		add(c, o->symbol, KS_CHANGE_OWNER, o, n);
}

static int by_symbol(const void *a, const void *b)
{
	const struct ks_change *x = a, *y = b;
	int c = strcmp(x->symbol, y->symbol);

	return c ? c : (int)x->kind - (int)y->kind;
}

void ks_symvers_diff(const struct ks_symvers *old, const struct ks_symvers *new,
		     struct ks_changes *out)
{
	for (size_t i = 0; i < old->n; i++) {
		const struct ks_export *o = old->v[i], *n = ks_symvers_lookup(new, o->symbol);

		if (n)
			compare(out, o, n);
		else
			add(out, o->symbol, KS_CHANGE_REMOVED, o, NULL);
	}
	for (size_t i = 0; i < new->n; i++)
		if (!ks_symvers_lookup(old, new->v[i]->symbol))
			add(out, new->v[i]->symbol, KS_CHANGE_ADDED, NULL, new->v[i]);
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), by_symbol);
}

bool ks_change_is_removal(const struct ks_change *c)
{
	return c->kind == KS_CHANGE_NAMESPACE && ks_ns_is_module_list(c->new->ns) &&
	       !ks_ns_is_module_list(c->old->ns);
}

bool ks_change_breaks(const struct ks_change *c)
{
	switch (c->kind) {
	case KS_CHANGE_REMOVED:
	case KS_CHANGE_GPL_ONLY:
		return true;
	case KS_CHANGE_NAMESPACE:
		return c->new->ns[0] != '\0';
	default:
		return false;
	}
}

void ks_changes_free(struct ks_changes *c)
{
	free(c->v);
	memset(c, 0, sizeof(*c));
}
