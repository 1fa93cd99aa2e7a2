/**
 * @file analysis.h
 * @brief Schedulability tests and bounds for sporadic task sets under EDF.
 *
 * A task is a struct dls_params read as a sporadic task: runtime C (worst-case
 * execution time), relative deadline D and minimum inter-arrival time T
 * (period; 0 means T = D), with 0 < C <= D <= T (constrained deadlines); the
 * flags are ignored. Times are ns, or any integer unit used consistently.
 * CPUs are identical (unit speed) unless a function says otherwise.
 *
 * Every test fills a struct dls_analysis_result. A verdict of schedulable is
 * a proof; from a sufficient test, not schedulable means only "not shown".
 * A test refuses a set or platform outside the model its proof assumes with
 * DLS_EMODEL (implicit deadlines where it needs D = T, one CPU where it is a
 * uniprocessor test), and @c task then names the first task that breaks it
 * (n when the CPU count does). Apart from dls_analysis_uniform() and
 * dls_analysis_cbs_admit(), the tests model identical full-speed CPUs.
 *
 * The module is a leaf: it never calls the scheduler, allocates nothing,
 * keeps no state (every function is reentrant) and computes in integers,
 * with 128-bit products where 64 bits could overflow. A sufficient test rounds toward "not schedulable"
 * where it must round at all; an exact test that cannot decide in 128 bits
 * returns DLS_ERANGE.
 */
#ifndef DLSCHED_ANALYSIS_H
#define DLSCHED_ANALYSIS_H

#include <dlsched/common.h>
#include <dlsched/types.h>

/**
 * @defgroup analysis Schedulability analysis
 * @brief Uniprocessor, global and partitioned EDF tests, tardiness bound,
 * CBS admission and periodic-resource budgets.
 *
 * @code
 * struct dls_params ts[] = { { 1, 3, 4, 0 }, { 2, 6, 8, 0 }, { 3, 10, 12, 0 } };
 * struct dls_analysis_result r;
 *
 * if (dls_analysis_qpa(ts, 3, &r) == 0 && !r.schedulable)
 *         printf("demand exceeds supply at t = %llu\n", (unsigned long long)r.at);
 * @endcode
 * @note No function takes a lock or calls back; all may run in any context
 * and concurrently on distinct or shared (read-only) inputs.
 * @{
 */

/** @brief Outcome of one test. */
struct dls_analysis_result {
	bool schedulable; /**< the verdict */
	size_t task;      /**< index of the first task the verdict fails on
			   *   (or that a partition could not place) */
	uint64_t at;      /**< QPA: the first deadline t with demand h(t) > t;
			   *   RTA: the failing task's response bound */
	uint64_t value;   /**< the test's figure: utilisation or density
			   *   (DLS_BW_UNIT = 1.0, truncated), tardiness bound,
			   *   budget, admitted bandwidth */
	int error;        /**< CBS admission: 0, or the DLS_E* code that
			   *   refuses @c task */
};

/** @brief Partitioning heuristics (decreasing by the chosen key). */
enum dls_analysis_fit {
	DLS_FIT_FIRST, /**< first CPU, in index order, that passes */
	DLS_FIT_BEST,  /**< the most loaded CPU that passes */
	DLS_FIT_WORST  /**< the least loaded CPU that passes */
};

/**
 * @brief Check a task set: 0 < C <= D <= T, no value with bit 63 set.
 * @param[in] ts tasks. @param[in] n number of tasks (0 is a valid set).
 * @retval 0 valid. @retval DLS_EINVAL @p ts NULL with n > 0, or C = 0.
 * @retval DLS_ETOPBIT, DLS_EDEADLINE_ZERO, DLS_ERUNTIME_GT_DEADLINE,
 * DLS_EDEADLINE_GT_PERIOD as dls_params_check() names them.
 */
DLS_API int dls_analysis_check(const struct dls_params *ts, size_t n);

