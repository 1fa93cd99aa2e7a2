/*
 * Child-process helpers for the suites: death tests (an assertion must
 * abort), the "can threads run here?" probe, running a program and
 * reading a file it wrote.
 *
 * Some qemu-user setups (qemu-i386 with a dynamically linked i686 glibc)
 * never finish a forked child or a pthread_create; both helpers wait with a
 * bound and report HUNG instead of blocking the suite until ctest's timeout.
 */
#define _POSIX_C_SOURCE 200809L

#include "dls_test.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum dls_test_child dls_test_run_child(void (*fn)(void *), void *arg,
				       unsigned int timeout_ms)
{
	int status = 0;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return DLS_CHILD_NO_FORK;
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stderr))
			_exit(3);
		fn(arg);
		_exit(0);
	}
	for (unsigned int waited = 0; waited <= timeout_ms; waited += 10) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		if (waitpid(pid, &status, WNOHANG) == pid) {
			if (WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT)
				return DLS_CHILD_ABORTED;
			if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
				return DLS_CHILD_EXITED;
			return DLS_CHILD_FAILED;
		}
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return DLS_CHILD_HUNG;
}

static void *probe_noop(void *arg)
{
	return arg;
}

static void probe_thread(void *arg)
{
	pthread_t t;

	(void)arg;
	if (pthread_create(&t, NULL, probe_noop, NULL) != 0)
		_exit(1);
	pthread_join(t, NULL);
}

bool dls_test_threads_usable(void)
{
	static int cached = -1;

	if (cached < 0)
		cached = dls_test_run_child(probe_thread, NULL, 5000) ==
			 DLS_CHILD_EXITED;
	return cached != 0;
}

int dls_test_run_cmd(char *const argv[], const char *log, unsigned int timeout_ms)
{
	int status = 0;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (!freopen(log, "w", stdout) || dup2(fileno(stdout), 2) < 0)
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	for (unsigned int waited = 0; waited <= timeout_ms; waited += 1) {
		struct timespec ts = { 0, 1000 * 1000 };

		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return -1;
}

char *dls_test_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		size_t k;

		if (n + 4096 + 1 > cap) {
			char *b = realloc(buf, cap = 2 * cap + 4096 + 1);

			if (!b) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = b;
		}
		k = fread(buf + n, 1, cap - n - 1, f);
		n += k;
		if (k == 0)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}
