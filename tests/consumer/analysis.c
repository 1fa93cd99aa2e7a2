/*
 * Links only the analysis component (dlsched::analysis, which brings
 * core; dlsched-analysis.pc). Exits 0 when the exact uniprocessor EDF test
 * agrees with Liu & Layland (JACM 1973, theorem 7): implicit-deadline
 * tasks are EDF-schedulable on one CPU exactly when U <= 1.
 */
#include <stdio.h>

#include <dlsched/analysis.h>

int main(void)
{
	/* U = 1/2 + 1/3 <= 1 */
	const struct dls_params ok[] = { { .runtime = 1, .deadline = 2, .period = 2 },
					 { .runtime = 1, .deadline = 3, .period = 3 } };
	/* U = 2/3 + 2/4 > 1 */
	const struct dls_params over[] = { { .runtime = 2, .deadline = 3, .period = 3 },
					   { .runtime = 2, .deadline = 4, .period = 4 } };
	struct dls_analysis_result r;

	if (dls_analysis_qpa(ok, 2, &r) != 0 || !r.schedulable) {
		fprintf(stderr, "consumer analysis: U = 5/6 refused\n");
		return 1;
	}
	if (dls_analysis_qpa(over, 2, &r) != 0 || r.schedulable) {
		fprintf(stderr, "consumer analysis: U = 7/6 accepted\n");
		return 1;
	}
	printf("consumer analysis: libdlsched %d.%d.%d works\n", DLSCHED_VERSION_MAJOR,
	       DLSCHED_VERSION_MINOR, DLSCHED_VERSION_PATCH);
	return 0;
}