/**
 * @brief Demand bound h(t) = sum over D_i <= t of (floor((t - D_i) / T_i) + 1) C_i
 * of synchronous release, saturating at UINT64_MAX.
 * @param[in] ts valid tasks. @param[in] n count. @param[in] t interval length.
 * @return h(t).
 */
DLS_API uint64_t dls_analysis_dbf(const struct dls_params *ts, size_t n, uint64_t t);

/**
 * @brief Utilisation test sum C_i / T_i <= m; with @p density, the density
 * test sum C_i / D_i <= 1. Exact rational comparison.
 *
 * The utilisation test decides EDF on one CPU with D = T (Liu & Layland,
 * JACM 1973); on any set U > m proves that no scheduler meets every
 * deadline. The density test is sufficient for EDF on one CPU (on m CPUs,
 * dls_analysis_gfb() is its form).
 * @param[in] ts tasks. @param[in] n count. @param[in] m CPUs.
 * @param[in] density compare densities.
 * @param[out] r verdict; @c value is the sum, also with DLS_EMODEL.
 * @retval 0 done. @retval DLS_EINVAL bad set, m < 1 or r NULL.
 * @retval DLS_EMODEL no verdict: U <= m with a task of D < T (@c task) or
 * with m > 1 (@c task = n); or the density test with m > 1.
 * @retval DLS_ERANGE the sum is within 2^-32 of m and the periods' LCM
 * exceeds 64 bits, so the comparison is undecided.
 */
DLS_API int dls_analysis_utilization(const struct dls_params *ts, size_t n, int m,
				     bool density, struct dls_analysis_result *r);

/**
 * @brief Exact EDF test on one CPU: the processor-demand criterion decided
 * by Quick Processor-demand Analysis (Zhang & Burns, IEEE TC 2009).
 * @param[in] ts tasks. @param[in] n count.
 * @param[out] r verdict; when not schedulable, @c at is the first absolute
 * deadline t of synchronous release with h(t) > t (the earliest deadline a
 * synchronous EDF schedule misses) and @c value is h(at).
 * @retval 0 done. @retval DLS_EINVAL bad set or r NULL.
 * @retval DLS_ERANGE the test interval does not fit 64 bits.
 */
DLS_API int dls_analysis_qpa(const struct dls_params *ts, size_t n,
			     struct dls_analysis_result *r);

/**
 * @brief Global EDF on @p m CPUs, sufficient tests: GFB (Goossens, Funk &
 * Baruah 2003, density form), BAK (Baker 2003), BCL (Bertogna, Cirinei &
 * Lipari 2005).
 * @param[in] ts tasks. @param[in] n count. @param[in] m CPUs.
 * @param[out] r verdict; @c task is the first task the test cannot show.
 * @retval 0 done. @retval DLS_EINVAL bad set, m < 1 or r NULL.
 * @retval DLS_ERANGE (GFB, BAK) the sum lies too close to the bound for
 * 32-bit fixed point to tell and the LCM of its denominators exceeds 64
 * bits, so it is undecided. Every comparison is exact, so no verdict
 * depends on the time unit.
 */
DLS_API int dls_analysis_gfb(const struct dls_params *ts, size_t n, int m,
			     struct dls_analysis_result *r);
/** @copydoc dls_analysis_gfb */
DLS_API int dls_analysis_bak(const struct dls_params *ts, size_t n, int m,
			     struct dls_analysis_result *r);
/** @copydoc dls_analysis_gfb */
DLS_API int dls_analysis_bcl(const struct dls_params *ts, size_t n, int m,
			     struct dls_analysis_result *r);

