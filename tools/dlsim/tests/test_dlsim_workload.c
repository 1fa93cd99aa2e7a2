/*
 * dlsim's reading of rt-app workloads: the grammar (phases, loops,
 * instances, events by prefix, duplicate keys, defaults, legacy keys), our
 * own sections, and one diagnostic with its position per malformed input.
 * Then a small simulation whose schedule is worked out by hand.
 */
#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64 /* readdir() on 32-bit builds */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dls_test.h"
#include "sim.h"
#include "workload.h"

static int load(struct workload *w, const char *text, bool strict)
{
	return workload_load(w, "w.json", text, strlen(text), strict);
}

static void test_grammar(void)
{
	struct workload w;
	const char *text =
		"{ \"global\": { \"duration\": 2, \"default_policy\": \"SCHED_FIFO\",\n"
		"              \"calibration\": \"CPU0\", \"logdir\": \"./\" },\n"
		"  \"platform\": { \"cpus\": 2, \"capacity\": [1024, 512] },\n"
		"  \"tasks\": {\n"
		"    \"a\": { \"instance\": 3, \"loop\": 5, \"cpus\": [1],\n"
		"           \"run0\": 100, \"sleep\": 50, \"run1\": 200, \"runtime\": 10,\n"
		"           \"timer\": { \"ref\": \"unique\", \"period\": 1000, \"mode\": \"absolute\" } },\n"
		"    \"b\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 300,\n"
		"           \"phases\": { \"p1\": { \"loop\": 2, \"lock\": \"m\", \"run\": 5, \"unlock\": \"m\" },\n"
		"                       \"p2\": { \"yield\": 0, \"barrier\": \"x\", \"fork\": \"a\" } } },\n"
		"    \"c\": { \"policy\": \"SCHED_DEADLINE\", \"runtime\": 200, \"period\": 1000,\n"
		"           \"sleep\": 10 }\n"
		"  } }\n";

	CU_ASSERT_EQUAL_FATAL(load(&w, text, false), 0);
	workload_print_diags(&w, stderr);
	CU_ASSERT_EQUAL(w.duration_s, 2);
	CU_ASSERT_EQUAL(w.nr_cpus, 2);
	CU_ASSERT_EQUAL(w.cpus[1].capacity, 512);
	CU_ASSERT_EQUAL_FATAL(w.nr_tasks, 3);

	const struct wl_task *a = &w.tasks[0];
	CU_ASSERT_EQUAL(a->sched.policy, WL_FIFO);      /* default_policy */
	CU_ASSERT_EQUAL(a->sched.prio, 10);             /* rt-app's default */
	CU_ASSERT_EQUAL(a->instance, 3);
	CU_ASSERT_EQUAL(a->cpus.w[0], 2);
	CU_ASSERT_EQUAL(wl_cpuset_count(&a->cpus), 1);
	/* No phases: the task is one phase looping "loop" times, run once. */
	CU_ASSERT_EQUAL(a->nr_phases, 1);
	CU_ASSERT_EQUAL(a->phases[0].loop, 5);
	CU_ASSERT_EQUAL(a->loop, 1);
	CU_ASSERT_EQUAL_FATAL(a->phases[0].nr_events, 5);
	CU_ASSERT_EQUAL(a->phases[0].events[0].type, WL_RUN);
	CU_ASSERT_EQUAL(a->phases[0].events[0].us, 100);
	CU_ASSERT_EQUAL(a->phases[0].events[1].type, WL_SLEEP);
	CU_ASSERT_EQUAL(a->phases[0].events[2].type, WL_RUN);
	CU_ASSERT_EQUAL(a->phases[0].events[2].us, 200);
	CU_ASSERT_EQUAL(a->phases[0].events[3].type, WL_RUNTIME);
	CU_ASSERT_EQUAL(a->phases[0].events[4].type, WL_TIMER);
	CU_ASSERT_TRUE(a->phases[0].events[4].absolute);
	CU_ASSERT_EQUAL(a->phases[0].events[4].us, 1000);

	const struct wl_task *b = &w.tasks[1];
	/* dl-period defaults to dl-runtime, dl-deadline to dl-period. */
	CU_ASSERT_EQUAL(b->sched.dl_runtime_us, 300);
	CU_ASSERT_EQUAL(b->sched.dl_period_us, 300);
	CU_ASSERT_EQUAL(b->sched.dl_deadline_us, 300);
	CU_ASSERT_EQUAL(b->loop, -1);                   /* phases: forever */
	CU_ASSERT_EQUAL_FATAL(b->nr_phases, 2);
	CU_ASSERT_EQUAL(b->phases[0].loop, 2);
	CU_ASSERT_EQUAL(b->phases[0].events[0].type, WL_LOCK);
	CU_ASSERT_STRING_EQUAL(b->phases[0].events[0].ref, "m");
	CU_ASSERT_EQUAL(b->phases[1].events[2].type, WL_FORK);
	/* The target of a fork. */
	CU_ASSERT_TRUE(a->forked);

	const struct wl_task *c = &w.tasks[2];
	/* Legacy grammar: runtime/period on a deadline task. */
	CU_ASSERT_EQUAL(c->sched.dl_runtime_us, 200);
	CU_ASSERT_EQUAL(c->sched.dl_period_us, 1000);
	CU_ASSERT_EQUAL(c->sched.dl_deadline_us, 1000);
	CU_ASSERT_EQUAL(c->loop, -1);
	workload_free(&w);
}

