/*
 * Shared helpers for the CUnit suites: typed assertions that print both
 * operands, a deterministic PRNG with a printed seed, and a runner.
 */
#ifndef DLS_TEST_H
#define DLS_TEST_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "prng.h"

#include <CUnit/Basic.h>
#include <CUnit/CUnit.h>

/* Assert a == b for unsigned 64-bit values; prints both on failure. */
#define DLS_ASSERT_EQ_U64(a, b)                                                \
	do {                                                                   \
		uint64_t dls_a_ = (uint64_t)(a), dls_b_ = (uint64_t)(b);       \
		if (dls_a_ != dls_b_)                                          \
			fprintf(stderr,                                        \
				"%s:%d: %s == %s failed: 0x%" PRIx64           \
				" != 0x%" PRIx64 "\n",                         \
				__FILE__, __LINE__, #a, #b, dls_a_, dls_b_);   \
		CU_ASSERT_EQUAL_FATAL(dls_a_, dls_b_);                         \
	} while (0)

/* Assert a == b for signed 64-bit values (and error codes). */
#define DLS_ASSERT_EQ_S64(a, b)                                                \
	do {                                                                   \
		int64_t dls_a_ = (int64_t)(a), dls_b_ = (int64_t)(b);          \
		if (dls_a_ != dls_b_)                                          \
			fprintf(stderr,                                        \
				"%s:%d: %s == %s failed: %" PRId64             \
				" != %" PRId64 "\n",                           \
				__FILE__, __LINE__, #a, #b, dls_a_, dls_b_);   \
		CU_ASSERT_EQUAL_FATAL(dls_a_, dls_b_);                         \
	} while (0)

/* Assert a validator returned NULL (no violation); print its message. */
#define DLS_ASSERT_VALID(msg_expr)                                             \
	do {                                                                   \
		const char *dls_m_ = (msg_expr);                               \
		if (dls_m_)                                                    \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, \
				#msg_expr, dls_m_);                            \
		CU_ASSERT_PTR_NULL_FATAL(dls_m_);                              \
	} while (0)

/* The shared PRNG (tools/prng: xoshiro256**), deterministic, seeded. */
struct dls_test_rng {
	struct dls_prng p;
};

void dls_test_rng_seed(struct dls_test_rng *r, uint64_t seed);
uint64_t dls_test_rng_next(struct dls_test_rng *r);
/* Uniform in [0, n) for n > 0. */
uint64_t dls_test_rng_below(struct dls_test_rng *r, uint64_t n);

/*
 * Seed for randomized tests: DLS_TEST_SEED from the environment if set,
 * else @p dflt. Printed once per call so a failure can be replayed.
 */
uint64_t dls_test_seed(const char *what, uint64_t dflt);

/*
 * Iteration scale for randomized tests: DLS_TEST_SCALE (a percentage,
 * default 100) lets slow targets (qemu, sanitizers) shrink the long runs.
 */
uint64_t dls_test_scaled(uint64_t n);

/* How a child started by dls_test_run_child() ended. */
enum dls_test_child {
	DLS_CHILD_EXITED,  /* returned from fn (exit status 0) */
	DLS_CHILD_ABORTED, /* killed by SIGABRT: an assertion fired */
	DLS_CHILD_FAILED,  /* any other exit status or signal */
	DLS_CHILD_HUNG,    /* still running after the timeout; killed */
	DLS_CHILD_NO_FORK, /* fork() failed */
};

/*
 * Run fn(arg) in a forked child with stderr sent to /dev/null, waiting at
 * most timeout_ms. Death tests expect DLS_CHILD_ABORTED and skip on
 * DLS_CHILD_HUNG (emulators that never run forked children).
 */
enum dls_test_child dls_test_run_child(void (*fn)(void *), void *arg,
				       unsigned int timeout_ms);

/*
 * Run the program argv[0] (a path, or a name looked up in PATH) with @argv, its standard output and
 * error sent to the file @log, waiting at most timeout_ms. Returns its
 * exit status, or -1 if it could not start, died of a signal or hung
 * (then killed).
 */
int dls_test_run_cmd(char *const argv[], const char *log, unsigned int timeout_ms);

/*
 * Read the whole file @path into a NUL-terminated buffer (free() it);
 * NULL if it cannot be read. *len (if not NULL) is its size.
 */
char *dls_test_read_file(const char *path, size_t *len);

/*
 * Can this process start threads? Probed once in a child with a 5 s bound:
 * qemu-i386 with a dynamically linked glibc hangs in pthread_create.
 */
bool dls_test_threads_usable(void);

/* Return from the current test, with a notice, when threads cannot run. */
#define DLS_TEST_SKIP_WITHOUT_THREADS()                                        \
	do {                                                                   \
		if (!dls_test_threads_usable()) {                              \
			printf("[skip] threads do not run here "              \
			       "(pthread_create did not complete)\n");       \
			return;                                                \
		}                                                              \
	} while (0)

struct dls_test_case {
	const char *name;
	void (*fn)(void);
};

struct dls_test_suite {
	const char *name;
	const struct dls_test_case *cases; /* terminated by {NULL, NULL} */
};

/* Register and run suites (terminated by {NULL, NULL}); returns exit status. */
int dls_test_main(int argc, char **argv, const struct dls_test_suite *suites);

/* Run the same cases as @n suites, suite i named names[i] with CUnit
 * initialiser inits[i] (e.g. a clock base near the wrap); exit status. */
int dls_test_main_inits(int n, const char *const *names, int (*const *inits)(void),
			const struct dls_test_case *cases);

#endif /* DLS_TEST_H */
