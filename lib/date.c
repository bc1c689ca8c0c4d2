/* Dates and kernel releases. Dates are plain day numbers so that "days
 * left" is a subtraction; the calendar conversion is the proleptic
 * Gregorian one used by every C library. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "buf.h"
#include "date.h"

int32_t ks_date_from_civil(int y, unsigned m, unsigned d)
{
	int era, yoe, doy;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (int)(m > 2 ? m - 3 : m + 9) + 2) / 5 + (int)d - 1;
	return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

void ks_date_to_civil(int32_t days, int *y, unsigned *m, unsigned *d)
{
	int z = days + 719468;
	int era = (z >= 0 ? z : z - 146096) / 146097;
	unsigned doe = (unsigned)(z - era * 146097);
	unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	unsigned mp = (5 * doy + 2) / 153;

	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int)yoe + era * 400 + (*m <= 2);
}

static unsigned month_days(int y, unsigned m)
{
	static const unsigned char len[12] = { 31, 28, 31, 30, 31, 30,
					       31, 31, 30, 31, 30, 31 };
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return len[m - 1] + (m == 2 && leap);
}

/* Exactly n decimal digits at s. */
static bool digits(const char *s, int n, unsigned *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		*v = *v * 10 + (unsigned)(s[i] - '0');
	}
	return true;
}

int ks_date_parse(const char *s, int32_t *days)
{
	unsigned y, m, d = 1;
	size_t n = strlen(s);

	if (n != 7 && n != 10)
		return -EINVAL;
	if (!digits(s, 4, &y) || s[4] != '-' || !digits(s + 5, 2, &m))
		return -EINVAL;
	if (n == 10 && (s[7] != '-' || !digits(s + 8, 2, &d)))
		return -EINVAL;
	if (y < 1970 || m < 1 || m > 12 || d < 1 || d > month_days((int)y, m))
		return -EINVAL;
	*days = ks_date_from_civil((int)y, m, d);
	return 0;
}

int ks_date_parse_relative(const char *s, int32_t today, int32_t *days)
{
	int y;
	unsigned m, d;
	char *end;
	long n;

	if (s[0] != '+')
		return ks_date_parse(s, days);
	if (!isdigit((unsigned char)s[1]))
		return -EINVAL;
	errno = 0;
	n = strtol(s + 1, &end, 10);
	if (end[0] == '\0' || end[1] != '\0' || !strchr("dmy", end[0]))
		return -EINVAL;
	if (errno || n > 10000L * 366)	/* past 9999-12-31 from any today */
		return -ERANGE;
	switch (end[0]) {
	case 'd':
		*days = today + (int32_t)n;
		return *days > ks_date_from_civil(9999, 12, 31) ? -ERANGE : 0;
	case 'y':
		n *= 12;
		/* fall through */
	case 'm':
		break;
	default:
		return -EINVAL;
	}
	ks_date_to_civil(today, &y, &m, &d);
	n += (long)m - 1;
	y += (int)(n / 12);
	if (y > 9999)
		return -ERANGE;
	m = (unsigned)(n % 12) + 1;
	if (d > month_days(y, m))
		d = month_days(y, m);
	*days = ks_date_from_civil(y, m, d);
	return 0;
}

/* By hand, not snprintf: the plugin formats every entry's date each time it
 * loads a schedule. */
void ks_date_format(int32_t days, char out[KS_DATE_LEN])
{
	int y;
	unsigned m, d, yy;

	ks_date_to_civil(days, &y, &m, &d);
	yy = (unsigned)y % 10000;
	out[0] = (char)('0' + yy / 1000);
	out[1] = (char)('0' + yy / 100 % 10);
	out[2] = (char)('0' + yy / 10 % 10);
	out[3] = (char)('0' + yy % 10);
	out[4] = out[7] = '-';
	out[5] = (char)('0' + m / 10);
	out[6] = (char)('0' + m % 10);
	out[8] = (char)('0' + d / 10);
	out[9] = (char)('0' + d % 10);
	out[10] = '\0';
}

