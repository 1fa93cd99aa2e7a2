/*
 * dlsim's per-job results (--jobs, the JSON "jobs" array) and run slices
 * split at job boundaries, against schedules worked out by hand with EDF
 * on one CPU (Liu & Layland 1973; Buttazzo, "Hard Real-Time Computing
 * Systems", 3rd ed., sec. 4.4): the earliest absolute deadline runs, and
 * an equal deadline never preempts (as Linux's dl_entity_preempt()).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls_test.h"
#include "dls_test_dlsim.h"
#include "sim.h"
#include "workload.h"

#define MS UINT64_C(1000000)

/* Simulate @text with --check and the given outputs; returns the exit code. */
static int run_text(const char *text, struct sim_options *opt)
{
	opt->check = true;
	opt->quiet = true;
	return dls_test_sim_text(text, opt);
}

static char *slurp(const char *path)
{
	char *buf = dls_test_read_file(path, NULL);

	CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
	return buf;
}

/*
 * a: C = 1, T = D = 3 ms; b: C = 4, T = D = 8 ms (U = 0.83), 15 ms.
 * EDF: a 0-1; b 1-3; a released at 3 (d 6 < 8) preempts b: a 3-4; b 4-6
 * (b0 done at 6, preempted once); a 6-7; idle 7-8; b released at 8 (d 16)
 * 8-9; a (d 12) preempts 9-10; b 10-12; a (d 15) preempts 12-13; b 13-14
 * (b1 done at 14, preempted twice). Budgets equal the work: each job's
 * budget runs out at the instant it completes, and Linux throttles a task
 * whose runtime is exhausted as it blocks (dequeue_task_dl() ->
 * update_curr_dl(), dl_runtime_exceeded() is runtime <= 0): one throttle
 * per job, counted in that job's row. Each row: the job's own deadline,
 * then the server's at completion (equal here: one job per server period).
 */
static void test_jobs_csv(void)
{
	static const char text[] =
		"{\"simulation\": {\"horizon_us\": 15000}, \"tasks\": {\n"
		"\"a\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 1000, \"dl-period\": 3000,\n"
		"       \"run\": 1000, \"timer\": {\"ref\": \"unique\", \"period\": 3000}},\n"
		"\"b\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 4000, \"dl-period\": 8000,\n"
		"       \"run\": 4000, \"timer\": {\"ref\": \"unique\", \"period\": 8000}}}}";
	static const char want[] =
		"thread,job,release_ns,start_ns,end_ns,deadline_ns,server_deadline_ns,"
		"response_ns,lateness_ns,cpus,preemptions,migrations,throttles\n"
		"\"a\",0,0,0,1000000,3000000,3000000,1000000,-2000000,0,0,0,1\n"
		"\"a\",1,3000000,3000000,4000000,6000000,6000000,1000000,-2000000,0,0,0,1\n"
		"\"b\",0,0,1000000,6000000,8000000,8000000,6000000,-2000000,0,1,0,1\n"
		"\"a\",2,6000000,6000000,7000000,9000000,9000000,1000000,-2000000,0,0,0,1\n"
		"\"a\",3,9000000,9000000,10000000,12000000,12000000,1000000,-2000000,0,0,0,1\n"
		"\"a\",4,12000000,12000000,13000000,15000000,15000000,1000000,-2000000,0,0,0,1\n"
		"\"b\",1,8000000,8000000,14000000,16000000,16000000,6000000,-2000000,0,2,0,1\n";
	const char *path = "test_dlsim_jobs.csv";
	struct sim_options opt = { 0 };
	char *got;

	opt.jobs_path = path;
	DLS_ASSERT_EQ_S64(run_text(text, &opt), DLSIM_EXIT_OK);
	got = slurp(path);
	if (strcmp(got, want))
		fprintf(stderr, "got:\n%s\nwant:\n%s\n", got, want);
	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
	remove(path);
}

struct slices {
	uint64_t start[16], end[16];
	size_t n;
};

static void on_slice(void *arg, int cpu, const char *thread, uint64_t start, uint64_t end)
{
	struct slices *s = arg;

	(void)cpu;
	(void)thread;
	if (s->n < 16) {
		s->start[s->n] = start;
		s->end[s->n] = end;
	}
	s->n++;
}

/*
 * x runs 3 ms per job on a 2 ms relative timer: it falls behind, so each
 * job starts where the last ended and x never stops running. The run
 * slices still end with each job: [0,3) [3,6) [6,9).
 */
static void test_slices_split_at_jobs(void)
{
	static const char text[] =
		"{\"simulation\": {\"horizon_us\": 9000}, \"tasks\": {\n"
		"\"x\": {\"policy\": \"SCHED_FIFO\", \"priority\": 10,\n"
		"       \"run\": 3000, \"timer\": {\"ref\": \"unique\", \"period\": 2000}}}}";
	struct slices s = { .n = 0 };
	struct sim_options opt = { .on_slice = on_slice, .cb_arg = &s };

	DLS_ASSERT_EQ_S64(run_text(text, &opt), DLSIM_EXIT_OK);
	DLS_ASSERT_EQ_U64(s.n, 3);
	for (size_t i = 0; i < 3 && i < s.n; i++) {
		DLS_ASSERT_EQ_U64(s.start[i], 3 * i * MS);
		DLS_ASSERT_EQ_U64(s.end[i], 3 * (i + 1) * MS);
	}
}

