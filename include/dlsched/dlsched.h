/**
 * @file dlsched.h
 * @brief Umbrella header: the whole public API of libdlsched.
 *
 * Including this one header is enough for every module. Projects that embed
 * only our types in their own structures can include dlsched/types.h, and
 * single modules can be included on their own (dlsched/rbtree.h,
 * dlsched/math128.h, ...). The POSIX platform headers are included only when
 * the library was built with them (DLSCHED_HAVE_POSIX).
 *
 * @code
 * #include <dlsched/dlsched.h>
 *
 * printf("libdlsched %d.%d.%d\n", DLSCHED_VERSION_MAJOR,
 *        DLSCHED_VERSION_MINOR, DLSCHED_VERSION_PATCH);
 * @endcode
 *
 * NULL: pointer arguments are preconditions, asserted in checked builds
 * (DLSCHED_ENABLE_ASSERT) and not tested in release builds, except where a
 * parameter says it may be NULL; see common.h for the rule.
 */
#ifndef DLSCHED_DLSCHED_H
#define DLSCHED_DLSCHED_H

#include <dlsched/config.h>
#include <dlsched/common.h>
#include <dlsched/math128.h>
#include <dlsched/rbtree.h>
#include <dlsched/types.h>
#include <dlsched/sched.h>
#include <dlsched/cpumask.h>
#include <dlsched/smp.h>
#include <dlsched/pi.h>
#include <dlsched/server.h>
#include <dlsched/analysis.h>

#if DLSCHED_HAVE_POSIX
#include <dlsched/pi_posix.h>
#include <dlsched/posix.h>
#endif

#endif /* DLSCHED_DLSCHED_H */