static const struct {
	const char *text;
	const char *diag;  /* the first diagnostic, exactly */
	bool strict;
} bad[] = {
	{ "{\"tasks\": {\"a\": {\"run\": \"10\"}}}",
	  "w.json:1:25: error: \"run\" must be an integer, not string" , false },
	{ "{\"tasks\": {\"a\": {\"run\": 10, \"bogus\": 1}}}",
	  "w.json:1:29: warning: unknown key \"bogus\" in task \"a\" (rt-app ignores it)" , false },
	{ "{\"tasks\": {\"a\": {\"run\": 10, \"bogus\": 1}}}",
	  "w.json:1:29: error: unknown key \"bogus\" in task \"a\" (rt-app ignores it)", true },
	{ "{\"tasks\": {\"a\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 20,\n"
	  "  \"dl-deadline\": 10, \"dl-period\": 30, \"run\": 5}}}",
	  "w.json:1:17: error: task \"a\": dl-runtime 20 us exceeds dl-deadline 10 us" , false },
	{ "{\"tasks\": {\"a\": {\"policy\": \"SCHED_DEADLINE\", \"run\": 5}}}",
	  "w.json:1:17: error: SCHED_DEADLINE task \"a\" needs \"dl-runtime\" (us)" , false },
	{ "{\"tasks\": {\"a\": {\"policy\": \"SCHED_FOO\", \"run\": 5}}}",
	  "w.json:1:28: error: unknown policy \"SCHED_FOO\" (expected SCHED_OTHER, SCHED_BATCH, "
	  "SCHED_IDLE, SCHED_FIFO, SCHED_RR or SCHED_DEADLINE)" , false },
	{ "{\"tasks\": {\"a\": {\"cpus\": [3], \"run\": 5}}}",
	  "w.json:1:12: error: task \"a\" uses a CPU the platform does not have (it has 1)" , false },
	{ "{\"tasks\": {\"a\": {\"unlock\": \"m\"}}}",
	  "w.json:1:28: error: unlock of \"m\", which no task ever locks" , false },
	{ "{\"tasks\": {\"a\": {\"fork\": \"nobody\"}}}",
	  "w.json:1:26: error: fork of \"nobody\": no task has that name" , false },
	{ "{\"tasks\": {\"a\": {\"timer\": {\"ref\": \"t\"}}}}",
	  "w.json:1:27: error: timer \"timer\" needs a \"period\" in microseconds" , false },
	{ "{\"tasks\": {\"a\": {\"loop\": 2}}}",
	  "w.json:1:17: error: no events: a phase needs at least one of run, runtime, sleep, "
	  "timer, lock, unlock, wait, signal, broad, sync, suspend, resume, barrier, yield, "
	  "fork, mem, iorun, sem_post, sem_wait" , false },
	{ "{\"tasks\": {\"a\": {\"run\": -5}}}",
	  "w.json:1:25: error: \"run\" = -5 is too small (minimum 0)" , false },
	{ "{\"task\": {}}",
	  "w.json:1:2: error: unknown top-level key \"task\" (expected global, tasks, platform, "
	  "simulation, servers)" , false },
	{ "{\"tasks\": {\"a\": {\"phases\": {\"p\": {\"instance\": 2, \"run\": 1}}}}}",
	  "w.json:1:35: error: \"instance\" belongs in a task, not in a phase" , false },
	{ "{\"platform\": {\"cores\": 2}, \"tasks\": {\"a\": {\"run\": 1}}}",
	  "w.json:1:15: error: unknown key \"cores\" in platform (expected cpus, capacity, clusters, "
	  "tick_hz, tick_phase_us, mem_bw, io_bw, fair_server)" , false },
	/* A capacity list shorter than the CPUs leaves the rest at full
	 * speed, out loud; longer than "cpus" contradicts it. */
	{ "{\"platform\": {\"cpus\": 4, \"capacity\": [512, 1024]}, \"tasks\": {\"a\": {\"run\": 1}}}",
	  "w.json:1:38: warning: \"capacity\" lists 2 of the 4 CPUs: CPUs 2-3 run at 1024 "
	  "(full speed)", false },
	{ "{\"platform\": {\"cpus\": 2, \"capacity\": [512]}, \"tasks\": {\"a\": {\"run\": 1}}}",
	  "w.json:1:38: error: \"capacity\" lists 1 of the 2 CPUs: CPU 1 runs at 1024 "
	  "(full speed)", true },
	{ "{\"platform\": {\"capacity\": [512, 512, 512], \"cpus\": 2}, \"tasks\": {\"a\": {\"run\": 1}}}",
	  "w.json:1:27: error: \"capacity\" lists 3 CPUs but \"cpus\" is 2", false },
	/* A second section would drop one of the two. */
	{ "{\"tasks\": {\"a\": {\"run\": 1}},\n \"tasks\": {\"b\": {\"run\": 1}}}",
	  "w.json:2:2: error: a second \"tasks\" section (the first is at 1:2): one of them would "
	  "be dropped (rt-app's JSON reader keeps the last); merge them into one", false },
	{ "{\"platform\": {\"cpus\": 2}, \"platform\": {\"tick_hz\": 250}, \"tasks\": {\"a\": {\"run\": 1}}}",
	  "w.json:1:27: error: a second \"platform\" section (the first is at 1:2): one of them "
	  "would be dropped; merge them into one", false },
	{ "{\"tasks\": {\"a\": {\"run\": 1}},}x",
	  "w.json:1:30: error: unexpected text after the document" , false },
	{ "[1, 2]", "w.json:1:1: error: the workload must be a JSON object, not array" , false },
	{ "{\"simulation\": {\"admission\": \"sometimes\"}, \"tasks\": {\"a\": {\"run\": 1}}}",
	  "w.json:1:30: error: unknown admission \"sometimes\" (expected a percentage 1..100 or \"off\")" , false },
	{ "{\"simulation\": {\"admission\": 0}, \"tasks\": {\"a\": {\"run\": 1}}}",
	  "w.json:1:30: error: \"admission\" = 0 is too small (minimum 1)" , false },
	{ "{\"tasks\": {\"a\": {\"run\": {\"min\": 5, \"max\": 2}}}}",
	  "w.json:1:25: error: run needs \"min\" <= \"max\" (us)" , false },
	{ "{\"tasks\": {\"a\": {\"run\": []}}}",
	  "w.json:1:25: error: run: an empty list of execution times" , false },
	{ "{\"tasks\": {\"a\": {\"run\": [1, \"x\"]}}}",
	  "w.json:1:29: error: \"run\" must be an integer, not string" , false },
	{ "{\"tasks\": {\"a\": {\"job-deadline\": 0, \"run\": 1}}}",
	  "w.json:1:34: error: \"job-deadline\" = 0 is too small (minimum 1)" , false },
	{ "{\"platform\": {\"tick_hz\": -1}, \"tasks\": {\"a\": {\"run\": 1}}}",
	  "w.json:1:26: error: \"tick_hz\" = -1 is too small (minimum 0)" , false },
	{ "{\"simulation\": {\"reservations\": \"firm\"}, \"tasks\": {\"a\": {\"run\": 1}}}",
	  "w.json:1:33: error: unknown reservations \"firm\" (expected hard or soft)", false },
	{ "{\"tasks\": {\"a\": {\"dl-soft\": 1, \"run\": 1}}}",
	  "w.json:1:29: error: \"dl-soft\" must be a boolean, not number", false },
	{ "{\"tasks\": {\"a\": {\"dl-reclaim\": 1, \"run\": 1}}}",
	  "w.json:1:32: error: \"dl-reclaim\" must be a boolean, not number", false },
	{ "{\"tasks\": {\"a\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 4, "
	  "\"dl-period\": 40, \"dl-soft\": true, \"dl-reclaim\": true, \"run\": 1}}}",
	  "w.json:1:17: error: task \"a\": \"dl-soft\" and \"dl-reclaim\" exclude each "
	  "other (a soft reservation already runs into idle time)", false },
	/* Numbers: beyond 64 bits, fractions, zero runtime (given, too small). */
	{ "{\"tasks\": {\"a\": {\"run\": 99999999999999999999}}}",
	  "w.json:1:25: error: \"run\" is out of range (does not fit in 64 bits; expected "
	  "[0, 9223372036854775])", false },
	{ "{\"tasks\": {\"a\": {\"run\": 1e30}}}",
	  "w.json:1:25: error: \"run\" is out of range (does not fit in 64 bits; expected "
	  "[0, 9223372036854775])", false },
	{ "{\"tasks\": {\"a\": {\"run\": 1.5}}}",
	  "w.json:1:25: error: \"run\" must be an integer, not a fraction (1.5)", false },
	{ "{\"tasks\": {\"a\": {\"run\": 2.5e-1}}}",
	  "w.json:1:25: error: \"run\" must be an integer, not a fraction (0.25)", false },
	{ "{\"tasks\": {\"a\": {\"run\": 0.1}}}",
	  "w.json:1:25: error: \"run\" must be an integer, not a fraction (0.1)", false },
	{ "{\"tasks\": {\"a\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 0, \"run\": 5}}}",
	  "w.json:1:60: error: \"dl-runtime\" = 0 is too small (minimum 1)", false },
	/* workgen's bare entries: "suspend" takes the thread's own name. */
	{ "{\"tasks\": {\"a\": {\"suspend\", \"run\": 5}}}",
	  "w.json:1:18: warning: \"suspend\" has no value: read as \"suspend\": \"a\", "
	  "as rt-app's workgen fills it in", false },
	{ "{\"tasks\": {\"a\": {\"suspend\", \"run\": 5}}}",
	  "w.json:1:18: error: \"suspend\" has no value: read as \"suspend\": \"a\", "
	  "as rt-app's workgen fills it in", true },
	{ "{\"tasks\": {\"b\": {\"suspend\": \"\", \"run\": 5}}}",
	  "w.json:1:18: warning: \"suspend\" has an empty name: read as \"suspend\": \"b\", "
	  "as rt-app's workgen fills it in", false },
	{ "{\"tasks\": {\"a\": {\"run\", \"sleep\": 5}}}",
	  "w.json:1:18: error: \"run\" has no value (expected \"run\": value)", false },
};

