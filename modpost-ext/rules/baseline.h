/* Baselines: findings accepted once, so that CI fails on new uses only.
 * A use is keyed by module, symbol, file and function, not by line, so
 * unrelated edits do not invalidate the baseline. An entry also records
 * the use's status, and accepts the use only while it keeps that status:
 * a use that became due soon, overdue or removed is reported again. */
#ifndef KS_BASELINE_H
#define KS_BASELINE_H

#include "rules/rules.h"
#include "strmap.h"

/* A module the baseline has entries for, and whether this run checked it:
 * only then can its entries be stale. */
struct ks_baseline_module {
	char *name;
	bool checked;
};

struct ks_baseline_entry {
	char *key;		/* MODULE, SYMBOL, FILE, FUNCTION; TAB-separated */
	const char *status;	/* the use's when written: a rule's status */
	unsigned line;		/* in the file */
	struct ks_baseline_module *module;
	bool matched;		/* a use of this run has the key, in any status */
};

struct ks_baseline {
	const char *path;
	struct ks_strmap keys;		/* key -> entry */
	struct ks_strmap modules;	/* name -> struct ks_baseline_module */
	struct ks_baseline_entry **v;	/* in the file's order */
	size_t n;
	const char *source_root;	/* keys' files relative to it; NULL: the module's folder */
};

/* Reads a baseline of version 2, or of version 1 (no status: its entries
 * accept scheduled uses); path must outlive b. A bad line is an error in
 * d: -EINVAL. */
int ks_baseline_load(struct ks_baseline *b, const char *path, struct ks_diags *d) KS_MUST_CHECK;
/* Takes module's findings (every one, or its entries may look stale):
 * marks the accepted uses, and a finding whose uses all are (or, without
 * a location, whose key is) baselined. */
void ks_baseline_apply(struct ks_baseline *b, const char *module, struct ks_findings *f);
/* After the check: a note in d for each stale entry, one of a module that
 * was checked whose key no use had. */
void ks_baseline_report_stale(const struct ks_baseline *b, struct ks_diags *d);
/* Rewrites the baseline without its stale entries, atomically. */
int ks_baseline_prune(const struct ks_baseline *b, struct ks_diags *d) KS_MUST_CHECK;
/* The entries for findings (those a baseline may accept), gathered module
 * by module for --write-baseline. */
struct ks_baseline_keys {
	char **v;			/* "KEY<TAB>STATUS" lines */
	size_t n, cap;
	const char *source_root;	/* as in struct ks_baseline */
};

void ks_baseline_keys_add(struct ks_baseline_keys *k, const struct ks_findings *f);
/* Writes the entries, sorted and unique, atomically (ks_file_replace()):
 * path may be the baseline that was read. */
int ks_baseline_keys_write(struct ks_baseline_keys *k, const char *path,
			   struct ks_diags *d) KS_MUST_CHECK;
void ks_baseline_keys_free(struct ks_baseline_keys *k);
/* The entries for f, written to path. */
int ks_baseline_write(const char *path, const char *source_root, const struct ks_findings *f,
		      struct ks_diags *d) KS_MUST_CHECK;
void ks_baseline_free(struct ks_baseline *b);

#endif
