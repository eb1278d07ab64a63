/* scenario.h - the scenario runner shared by the rule tests: one file of
 * scenarios under tests/rules/<variant>/ (the format: tests/rules/README.md)
 * is played against the variant named by its folder. */
#ifndef TIERS_SCENARIO_H
#define TIERS_SCENARIO_H

#include "testutil.h"

/* Runs every scenario of the file rel (under tests/) and fails the test
 * after listing each failed check.  Returns the number of scenarios;
 * adds the number of checks made to *checks (when not NULL). */
int scen_run(const char *rel, int *checks);

/* The variant `name` with rules ("KEY=VALUE ...", "" = as shipped),
 * loaded once per program; freed by scen_teardown (a group teardown). */
tiers_variant *scen_variant(const char *name, const char *rules);
int scen_teardown(void **state);

#endif
