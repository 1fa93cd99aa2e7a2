/*
 * The admission rule (src/cbs/admission.c), shared by the runqueue set-up
 * (src/edf/domain.c), the global domain (src/edf/smp*.c) and the analysis
 * module: the admitted bandwidth @total (DLS_BW_UNIT = 1.0) may not exceed
 * the limit times the capacity (DLS_CAPACITY_SCALE = one full-speed CPU),
 * compared exactly in 128 bits. Never installed.
 */
#ifndef DLSCHED_ADMISSION_IMPL_H
#define DLSCHED_ADMISSION_IMPL_H

#include <dlsched/types.h>

#include "internal.h"

/* Whether @total fits @limit (per full-speed CPU) times @capacity. */
DLS_HIDDEN bool dls__bw_fits(uint64_t limit, uint64_t total, uint64_t capacity);

/* Whether an entity's bandwidth may change from @old_bw to @new_bw within
 * @total: giving bandwidth back always may. */
DLS_HIDDEN bool dls__bw_change_fits(uint64_t limit, uint64_t total,
				    uint64_t capacity, uint64_t old_bw,
				    uint64_t new_bw);

#endif /* DLSCHED_ADMISSION_IMPL_H */
