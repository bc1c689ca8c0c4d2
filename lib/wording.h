/* How ksunset words a schedule entry: the one set of phrases that the
 * plugin's compile-time warnings and the checker's reports share, so the
 * same entry reads the same way in both. */
#ifndef KS_WORDING_H
#define KS_WORDING_H

#include <stdbool.h>

#include "buf.h"
#include "compiler.h"
#include "schedule.h"

KS_BEGIN_DECLS

/* Each function appends to b. */

/* "on 2027-09-01" or "in Linux 6.20". */
void ks_say_when(struct ks_buf *b, const struct ks_when *w);
/* What the entry does, as a predicate for the symbol's name: "is scheduled
 * for removal on 2027-09-01", "will become GPL-only in Linux 6.20", "will
 * move to namespace NS on 2027-09-01"; past (the deadline has passed): "was
 * due for removal ...", "was due to become GPL-only ...", "was due to move
 * to namespace NS ...". */
void ks_say_action(struct ks_buf *b, const struct ks_entry *e, bool past);
/* " (in 3 days)", " (in 1 day)", " (today)", " (overdue by 1 day)"; nothing
 * when ev has no days (a release, not a date). */
void ks_say_days(struct ks_buf *b, const struct ks_when_eval *ev);

/* For ks_say_advice when no module is known yet (the plugin, at compile
 * time); compared by address, not by text. */
extern const char ks_license_unknown[];

/* What to do, each part after "; ": for gpl-only, whom it concerns: "module
 * license 'X' is not GPL-compatible" (license NULL: the module declares
 * none, "'(none)'"), or with ks_license_unknown "only modules whose license
 * is not GPL-compatible are concerned"; for a namespace, "add
 * MODULE_IMPORT_NS(NS)"; then what ks_say_replace says. */
void ks_say_advice(struct ks_buf *b, const struct ks_entry *e, const char *license);
/* The replacement alone (for an export that is already gone, the action's
 * advice no longer applies): "; use 'sym' instead" for a symbol, else
 * "; " and the schedule's sentence as written; nothing without one. */
void ks_say_replace(struct ks_buf *b, const struct ks_entry *e);
/* The short form for the end of a location line, in the action's own
 * words: "removal on 2027-09-01", "GPL-only from 2027-09-01", "namespace NS
 * from Linux 6.20"; past (the deadline has passed): "removed on ...",
 * "GPL-only since ...", "namespace NS since ...". */
void ks_say_tag(struct ks_buf *b, const struct ks_entry *e, bool past);

KS_END_DECLS

#endif