static int epoch_days(const char *s, int32_t *days)
{
	unsigned long long v = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s) || v > (ULLONG_MAX - 9) / 10)
			return -EINVAL;
		v = v * 10 + (unsigned)(*s - '0');
	}
	if (v / 86400 > INT32_MAX)
		return -EINVAL;
	*days = (int32_t)(v / 86400);
	return 0;
}

int ks_today(const char *explicit_date, int32_t *days, const char **why)
{
	const char *sde;

	if (explicit_date) {
		/* one day: not When:'s month alone, which would silently mean the 1st */
		*why = "expected a date YYYY-MM-DD";
		return strlen(explicit_date) == 10 ? ks_date_parse(explicit_date, days) : -EINVAL;
	}
	/* set but empty is unset, as Makefiles that pass it on expect */
	sde = getenv("SOURCE_DATE_EPOCH");
	if (sde && *sde) {
		*why = "SOURCE_DATE_EPOCH must be a non-negative integer (seconds since 1970-01-01)";
		return epoch_days(sde, days);
	}
	*days = (int32_t)(time(NULL) / 86400);
	return 0;
}

/* A decimal number below 100000 at *s, advancing *s. */
static bool number(const char **s, unsigned *v)
{
	const char *p = *s;

	*v = 0;
	if (!isdigit((unsigned char)*p))
		return false;
	for (; isdigit((unsigned char)*p); p++) {
		if (*v >= 100000)
			return false;
		*v = *v * 10 + (unsigned)(*p - '0');
	}
	*s = p;
	return true;
}

/* MAJOR.MINOR[.PATCH] at *s, advancing *s past it. */
static bool release_numbers(const char **s, struct ks_release *rel)
{
	memset(rel, 0, sizeof(*rel));
	if (**s == 'v')
		(*s)++;
	if (!number(s, &rel->major) || **s != '.')
		return false;
	(*s)++;
	if (!number(s, &rel->minor))
		return false;
	if (**s == '.' && isdigit((unsigned char)(*s)[1])) {
		(*s)++;
		return number(s, &rel->patch);
	}
	return true;
}

int ks_release_parse(const char *s, struct ks_release *rel)
{
	if (!release_numbers(&s, rel) || *s)
		return -EINVAL;
	return 0;
}

int ks_release_parse_target(const char *s, struct ks_release *rel)
{
	if (!release_numbers(&s, rel))
		return -EINVAL;
	if (strncmp(s, "-rc", 3) == 0) {
		s += 3;
		if (!number(&s, &rel->rc) || rel->rc == 0)
			return -EINVAL;
	}
	return 0;
}

char *ks_release_xy(const char *s)
{
	char *v = ks_xstrndup(s, strcspn(s, " "));
	struct ks_release rel;
	bool ok = ks_release_parse_target(v, &rel) == 0;

	free(v);
	return ok ? ks_strdupf("%u.%u", rel.major, rel.minor) : NULL;
}

static int cmp_u(unsigned a, unsigned b)
{
	return a < b ? -1 : a > b;
}

int ks_release_cmp(const struct ks_release *a, const struct ks_release *b)
{
	int c = cmp_u(a->major, b->major);

	if (!c)
		c = cmp_u(a->minor, b->minor);
	if (!c)
		c = cmp_u(a->patch, b->patch);
	/* a release candidate comes before its release */
	if (!c && a->rc != b->rc)
		c = !a->rc ? 1 : !b->rc ? -1 : cmp_u(a->rc, b->rc);
	return c;
}

bool ks_release_reached(const struct ks_release *target, const struct ks_release *sched)
{
	struct ks_release t = *target;

	/* A symbol removed "in 6.14" is gone from 6.14-rc1 on: the removal
	 * lands in the merge window. */
	if (sched->patch == 0)
		t.rc = 0;
	return ks_release_cmp(&t, sched) >= 0;
}
