/* The unit test suites: each file registers its own with KS_SUITE, and
 * runner.c runs all that registered. */
#ifndef KS_SUITES_H
#define KS_SUITES_H

#include <check.h>

#include "compiler.h"

/* A table of cases' length, as tcase_add_loop_test() takes it. */
#define KS_NCASES(a) ((int)KS_ARRAY_SIZE(a))

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
