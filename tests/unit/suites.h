/* The unit test suites: each file registers its own with KS_SUITE, and
 * runner.c runs all that registered. */
#ifndef KS_SUITES_H
#define KS_SUITES_H

#include <check.h>

typedef Suite *(*ks_suite_fn)(void);

void ks_suite_register(ks_suite_fn fn);

/* After a suite's function, in its own file: registers it as the program
 * starts. */
#define KS_SUITE(fn)                                                                               \
	static void __attribute__((constructor)) fn##_register(void)                               \
	{                                                                                          \
		ks_suite_register(fn);                                                             \
	}

#endif