static void test_diagnostics(void)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct workload w;
		int rc = load(&w, bad[i].text, bad[i].strict);
		bool is_warning = strstr(bad[i].diag, ": warning: ") != NULL;

		CU_ASSERT_EQUAL(rc, is_warning ? 0 : -1);
		CU_ASSERT_FATAL(w.nr_diags >= 1);
		if (strcmp(w.diags[0], bad[i].diag))
			fprintf(stderr, "case %zu:\n got  %s\n want %s\n", i, w.diags[0], bad[i].diag);
		CU_ASSERT_STRING_EQUAL(w.diags[0], bad[i].diag);
		workload_free(&w);
	}
}

/* Integral numbers written as 1e3 or 1000.0 read as the integer (rt-app's
 * json-c reader converts doubles); a bare "suspend" suspends on the task's
 * own name, which another task resumes. */
static void test_integral_and_bare(void)
{
	struct workload w;
	const char *text =
		"{ \"tasks\": {\n"
		"    \"w\": { \"loop\": 2, \"suspend\", \"run\": 1e3, \"yield\" },\n"
		"    \"k\": { \"loop\": 2.0, \"run\": 1000.0, \"resume\": \"w\", \"sleep\": 5E3,\n"
		"           \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 2e3, \"dl-period\": 1e4 }\n"
		"} }";

	CU_ASSERT_EQUAL_FATAL(load(&w, text, false), 0);
	CU_ASSERT_EQUAL(w.warnings, 2); /* the two bare entries */
	CU_ASSERT_EQUAL_FATAL(w.nr_tasks, 2);
	const struct wl_phase *pw = &w.tasks[0].phases[0];
	CU_ASSERT_EQUAL(pw->loop, 2);
	CU_ASSERT_EQUAL_FATAL(pw->nr_events, 3);
	CU_ASSERT_EQUAL(pw->events[0].type, WL_SUSPEND);
	CU_ASSERT_STRING_EQUAL(pw->events[0].ref, "w");
	CU_ASSERT_EQUAL(pw->events[1].us, 1000);
	CU_ASSERT_EQUAL(pw->events[2].type, WL_YIELD);
	const struct wl_task *k = &w.tasks[1];
	CU_ASSERT_EQUAL(k->phases[0].loop, 2);
	CU_ASSERT_EQUAL(k->phases[0].events[0].us, 1000);
	CU_ASSERT_EQUAL(k->phases[0].events[2].us, 5000);
	CU_ASSERT_EQUAL(k->sched.dl_runtime_us, 2000);
	CU_ASSERT_EQUAL(k->sched.dl_period_us, 10000);
	workload_free(&w);
}

