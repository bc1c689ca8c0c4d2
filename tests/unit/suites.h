/* The unit test suites; runner.c runs them all. */
#ifndef KS_SUITES_H
#define KS_SUITES_H

#include <check.h>

Suite *suite_date(void);
Suite *suite_schedule(void);
Suite *suite_record(void);
Suite *suite_symvers(void);
Suite *suite_elfmod(void);
Suite *suite_rules(void);
Suite *suite_report(void);
Suite *suite_baseline(void);
Suite *suite_imports(void);
Suite *suite_lintrules(void);
Suite *suite_schedwrite(void);
Suite *suite_inputs(void);
Suite *suite_wording(void);
Suite *suite_symdiff(void);
Suite *suite_dwarf(void);
Suite *suite_modfile(void);
Suite *suite_debugfile(void);
Suite *suite_forecast(void);
Suite *suite_cond(void);
Suite *suite_path(void);
Suite *suite_file(void);
Suite *suite_array(void);

#endif
