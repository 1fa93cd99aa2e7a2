/*
 * Helpers for the suites that link dlsim's simulator (dlsim_core): kept
 * apart from tests/support so the other suites need no dlsim.
 */
#ifndef DLS_TEST_DLSIM_H
#define DLS_TEST_DLSIM_H

#include "sim.h"

/*
 * Load @text as a workload file (strict), failing the test with its
 * diagnostics if it does not load, and simulate it with @opt, summary to
 * standard output. The simulator must run (sim_run() returns 0); returns
 * the run's exit status (DLSIM_EXIT_OK, ...).
 */
int dls_test_sim_text(const char *text, const struct sim_options *opt);

#endif /* DLS_TEST_DLSIM_H */