/* A phase or task that fails to parse leaves its slot to the next one; the
 * next must start from a clean slot (found by fuzzing: a stale event count
 * made the next phase write past its event array). */
static void test_failed_slot_reused(void)
{
	struct workload w;
	const char *text =
		"{ \"platform\": { \"cpus\": 2 },\n"
		"  \"tasks\": {\n"
		"    \"bad\": { \"cpus\": [1], \"delay\": 7,\n"
		"             \"phases\": { \"p\": { \"sleep\": 1, \"sleep\": 2, \"run\": true },\n"
		"                          \"q\": { \"run\": 3 } } },\n"
		"    \"good\": { \"run\": 4 }\n"
		"  } }\n";

	CU_ASSERT_EQUAL_FATAL(load(&w, text, false), -1);
	CU_ASSERT_EQUAL_FATAL(w.nr_diags, 1);
	CU_ASSERT_STRING_EQUAL(w.diags[0],
			       "w.json:4:64: error: \"run\" must be an integer, not boolean");
	/* "bad" keeps only its good phase q, with q's one event. */
	CU_ASSERT_EQUAL_FATAL(w.nr_tasks, 1);
	CU_ASSERT_STRING_EQUAL(w.tasks[0].name, "good");
	CU_ASSERT_TRUE(wl_cpuset_empty(&w.tasks[0].cpus));
	CU_ASSERT_EQUAL(w.tasks[0].delay_us, 0);
	CU_ASSERT_EQUAL_FATAL(w.tasks[0].nr_phases, 1);
	CU_ASSERT_EQUAL_FATAL(w.tasks[0].phases[0].nr_events, 1);
	CU_ASSERT_EQUAL(w.tasks[0].phases[0].events[0].us, 4);
	workload_free(&w);
}