/**
 * @brief Global EDF on uniform CPUs (Funk, Goossens & Baruah, RTSS 2001):
 * schedulable when sum u_i <= S - lambda u_max, where S is the total speed
 * and lambda = max_i (sum_{j>i} s_j) / s_i over the speeds sorted
 * decreasing. Stated for implicit deadlines; with D < T densities C/D
 * replace utilisations. On identical CPUs it is dls_analysis_gfb().
 * Exact rational comparison. It guarantees uniform EDF, which runs the
 * earliest-deadline jobs on the fastest CPUs at every instant; the
 * library's global EDF places as Linux does (a running job is not moved to
 * a faster CPU that frees up), so on mixed capacities it is no guarantee
 * for the library's schedule.
 * @param[in] ts tasks (C is work at full speed). @param[in] n count.
 * @param[in] capacity @p m speeds (DLS_CAPACITY_SCALE = full speed, each
 * > 0), NULL for all full speed. @param[in] m CPUs.
 * @param[out] r verdict; @c value is the left side sum u_i + lambda u_max
 * (DLS_BW_UNIT = 1.0, truncated; GFB's figure on identical CPUs), @c task
 * the task with the largest density.
 * @retval 0 done. @retval DLS_EINVAL bad set, m < 1, a capacity 0 or r NULL.
 * @retval DLS_ERANGE as dls_analysis_utilization().
 */
DLS_API int dls_analysis_uniform(const struct dls_params *ts, size_t n,
				 const uint32_t *capacity, int m,
				 struct dls_analysis_result *r);

/**
 * @brief Iterative response-time test for global EDF (Bertogna & Cirinei,
 * RTSS 2007): rounds of per-task fixed points, each using the slacks
 * D - R found so far, until no bound changes or 64 rounds have run. Each
 * bound is the least fixed point of the paper's iteration, found over the
 * linear pieces of its interference sum (the work does not grow with the
 * time unit); past 32 pieces a step advances at least (D - C) / 256 (safe,
 * possibly above the least fixed point).
 *
 * Unlike the other tests, RTA depends on the time unit: the paper's
 * analysis is in discrete time, its floor() and its R - C + 1 count whole
 * units, so a bound, and now and then the verdict, differs between the
 * same set in us and in ns (9 of 3,200 random sets of 1 to 8 CPUs flipped;
 * schedcat's RTA flips the same way). Each result is the paper's with that
 * unit as the time quantum. The forced steps past 32 pieces depend on the
 * unit too.
 * @param[in] ts tasks. @param[in] n count. @param[in] m CPUs.
 * @param[out] resp n entries: each task's response-time bound (valid when
 * schedulable; a failing task's entry is D + 1).
 * @param[out] r verdict; @c task and @c at name a task whose bound exceeds D.
 * @retval 0 done. @retval DLS_EINVAL bad set, m < 1, resp or r NULL.
 */
DLS_API int dls_analysis_rta(const struct dls_params *ts, size_t n, int m,
			     uint64_t *resp, struct dls_analysis_result *r);

/**
 * @brief Tardiness bound of global EDF for implicit deadlines (Devi &
 * Anderson, RTSS 2005) as Linux's sched-deadline.rst §3 states it: with
 * sum C_i / T_i <= m, no job finishes later than its deadline plus
 * ((m - 1) C_max - C_min) / (m - (m - 2) U_max) + C_max.
 * The proof is for implicit deadlines (D = T); with D < T EDF orders jobs
 * by D and no bound is claimed: even on one CPU with U < 1 such a set can
 * miss (DLS_EMODEL).
 * @param[in] ts tasks. @param[in] n count. @param[in] m CPUs, 2 or more
 * (one CPU: bound 0 when U <= 1, Liu & Layland).
 * @param[out] r @c schedulable when the bound exists (false: U > m, the
 * lateness grows without bound), @c value the bound rounded up.
 * @retval 0 done. @retval DLS_EINVAL bad set, m < 1 or r NULL.
 * @retval DLS_EMODEL a task has D < T (@c task names the first).
 * @retval DLS_ERANGE as dls_analysis_utilization().
 */
DLS_API int dls_analysis_tardiness(const struct dls_params *ts, size_t n, int m,
				   struct dls_analysis_result *r);