/*
 * The JSON carries the same jobs; the trace carries budget and deadline
 * counter tracks and the throttle/replenish marks carry their values. A
 * hog (2 ms budget every 10 ms, 6 ms of work) is throttled three times in
 * its first job (CBS, Abeni & Buttazzo 1998): at 2 and 12 ms, preempted
 * each time, and at 22 ms as its last 2 ms complete the job (Linux
 * throttles it as it blocks, dequeue_task_dl() -> update_curr_dl()).
 */
static void test_json_jobs_and_trace_counters(void)
{
	static const char text[] =
		"{\"simulation\": {\"horizon_us\": 25000}, \"tasks\": {\n"
		"\"hog\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 2000, \"dl-period\": 10000,\n"
		"         \"run\": 6000, \"timer\": {\"ref\": \"unique\", \"period\": 100000}}}}";
	const char *jpath = "test_dlsim_jobs.json", *tpath = "test_dlsim_jobs.trace";
	struct sim_options opt = { 0 };
	char *j, *t;

	opt.json_path = jpath;
	opt.trace_path = tpath;
	DLS_ASSERT_EQ_S64(run_text(text, &opt), DLSIM_EXIT_OK);
	j = slurp(jpath);
	t = slurp(tpath);
	/* 2 ms every 10 ms: the 6 ms job ends at 22 ms, throttled thrice;
	 * its own deadline is the next tick of its timer (100 ms), its
	 * server's at completion 30 ms. */
	CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"jobs\": [\n    {\"thread\": \"hog\", \"job\": 0, "
				      "\"release_ns\": 0, \"start_ns\": 0, \"end_ns\": 22000000, "
				      "\"deadline_ns\": 100000000, \"server_deadline_ns\": 30000000, "
				      "\"response_ns\": 22000000, \"lateness_ns\": -78000000, "
				      "\"cpus\": [0], \"preemptions\": 2, \"migrations\": 0, "
				      "\"throttles\": 3}\n  ]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"name\": \"throttle hog\", \"pid\": 0, \"tid\": 0, "
				      "\"ts\": 2000.000, \"args\": {\"runtime_us\": 0.000, "
				      "\"deadline_us\": 10000.000}}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "{\"ph\": \"C\", \"name\": \"budget hog\", \"pid\": 1, "
				      "\"ts\": 10000.000, \"args\": {\"runtime_us\": 2000.000}}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "{\"ph\": \"C\", \"name\": \"deadline hog\", \"pid\": 1, "
				      "\"ts\": 10000.000, \"args\": {\"deadline_ms\": 20.000000}}"));
	free(j);
	free(t);
	remove(jpath);
	remove(tpath);
}

/*
 * A job's own deadline is its timer's next tick unless "job-deadline"
 * says otherwise; its server's deadline is another thing. A server with
 * Q = 2, P = D = 6 ms (CBS, hard reservation: sched-deadline.rst sec. 2)
 * gets a 5 ms job every 20 ms: it runs 0-2, 6-8, 12-13 and ends at 13,
 * within its own 20 ms deadline but after its server's first deadline (6):
 * no miss, one server deadline pass, which the summary names. With
 * "job-deadline": 6000 the same job misses.
 */
static void test_job_deadline(void)
{
	static const char fmt[] =
		"{\"simulation\": {\"horizon_us\": 19000}, \"tasks\": {\n"
		"\"srv\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 2000, \"dl-period\": 6000,\n"
		"         %s\"run\": 5000, \"timer\": {\"ref\": \"unique\", \"period\": 20000}}}}";
	for (int own = 0; own < 2; own++) {
		char text[512], *out = NULL;
		size_t len = 0;
		struct workload w;
		struct sim_result res;
		struct sim_options opt = { .check = true };
		FILE *f = open_memstream(&out, &len);

		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		snprintf(text, sizeof(text), fmt, own ? "\"job-deadline\": 6000, " : "");
		CU_ASSERT_EQUAL_FATAL(workload_load(&w, "w.json", text, strlen(text), true), 0);
		DLS_ASSERT_EQ_S64(sim_run(&w, &opt, f, &res), 0);
		fclose(f);
		DLS_ASSERT_EQ_U64(res.jobs, 1);
		DLS_ASSERT_EQ_U64(res.misses, own ? 1 : 0);
		DLS_ASSERT_EQ_U64(res.server_misses, 1);
		/* the summary names the passes only where they differ */
		CU_ASSERT_EQUAL(strstr(out, "server deadline passes") != NULL, !own);
		CU_ASSERT_PTR_NOT_NULL(strstr(out, own ? "1 deadline misses" : "0 deadline misses"));
		free(out);
		workload_free(&w);
	}
}

static const struct dls_test_case cases[] = {
	{ "--jobs rows of a hand-derived EDF schedule", test_jobs_csv },
	{ "run slices split at job boundaries", test_slices_split_at_jobs },
	{ "JSON jobs array, trace counters", test_json_jobs_and_trace_counters },
	{ "a job's own deadline, apart from its server's", test_job_deadline },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "dlsim per-job results", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
