/* Marking kernel declarations for removal in the source: with the ksunset
 * plugin loaded (it predefines __KSUNSET__), every use of a declaration
 * marked __sunset() is reported as if the schedule listed it; without the
 * plugin the mark is nothing. A schedule entry for the symbol wins.
 *
 *   extern int do_settimeofday64(const struct timespec64 *ts)
 *	__sunset("2027-09-01", "rtc_set_time");
 *
 * WHEN is "YYYY-MM-DD", "YYYY-MM" or a kernel release ("6.14"); REPLACE is
 * the replacement symbol, a sentence, or "" for none. */
#ifndef KSUNSET_SUNSET_H
#define KSUNSET_SUNSET_H

#ifdef __KSUNSET__
#define __sunset(when, replace) __attribute__((sunset(when, replace)))
#else
#define __sunset(when, replace)
#endif

#endif