/* "hotplug" given twice (two "simulation" sections, as a merged file has)
 * appends in file order; a rejected entry leaves nothing behind (found by
 * fuzzing: the second array was sized without the first one's entries). */
static void test_hotplug_repeated(void)
{
	struct workload w;
	const char *text =
		"{ \"platform\": { \"cpus\": 2 },\n"
		"  \"simulation\": { \"hotplug\": [ { \"cpu\": 1, \"at_us\": 10, \"online\": false } ] },\n"
		"  \"simulation\": { \"hotplug\": [ { \"cpu\": 1, \"at_us\": 20, \"online\": true },\n"
		"                                { \"cpu\": 0, \"at_us\": 30 } ] },\n"
		"  \"tasks\": { \"a\": { \"run\": 1 } } }\n";

	CU_ASSERT_EQUAL_FATAL(load(&w, text, true), 0);
	CU_ASSERT_EQUAL_FATAL(w.nr_hotplug, 3);
	CU_ASSERT_EQUAL(w.hotplug[0].at_us, 10);
	CU_ASSERT_FALSE(w.hotplug[0].online);
	CU_ASSERT_EQUAL(w.hotplug[1].at_us, 20);
	CU_ASSERT_TRUE(w.hotplug[1].online);
	CU_ASSERT_EQUAL(w.hotplug[2].cpu, 0);
	CU_ASSERT_EQUAL(w.hotplug[2].at_us, 30);
	CU_ASSERT_FALSE(w.hotplug[2].online);    /* not given: false */
	workload_free(&w);
}

