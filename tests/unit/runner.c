/* Runs every unit test suite and prints Check's summary. */
#include <stdlib.h>

#include "suites.h"

int main(void)
{
	SRunner *sr = srunner_create(suite_date());
	int failed;

	srunner_add_suite(sr, suite_schedule());
	srunner_add_suite(sr, suite_record());
	srunner_add_suite(sr, suite_symvers());
	srunner_add_suite(sr, suite_elfmod());
	srunner_add_suite(sr, suite_rules());
	srunner_add_suite(sr, suite_report());
	srunner_add_suite(sr, suite_baseline());
	srunner_add_suite(sr, suite_imports());
	srunner_add_suite(sr, suite_lintrules());
	srunner_add_suite(sr, suite_schedwrite());
	srunner_add_suite(sr, suite_inputs());
	srunner_add_suite(sr, suite_wording());
	srunner_add_suite(sr, suite_symdiff());
	srunner_add_suite(sr, suite_dwarf());
	srunner_add_suite(sr, suite_modfile());
	srunner_add_suite(sr, suite_debugfile());
	srunner_add_suite(sr, suite_forecast());
	srunner_add_suite(sr, suite_cond());
	srunner_add_suite(sr, suite_path());
	srunner_add_suite(sr, suite_file());
	srunner_add_suite(sr, suite_array());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
