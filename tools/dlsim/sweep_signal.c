/*
 * The signal that stops a sweep, and the temporary files that a second
 * one removes before it ends the process, below the sweep's other files:
 * sweep.c reads the signal, sweep_set.c and sweep_cli.c name their files.
 * A signal handler reaches only static storage, so these are the only
 * pieces of static state in dlsim; the handler stores the number, or, at
 * the second signal, unlinks the files and raises the signal again with
 * its default action.
 */
#include "sweep.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

/* Set by the handler, read by the worker threads: a lock-free atomic is
 * both async-signal-safe and free of a data race between threads (a
 * volatile sig_atomic_t is only the first). */
static atomic_int caught_signal;
/* the command's own outputs, then one per worker (a set it saves) */
#define TEMP_SLOTS_ALL (SWEEP_TEMP_SLOTS + SWEEP_MAX_JOBS)
static _Atomic(const char *) temp_files[TEMP_SLOTS_ALL];

static void remove_temp_files(void)
{
	for (int i = 0; i < TEMP_SLOTS_ALL; i++) {
		const char *path = atomic_load(&temp_files[i]);

		if (path)
			unlink(path);
	}
}

static void on_signal(int sig)
{
	int saved = errno;

	if (atomic_exchange_explicit(&caught_signal, sig, memory_order_relaxed)) {
		/* blocked until the handler returns, then fatal */
		remove_temp_files();
		signal(sig, SIG_DFL);
		raise(sig);
	}
	errno = saved;
}

void sweep_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void sweep_remove_on_signal(int slot, const char *path)
{
	atomic_store(&temp_files[slot], path);
}

int sweep_temp_claim(const char *path)
{
	for (int i = SWEEP_TEMP_SLOTS; i < TEMP_SLOTS_ALL; i++) {
		const char *none = NULL;

		if (atomic_compare_exchange_strong(&temp_files[i], &none, path))
			return i;
	}
	return -1;
}

void sweep_temp_release(int slot)
{
	if (slot >= SWEEP_TEMP_SLOTS && slot < TEMP_SLOTS_ALL)
		atomic_store(&temp_files[slot], NULL);
}

int sweep_caught_signal(void)
{
	return atomic_load_explicit(&caught_signal, memory_order_relaxed);
}