/* The normalized dump: defaults made explicit, one line per task and phase,
 * events in file order with duplicates kept. */
static void test_dump(void)
{
	struct workload w;
	const char *text =
		"{ \"platform\": { \"cpus\": 2, \"clusters\": { \"big\": { \"cpus\": [1], "
		"\"capacity\": 900, \"power_busy_mw\": 500, \"power_idle_mw\": 10 } } },\n"
		"  \"simulation\": { \"seed\": 3, \"mode\": \"partitioned\",\n"
		"                  \"hotplug\": [ { \"cpu\": 1, \"at_us\": 5 } ] },\n"
		"  \"tasks\": { \"t\": { \"phases\": {\n"
		"    \"p\": { \"cpus\": [0], \"run\": 7, \"sleep\": 3, \"run\": 2,\n"
		"           \"timer\": { \"ref\": \"k\", \"period\": 20, \"mode\": \"absolute\" } },\n"
		"    \"q\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 4, \"dl-period\": 40,\n"
		"           \"lock\": \"m\", \"runtime\": 1, \"unlock\": \"m\" } } } } }\n";
	const char *want =
		"platform: 2 cpus, capacity 1024 900\n"
		"cpu 1: cluster big, power busy 500 mW idle 10 mW\n"
		"duration: -1 s, default policy SCHED_OTHER\n"
		"simulation: horizon 0 us, seed 3, mode partitioned\n"
		"hotplug: cpu 1 offline at 5 us\n"
		"task t: instance 1 loop -1 delay 0 us policy SCHED_OTHER prio 0\n"
		"  phase p loop 1 cpus 0x1: run=7 sleep=3 run=2 timer(k)=20(absolute)\n"
		"  phase q loop 1 policy SCHED_DEADLINE prio 0 dl 4/40/40 us: lock(m) runtime=1 "
		"unlock(m)\n";
	char got[1024];
	size_t n;
	FILE *f = tmpfile();

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL_FATAL(load(&w, text, true), 0);
	workload_dump(&w, f);
	rewind(f);
	n = fread(got, 1, sizeof(got) - 1, f);
	got[n] = 0;
	fclose(f);
	if (strcmp(got, want))
		fprintf(stderr, "got:\n%swant:\n%s", got, want);
	CU_ASSERT_STRING_EQUAL(got, want);
	workload_free(&w);
}

/* Soft reservations: the file's default, and a task's "dl-soft" over it. */
static void test_soft_reservations(void)
{
	struct workload w;
	const char *text =
		"{ \"simulation\": { \"reservations\": \"soft\" }, \"tasks\": {\n"
		"  \"a\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 4, \"dl-period\": 40, \"run\": 1 },\n"
		"  \"b\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 4, \"dl-period\": 40,\n"
		"         \"dl-soft\": false, \"run\": 1 } } }\n";

	CU_ASSERT_EQUAL_FATAL(load(&w, text, true), 0);
	CU_ASSERT_TRUE(w.soft_reservations);
	DLS_ASSERT_EQ_S64(w.tasks[0].sched.dl_soft, 0);
	DLS_ASSERT_EQ_S64(w.tasks[1].sched.dl_soft, -1);
	workload_free(&w);
	CU_ASSERT_EQUAL_FATAL(load(&w, "{\"tasks\": {\"a\": {\"policy\": \"SCHED_DEADLINE\", "
				  "\"dl-runtime\": 4, \"dl-period\": 40, \"dl-soft\": true, "
				  "\"run\": 1}}}", true), 0);
	CU_ASSERT_FALSE(w.soft_reservations);
	DLS_ASSERT_EQ_S64(w.tasks[0].sched.dl_soft, 1);
	workload_free(&w);
}

