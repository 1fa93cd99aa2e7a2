/*
 * Links only the POSIX platform component (dlsched::posix, which brings
 * core and the threads library; dlsched-posix.pc). Exits 0 when its clock
 * and lock behave.
 */
#include <stdio.h>

#include <dlsched/posix.h>

int main(void)
{
	struct dls_posix_clock c;
	struct dls_posix_lock l;
	uint64_t t0, t1;

	if (dls_posix_clock_init(&c, DLS_POSIX_CLOCK_MONOTONIC) != 0) {
		fprintf(stderr, "consumer posix: no monotonic clock\n");
		return 1;
	}
	t0 = dls_posix_clock_now(&c);
	if (dls_posix_lock_init(&l, DLS_POSIX_LOCK_MUTEX) != 0) {
		fprintf(stderr, "consumer posix: lock init\n");
		return 1;
	}
	dls_posix_lock_acquire(&l);
	dls_posix_lock_release(&l);
	dls_posix_lock_destroy(&l);
	t1 = dls_posix_clock_now(&c);
	if (dls_time_before(t1, t0)) {
		fprintf(stderr, "consumer posix: the monotonic clock went back\n");
		return 1;
	}
	printf("consumer posix: libdlsched %d.%d.%d works\n", DLSCHED_VERSION_MAJOR,
	       DLSCHED_VERSION_MINOR, DLSCHED_VERSION_PATCH);
	return 0;
}
