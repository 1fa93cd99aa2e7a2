#include "dls_test_dlsim.h"

#include <string.h>

#include "dls_test.h"
#include "workload.h"

int dls_test_sim_text(const char *text, const struct sim_options *opt)
{
	struct workload w;
	struct sim_result res;

	if (workload_load(&w, "w.json", text, strlen(text), true)) {
		workload_print_diags(&w, stderr);
		workload_free(&w);
		CU_FAIL_FATAL("workload did not load");
	}
	DLS_ASSERT_EQ_S64(sim_run(&w, opt, stdout, &res), 0);
	workload_free(&w);
	return res.exit_code;
}
