/* Export changes written as schedule entries (`ksunset diff
 * --schedule-out`), keyed by the new kernel's release, so the
 * release-keyed checks apply them to any module. */
#ifndef KS_DIFFSCHED_H
#define KS_DIFFSCHED_H

#include "buf.h"
#include "compiler.h"
#include "input/symdiff.h"

struct ks_diff_releases {
	const char *old, *new;	/* as uname -r prints them; old may be NULL */
};

/* The schedule's When for changes that happened by release rel.new: "7.3"
 * when the two differ in major or minor, else "6.1.192". Returns 0, or
 * -EINVAL with *why set when rel.new is no release or does not come after
 * rel.old (a schedule could not tell the two apart). */
int ks_diff_when(const struct ks_diff_releases *rel, char *out, size_t size,
		 const char **why) KS_MUST_CHECK;
/* Appends the entries: one per action (and namespace, and "module:" list),
 * its symbols sorted. Each symbol gets one entry, the first of: removed or
 * moved into a "module:" list (unexport), moved into a namespace
 * (namespace NS), turned GPL-only (gpl-only). Changes that break nothing
 * are left out. */
void ks_diff_schedule(struct ks_buf *out, const struct ks_changes *c, const char *when,
		      const struct ks_diff_releases *rel);

#endif
