/* Calendar dates as days since 1970-01-01 (UTC), kernel releases, and
 * "today" as reproducible builds want it. */
#ifndef KS_DATE_H
#define KS_DATE_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler.h"

KS_BEGIN_DECLS

#define KS_DATE_LEN 11	/* "YYYY-MM-DD" and its NUL */

/* "YYYY-MM-DD", or "YYYY-MM" (the first of that month). -EINVAL if malformed
 * or not a real day. */
int ks_date_parse(const char *s, int32_t *days) KS_MUST_CHECK;
/* A date, or an offset from today: "+30d", "+6m", "+1y"; -ERANGE when the
 * offset lands past 9999-12-31. */
int ks_date_parse_relative(const char *s, int32_t today, int32_t *days) KS_MUST_CHECK;
void ks_date_format(int32_t days, char out[KS_DATE_LEN]);
int32_t ks_date_from_civil(int y, unsigned m, unsigned d);
void ks_date_to_civil(int32_t days, int *y, unsigned *m, unsigned *d);

/* Today: the explicit date when given (YYYY-MM-DD only), else
 * $SOURCE_DATE_EPOCH if set and not empty, else the clock. On error *why
 * says what was wrong. */
int ks_today(const char *explicit_date, int32_t *days, const char **why) KS_MUST_CHECK;

struct ks_release {
	unsigned major;
	unsigned minor;
	unsigned patch;
	unsigned rc;		/* 0: not a release candidate */
};

/* Schedule syntax: "6.14", "v6.14", "6.14.3". */
int ks_release_parse(const char *s, struct ks_release *rel) KS_MUST_CHECK;
/* A target kernel's release as uname -r or vermagic print it:
 * "6.1.0-57-amd64", "6.10-rc3", "6.8.0+". Only the numbers count. */
int ks_release_parse_target(const char *s, struct ks_release *rel) KS_MUST_CHECK;
/* "X.Y" of a release as ks_release_parse_target() reads it, up to the
 * first blank (a vermagic: "6.1.0-57-amd64 SMP ..."); NULL: not one. */
char *ks_release_xy(const char *s);
/* Whether a kernel of release target has reached the scheduled release:
 * 6.14-rc1 and 6.14.2 have reached "6.14"; 6.14-rc5 has not reached "6.14.1". */
bool ks_release_reached(const struct ks_release *target, const struct ks_release *sched);
int ks_release_cmp(const struct ks_release *a, const struct ks_release *b);

KS_END_DECLS

#endif
