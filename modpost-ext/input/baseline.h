/* Baselines: findings accepted once, so that CI fails on new uses only.
 * A use is keyed by module, symbol, file and function, not by line, so
 * unrelated edits do not invalidate the baseline. */
#ifndef KS_BASELINE_H
#define KS_BASELINE_H

#include "rules/rules.h"
#include "strmap.h"

struct ks_baseline {
	struct ks_strmap keys;
	char **lines;
	size_t n;
	const char *source_root;	/* file names are made relative to it */
};

int ks_baseline_load(struct ks_baseline *b, const char *path, struct ks_diags *d) KS_MUST_CHECK;
/* Marks the accepted uses; a finding whose uses all are (or, without a
 * location, whose key is) is marked baselined. */
int ks_baseline_apply(const struct ks_baseline *b, struct ks_findings *f) KS_MUST_CHECK;
/* The keys of findings, gathered module by module for --write-baseline. */
struct ks_baseline_keys {
	char **v;
	size_t n, cap;
	const char *source_root;
};

int ks_baseline_keys_add(struct ks_baseline_keys *k, const struct ks_findings *f) KS_MUST_CHECK;
/* Writes the keys, sorted and unique, atomically (temporary file + rename). */
int ks_baseline_keys_write(struct ks_baseline_keys *k, const char *path,
			   struct ks_diags *d) KS_MUST_CHECK;
void ks_baseline_keys_free(struct ks_baseline_keys *k);
/* The keys of f, written to path. */
int ks_baseline_write(const char *path, const char *source_root, const struct ks_findings *f,
		      struct ks_diags *d) KS_MUST_CHECK;
void ks_baseline_free(struct ks_baseline *b);

#endif
