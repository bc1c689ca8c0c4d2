/* The removal schedule: parsing ksunset.schedule files (format in
 * ksunset.schedule(5)), looking symbols up, and the status of a use. */
#ifndef KS_SCHEDULE_H
#define KS_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler.h"
#include "date.h"
#include "diag.h"
#include "strmap.h"

KS_BEGIN_DECLS

enum ks_action {
	KS_ACTION_UNEXPORT,	/* the export goes away */
	KS_ACTION_GPL_ONLY,	/* becomes EXPORT_SYMBOL_GPL */
	KS_ACTION_NAMESPACE,	/* moves into a symbol namespace */
};

enum ks_when_kind {
	KS_WHEN_DATE,
	KS_WHEN_RELEASE,
};

struct ks_when {
	enum ks_when_kind kind;
	int32_t date;			/* KS_WHEN_DATE: days since 1970-01-01 */
	struct ks_release rel;		/* KS_WHEN_RELEASE */
	char text[24];			/* normalised: "2027-09-01" or "6.14" */
};

struct ks_entry {
	char **syms;
	size_t nsyms;
	struct ks_when when;
	enum ks_action action;
	char *ns;		/* KS_ACTION_NAMESPACE only */
	char *replace;		/* NULL: none given */
	bool replace_ident;	/* replace is a symbol name (a fix-it) */
	char *why, *who, *since;
	const char *file;	/* owned by the schedule */
	unsigned line;		/* where the entry starts */
};

struct ks_chunk;

struct ks_schedule {
	struct ks_chunk *arena;		/* where entries and their strings live */
	struct ks_entry **entries;
	size_t n, cap;
	struct ks_strmap bysym;
	char **files;
	size_t nfiles;
	uint64_t digest;	/* of every file's text, in load order */
};

#define KS_SCHEDULE_INIT { 0 }

/* Parses text (named name in messages) into s. Every problem is added to d
 * as "NAME:LINE: error: ..."; entries with a bad field are left out. A
 * symbol named again (by a later entry, or a disagreeing one in another
 * file) is an error too, and lookups keep finding its first entry; the
 * later entry stays for its other symbols. Returns
 * -EINVAL if any error was found, or 0. */
int ks_schedule_parse(struct ks_schedule *s, const char *name, const char *text,
		      size_t len, struct ks_diags *d) KS_MUST_CHECK;
/* Reads and parses one file; an unreadable file is one diagnostic and
 * -errno. */
int ks_schedule_load(struct ks_schedule *s, const char *path, struct ks_diags *d) KS_MUST_CHECK;
/* Loads each of a colon-separated list of files. */
int ks_schedule_load_list(struct ks_schedule *s, const char *paths, struct ks_diags *d) KS_MUST_CHECK;
const struct ks_entry *ks_schedule_lookup(const struct ks_schedule *s, const char *sym);
void ks_schedule_free(struct ks_schedule *s);
/* The digest as 16 hex digits. */
void ks_schedule_digest_hex(const struct ks_schedule *s, char out[17]);

const char *ks_action_name(enum ks_action a);
bool ks_is_identifier(const char *s);

enum ks_status {
	KS_STATUS_SCHEDULED,	/* warning (error when strict) */
	KS_STATUS_DUE_SOON,	/* within --error-within days: error */
	KS_STATUS_OVERDUE,	/* the deadline has passed: error */
};

struct ks_when_eval {
	enum ks_status status;
	bool have_days;		/* dated entries only */
	int32_t days_left;	/* negative: overdue by that many */
};

/* Where a use stands today. target may be NULL (release unknown);
 * within < 0 means no due-soon window. */
struct ks_when_eval ks_when_evaluate(const struct ks_when *w, int32_t today,
				     const struct ks_release *target, long within);
const char *ks_status_name(enum ks_status st);

KS_END_DECLS

#endif