/* A "dl-reclaim" task is a hard reservation where the file makes soft the
 * default (DLS_FLAG_RECLAIM with DLS_FLAG_SOFT is refused by the library):
 * it is admitted and runs its 25 jobs of 1 ms in 1 s, as the dump says. */
static void test_reclaim_with_soft_default(void)
{
	struct workload w;
	struct sim_options opt = { .check = true, .quiet = true };
	struct sim_result res;
	const char *text =
		"{\"global\": {\"duration\": 1}, \"simulation\": {\"reservations\": \"soft\"},"
		" \"tasks\": {\"a\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 4000,"
		" \"dl-period\": 40000, \"dl-reclaim\": true, \"run\": 1000,"
		" \"timer\": {\"ref\": \"unique\", \"period\": 40000}}}}";
	char *dump = NULL;
	size_t len = 0;
	FILE *f;

	CU_ASSERT_EQUAL_FATAL(load(&w, text, true), 0);
	f = open_memstream(&dump, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	workload_dump(&w, f);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(dump, " dl 4000/40000/40000 us reclaim\n"));
	free(dump);
	CU_ASSERT_EQUAL(sim_run(&w, &opt, stdout, &res), 0);
	CU_ASSERT_EQUAL(res.exit_code, 0);
	CU_ASSERT_EQUAL(res.jobs, 25);
	CU_ASSERT_EQUAL(res.misses, 0);
	workload_free(&w);
}

/* EDF, synchronous release of (C, T) = (1, 4), (2, 6), (2, 8) ms: at time 0
 * the order is t1 [0,1], t2 [1,3], t3 [3,5]; so t3's first response is
 * 5 ms, and over the hyperperiod no job misses (U = 0.83). */
static void test_simulate_edf(void)
{
	struct workload w;
	struct sim_options opt = { .check = true, .quiet = true };
	struct sim_result res;
	const char *text =
		"{\"global\": {\"duration\": 1}, \"tasks\": {\n"
		"\"t1\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 1000, \"dl-period\": 4000,"
		" \"run\": 1000, \"timer\": {\"ref\": \"unique\", \"period\": 4000}},\n"
		"\"t2\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 2000, \"dl-period\": 6000,"
		" \"run\": 2000, \"timer\": {\"ref\": \"unique\", \"period\": 6000}},\n"
		"\"t3\": {\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 2000, \"dl-period\": 8000,"
		" \"run\": 2000, \"timer\": {\"ref\": \"unique\", \"period\": 8000}}}}";
	FILE *out = tmpfile();
	char line[256];
	bool seen = false;

	CU_ASSERT_EQUAL_FATAL(load(&w, text, true), 0);
	opt.quiet = false;
	CU_ASSERT_EQUAL(sim_run(&w, &opt, out, &res), 0);
	CU_ASSERT_EQUAL(res.exit_code, 0);
	/* 1 s: 250 + 167 + 125 jobs (the last ones end before the horizon). */
	CU_ASSERT_EQUAL(res.jobs, 250 + 167 + 125);
	CU_ASSERT_EQUAL(res.misses, 0);
	rewind(out);
	while (fgets(line, sizeof(line), out))
		if (!strncmp(line, "t3 ", 3)) {
			seen = true;
			CU_ASSERT_PTR_NOT_NULL(strstr(line, "    5.000ms"));
		}
	CU_ASSERT_TRUE(seen);
	fclose(out);
	workload_free(&w);
}

/* Overload on one CPU: U = 1.2 with admission passing each reservation is
 * impossible, so make the tasks best effort: misses must appear. */
