/* The module loop that unused, users and lint --modules share: expand the
 * arguments, then read, use and free one module after the other. */
#include <errno.h>

#include "inputs.h"
#include "scan.h"

static int expand(struct ks_scan *sc, struct ks_inputs *in, char *const *args, size_t nargs,
		  struct ks_diags *d)
{
	for (size_t i = 0; i < nargs; i++) {
		int e = ks_inputs_add(in, args[i], d);

		if (e == -ENOMEM)
			return e;
		sc->unusable |= e < 0;
	}
	return 0;
}

int ks_scan_modules(struct ks_scan *sc, char *const *args, size_t nargs, ks_scan_fn fn,
		    void *ctx, struct ks_diags *d)
{
	struct ks_inputs in = { 0 };
	int e = expand(sc, &in, args, nargs, d);

	for (size_t i = 0; !e && i < in.n; i++) {
		struct ks_module m;

		e = ks_module_load(&m, in.paths[i], d);
		if (e < 0) {
			sc->unusable = true;
			e = e == -ENOMEM ? e : 0;
			continue;
		}
		sc->modules++;
		sc->unusable |= m.bad_records;
		e = fn(ctx, &m);
		ks_module_free(&m);
	}
	ks_inputs_free(&in);
	return e;
}