/**
 * @brief Scratch bytes dls_analysis_partition() needs.
 * @param[in] n tasks. @param[in] m CPUs.
 * @return the size, suitably aligned for any object.
 */
DLS_API size_t dls_analysis_partition_size(size_t n, int m);

/**
 * @brief Partitioned EDF: tasks in decreasing utilisation (or density)
 * order, ties by index, each put on a CPU chosen by @p fit among those whose
 * set stays schedulable by dls_analysis_qpa(). CPU loads (the sum of the
 * key) are compared exactly, equal loads in CPU index order; only when the
 * LCM of two CPUs' denominators exceeds 64 bits do loads within n 2^-64 of
 * each other count as equal. A task that fits nowhere proves nothing about
 * other placements (not schedulable means not shown).
 * @param[in] ts tasks. @param[in] n count. @param[in] m CPUs.
 * @param[in] fit heuristic. @param[in] by_density order and load by C/D.
 * @param[out] cpu_of n entries: each task's CPU, -1 for tasks not placed.
 * @param[in] scratch dls_analysis_partition_size() bytes, max-aligned.
 * @param[out] r verdict; @c task is the first task that fit nowhere.
 * @retval 0 done. @retval DLS_EINVAL bad set or argument.
 * @retval DLS_ERANGE from a per-CPU test.
 */
DLS_API int dls_analysis_partition(const struct dls_params *ts, size_t n, int m,
				   enum dls_analysis_fit fit, bool by_density,
				   int *cpu_of, void *scratch,
				   struct dls_analysis_result *r);

/**
 * @brief The library's admission control on a set: each task's parameters
 * pass dls_params_check() under @p cfg and the sum of dls_params_bw() stays
 * within cfg->bw_limit times the CPUs' capacity (the rule attach applies).
 * @param[in] cfg domain configuration, NULL for the defaults.
 * @param[in] capacity @p m capacities (DLS_CAPACITY_SCALE = full speed),
 * NULL for all full speed. @param[in] m CPUs.
 * @param[in] ts tasks. @param[in] n count.
 * @param[out] r verdict; @c value is the admitted bandwidth sum; when
 * refused, @c task is the first task attach would refuse (attaching in index
 * order) and @c error why (a dls_params_check() code, or DLS_EBANDWIDTH).
 * @retval 0 done. @retval DLS_EINVAL r NULL, ts NULL with n > 0, or m < 1.
 */
DLS_API int dls_analysis_cbs_admit(const struct dls_domain_config *cfg,
				   const uint32_t *capacity, int m,
				   const struct dls_params *ts, size_t n,
				   struct dls_analysis_result *r);

/**
 * @brief Supply-bound function of the periodic resource (Pi, Theta) (Shin
 * & Lee, RTSS 2003): the least CPU time it supplies in any interval of @p t.
 * @param[in] period Pi > 0. @param[in] budget Theta <= Pi. @param[in] t length.
 * @return sbf(t); 0 for bad arguments.
 */
DLS_API uint64_t dls_analysis_prm_sbf(uint64_t period, uint64_t budget, uint64_t t);

/**
 * @brief Smallest budget Theta such that EDF schedules the set inside the
 * periodic resource (@p period, Theta): h(t) <= sbf(t) at every deadline.
 * Budgets with Theta / Pi equal to the set's utilisation (and Theta < Pi)
 * are not considered (the test interval is unbounded there).
 * @param[in] ts tasks. @param[in] n count. @param[in] period Pi.
 * @param[out] r @c schedulable when a budget <= Pi exists, @c value Theta.
 * @retval 0 done. @retval DLS_EINVAL bad set, period 0 or r NULL.
 * @retval DLS_ERANGE a test interval does not fit 64 bits.
 */
DLS_API int dls_analysis_prm_budget(const struct dls_params *ts, size_t n,
				    uint64_t period, struct dls_analysis_result *r);

/** @} */

#endif /* DLSCHED_ANALYSIS_H */