static void test_simulate_overload(void)
{
	struct workload w;
	struct sim_options opt = { .check = true, .quiet = true };
	struct sim_result res;
	const char *text =
		"{\"global\": {\"duration\": 1}, \"tasks\": {\n"
		"\"a\": {\"run\": 6000, \"timer\": {\"ref\": \"unique\", \"period\": 10000}},\n"
		"\"b\": {\"run\": 6000, \"timer\": {\"ref\": \"unique\", \"period\": 10000}}}}";

	CU_ASSERT_EQUAL_FATAL(load(&w, text, true), 0);
	CU_ASSERT_EQUAL(sim_run(&w, &opt, stdout, &res), 0);
	CU_ASSERT_TRUE(res.misses > 0);
	workload_free(&w);
}

/* Every bundled example (each .json in examples/dlsim) loads with --strict
 * (vms.json, with a "servers" section, among them). */
static void test_examples_load_strict(void)
{
	DIR *d = opendir(DLSIM_EXAMPLES_DIR);
	struct dirent *de;
	unsigned int n = 0, servers = 0;
	bool has_servers;

	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		char path[512];
		struct workload w;
		int rc;

		if (len < 6 || strcmp(de->d_name + len - 5, ".json"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", DLSIM_EXAMPLES_DIR, de->d_name);
		rc = workload_load_file(&w, path, true);
		if (rc != 0)
			fprintf(stderr, "%s does not load strictly\n", path);
		CU_ASSERT_EQUAL(rc, 0);
		workload_print_diags(&w, stderr);
		has_servers = w.nr_servers > 0;
		workload_free(&w);
		n++;
		servers += has_servers;
	}
	closedir(d);
	CU_ASSERT(n >= 10); /* the examples the README and the goldens name */
	CU_ASSERT(servers >= 1); /* vms.json */
}

/* Files that cannot be workloads say why: a directory, a regular file over
 * the bound (refused from its size, before reading: the file here is
 * sparse), one that is missing. One at the bound's edge is read. */
static void test_file_bounds(void)
{
	char path[] = "/tmp/dlsim-bound-XXXXXX";
	const char *text = "{\"tasks\": {\"a\": {\"run\": 1}}}";
	struct workload w;
	int fd = mkstemp(path);

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	CU_ASSERT_EQUAL(workload_load_file(&w, path, true), 0);
	workload_free(&w);
	/* Padded with NULs to exactly the bound: read, then refused as JSON. */
	CU_ASSERT_FATAL(ftruncate(fd, WL_MAX_FILE_SIZE) == 0);
	CU_ASSERT_EQUAL(workload_load_file(&w, path, false), -1);
	CU_ASSERT_EQUAL(w.load_errno, 0);
	workload_free(&w);
	CU_ASSERT_FATAL(ftruncate(fd, (off_t)WL_MAX_FILE_SIZE + 1) == 0);
	CU_ASSERT_EQUAL(workload_load_file(&w, path, false), -2);
	CU_ASSERT_EQUAL(w.load_errno, EFBIG);
	CU_ASSERT_STRING_EQUAL(workload_load_error(&w),
			       "larger than 64 MiB, the limit for workload files");
	workload_free(&w);
	close(fd);
	unlink(path);
	CU_ASSERT_EQUAL(workload_load_file(&w, path, false), -2);
	CU_ASSERT_EQUAL(w.load_errno, ENOENT);
	workload_free(&w);
	CU_ASSERT_EQUAL(workload_load_file(&w, "/tmp", false), -2);
	CU_ASSERT_STRING_EQUAL(workload_load_error(&w), "is a directory");
	workload_free(&w);
}

static const struct dls_test_case cases[] = {
	{ "rt-app grammar", test_grammar },
	{ "diagnostics with positions", test_diagnostics },
	{ "integral numbers and workgen's bare entries", test_integral_and_bare },
	{ "failed phase or task leaves a clean slot", test_failed_slot_reused },
	{ "soft reservations", test_soft_reservations },
	{ "dl-reclaim under a soft default is hard", test_reclaim_with_soft_default },
	{ "repeated hotplug appends", test_hotplug_repeated },
	{ "normalized dump", test_dump },
	{ "EDF schedule by hand", test_simulate_edf },
	{ "overload misses", test_simulate_overload },
	{ "bundled examples are strict-clean", test_examples_load_strict },
	{ "unreadable files say why", test_file_bounds },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "dlsim workload", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	return dls_test_main(argc, argv, suites);
}
