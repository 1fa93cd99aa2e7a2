/*
 * Error strings and the assertion handler.
 */
#include "internal.h"

#if !defined(DLSCHED_FREESTANDING)
#include <stdio.h>
#include <stdlib.h>
#endif

const char *dls_strerror(int err)
{
	switch (err) {
	case 0:
		return "success";
#define DLS__ERRNO_MSG(name, val, msg)                                         \
	case DLS_##name:                                                       \
		return msg;
		DLS_ERRNO_MAP(DLS__ERRNO_MSG)
#undef DLS__ERRNO_MSG
	default:
		return "unknown error";
	}
}

const char *dls_errname(int err)
{
	switch (err) {
	case 0:
		return "DLS_OK";
#define DLS__ERRNO_NAME(name, val, msg)                                        \
	case DLS_##name:                                                       \
		return "DLS_" #name;
		DLS_ERRNO_MAP(DLS__ERRNO_NAME)
#undef DLS__ERRNO_NAME
	default:
		return "DLS_E?";
	}
}

void dls__assert_fail(const char *expr, const char *file, int line,
		      const char *func)
{
#if defined(DLSCHED_FREESTANDING)
	(void)expr;
	(void)file;
	(void)line;
	(void)func;
	__builtin_trap();
#else
	fprintf(stderr, "libdlsched: %s:%d: %s: assertion '%s' failed\n", file,
		line, func, expr);
	fflush(stderr);
	abort();
#endif
}
