/* Runs every unit test suite that registered itself (KS_SUITE) and
 * prints Check's summary. */
#include <stdio.h>
#include <stdlib.h>

#include "suites.h"

static ks_suite_fn suites[64];
static size_t nsuites;

void ks_suite_register(ks_suite_fn fn)
{
	if (nsuites == KS_ARRAY_SIZE(suites)) {
		fprintf(stderr, "unit-tests: more than %zu suites: make room in runner.c\n",
			nsuites);
		exit(EXIT_FAILURE);
	}
	suites[nsuites++] = fn;
}

int main(void)
{
	SRunner *sr;
	int failed;

	if (!nsuites) {
		fprintf(stderr, "unit-tests: no suite registered\n");
		return EXIT_FAILURE;
	}
	sr = srunner_create(suites[0]());
	for (size_t i = 1; i < nsuites; i++)
		srunner_add_suite(sr, suites[i]());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
