/*
 * libFuzzer target for the simulator: every workload the reader accepts
 * must simulate under every validator (--check) without crashing, hanging
 * or breaking an invariant. Runs are kept short (a 5 ms horizon, at most
 * 64 threads on 8 CPUs, 20,000 events: zero-time loops can pack millions
 * of events into 5 ms, each validated) so that the fuzzer explores shapes,
 * not time.
 */
#include <stdio.h>
#include <string.h>

#include "sim.h"
#include "workload.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	/* Bounds keep each input fast: the fuzzer looks for wrong states,
	 * not for the cost of thousands of forked threads or of a loop of
	 * nanosecond events (a "mem" of 10 bytes is 1 ns of work). --check
	 * walks every thread at every step, so an input's cost grows with
	 * threads x steps: 256 forked threads over 100,000 steps took 9 s
	 * under the fuzz build, near libFuzzer's 10 s timeout on a loaded
	 * machine; 128 x 50,000 is a quarter of that. */
	struct sim_options opt = { .check = true, .quiet = true, .max_events = 20000,
				   .max_steps = 50000, .max_threads = 128 };
	struct sim_result res;
	struct workload w;
	int64_t threads = 0;

	memset(&w, 0, sizeof(w));
	if (workload_load(&w, "fuzz.json", (const char *)data, size, false) == 0) {
		for (size_t i = 0; i < w.nr_tasks; i++)
			threads += w.tasks[i].instance;
		if (threads <= 64 && w.nr_cpus <= 8) {
			if (!w.horizon_us || w.horizon_us > 5000)
				w.horizon_us = 5000;
			if (sim_run(&w, &opt, stdout, &res) == 0 && res.exit_code == 3)
				__builtin_trap(); /* an invariant broke (stderr says which) */
		}
	}
	workload_free(&w);
	return 0;
}
