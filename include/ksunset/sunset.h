/* Marking kernel declarations for removal in the source: with the ksunset
 * plugin loaded (it predefines __KSUNSET__), every use of a declaration
 * marked __sunset() is reported as if the schedule listed it; without the
 * plugin the mark is nothing. A schedule entry for the symbol wins.
 *
 *   extern int do_settimeofday64(const struct timespec64 *ts)
 *	__sunset("2027-09-01", "rtc_set_time");
 *
 * WHEN is "YYYY-MM-DD", "YYYY-MM" or a kernel release ("6.14"); REPLACE is
 * the replacement symbol, a sentence, or "" for none.
 *
 * Accepting the uses in one function, in a module:
 *
 *   static int board_set_clock(const struct timespec64 *ts)
 *   {
 *	KSUNSET_ACCEPT("no RTC class driver for this board until 2027");
 *	return do_settimeofday64(ts);
 *   }
 *
 * A statement that accepts every scheduled use written in the body of the
 * function that holds it, wherever in the body, also through macros and
 * kernel-header inline functions it calls; not uses in other functions,
 * even ones inlined into it. The plugin does not warn about them (nor fail
 * a strict build) and records them with REASON, a non-empty string literal;
 * ksunset check counts them as accepted and shows REASON (JSON, and SARIF's
 * suppressions). Never a use past its date, nor one of a symbol the
 * kernel no longer exports: as with a baseline, those are still reported.
 * Without the plugin it compiles to nothing; an empty REASON is an error
 * with or without it. */
#ifndef KSUNSET_SUNSET_H
#define KSUNSET_SUNSET_H

#define __KSUNSET_PRAGMA(text) _Pragma(#text)

#ifdef __KSUNSET__
#define __sunset(when, replace) __attribute__((sunset(when, replace)))
#define KSUNSET_ACCEPT(reason) do { __KSUNSET_PRAGMA(ksunset accept reason) } while (0)
#else
#define __sunset(when, replace)
#define KSUNSET_ACCEPT(reason)                                                                \
	do {                                                                                  \
		_Static_assert(sizeof("" reason) > 1, "KSUNSET_ACCEPT needs a reason");       \
	} while (0)
#endif

#endif
