/**
 * @file types.h
 * @brief The scheduler's objects, without the API: embed these in your own
 * task, thread or vCPU structures.
 *
 * Fields are labelled *public* (the integrator may set them before the object
 * is handed to the library), *read-only* (read them freely under the
 * runqueue lock) or *private* (the library's; do not touch).
 *
 * Growth policy (docs/rtos-integration.md, "Growth policy"): the structures
 * a caller allocates or fills end in reserved words, so that a release can
 * add a field without changing their size or the offset of any field:
 *  - objects the library initialises (dls_entity, dls_stats, dls_rq,
 *    dls_domain) end in @c reserved words that the init function zeroes
 *    (dls_entity_init(), dls_domain_init()); a new field takes reserved
 *    words and starts at zero, meaning "as before";
 *  - structures the caller fills (dls_domain_config, dls_ops) end in
 *    @c reserved words or slots the caller leaves zero (a designated
 *    initializer, `= { 0 }` or dls_domain_config_default() does);
 *    dls_domain_init() refuses non-zero ones with DLS_EINVAL, so a later
 *    release can give them a meaning whose zero is today's behaviour;
 *  - dls_params, dls_timer, dls_earliest and the tree nodes of rbtree.h
 *    are frozen: they change only with the major version (the soname).
 * Sizes and offsets are checked by tests/test_layout.c.
 *
 * NULL: pointer arguments are preconditions, asserted in checked builds
 * (DLSCHED_ENABLE_ASSERT) and not tested in release builds, except where a
 * parameter says it may be NULL; see common.h for the rule.
 */
#ifndef DLSCHED_TYPES_H
#define DLSCHED_TYPES_H

#include <dlsched/common.h>
#include <dlsched/rbtree.h>

/**
 * @addtogroup sched
 * @{
 */

/** @brief Ask for overrun notification through the entity's callback (see
 * dls_stats::overruns for what counts as an overrun). */
#define DLS_FLAG_OVERRUN 0x1u
/**
 * @brief Soft reservation (the original CBS, Abeni & Buttazzo 1998): when
 * the budget runs out the deadline moves one period later and the budget
 * is refilled at once, without throttling (work-conserving).
 */
#define DLS_FLAG_SOFT 0x2u
/**
 * @brief Bandwidth reclaiming (GRUB, Linux's SCHED_FLAG_RECLAIM): the
 * entity is charged at the rate of the runqueue's active bandwidth rather
 * than 1, so it runs into the bandwidth that blocked entities leave idle
 * (see cbs/grub.c for the rule). Not with DLS_FLAG_SOFT, which already
 * runs into all idle time: dls_params_check() refuses the pair
 * (DLS_EFLAGS).
 */
#define DLS_FLAG_RECLAIM 0x4u
/** @brief Every flag libdlsched knows; any other bit is refused. */
#define DLS_FLAGS_ALL (DLS_FLAG_OVERRUN | DLS_FLAG_SOFT | DLS_FLAG_RECLAIM)

/** @brief Smallest runtime accepted by the parameter check, in ns. */
#define DLS_RUNTIME_MIN 1024u

/** @brief Fractional bits of bandwidth values (as Linux's BW_SHIFT). */
#define DLS_BW_SHIFT 20
/** @brief Bandwidth 1.0 in DLS_BW_SHIFT fixed point. */
#define DLS_BW_UNIT (UINT64_C(1) << DLS_BW_SHIFT)
/** @brief Bandwidth limit value that disables admission control. */
#define DLS_BW_UNLIMITED UINT64_MAX

/** @brief Fractional bits of CPU capacities (as Linux's SCHED_CAPACITY_SHIFT). */
#define DLS_CAPACITY_SHIFT 10
/** @brief Capacity of a full-speed CPU: 1.0 in DLS_CAPACITY_SHIFT fixed point. */
#define DLS_CAPACITY_SCALE (1u << DLS_CAPACITY_SHIFT)

/**
 * @brief Reservation parameters of a deadline entity (all in ns).
 *
 * The CBS server of an entity receives @c runtime ns of CPU time every
 * @c period ns, to be consumed before @c deadline ns after each release.
 */
struct dls_params {
	uint64_t runtime;  /**< public: budget Q per instance */
	uint64_t deadline; /**< public: relative deadline D */
	uint64_t period;   /**< public: period P; 0 means P = D */
	uint32_t flags;    /**< public: DLS_FLAG_* bits */
};

/**
 * @brief A one-shot timer the library asks the platform to arm.
 *
 * Embedded in each entity (its replenishment timer). The platform keeps
 * whatever it needs in @c platform_data and calls dls_timer_expired() when
 * the timer fires.
 */
struct dls_timer {
	uint64_t expires;        /**< read-only: absolute expiry, ns */
	bool armed;              /**< read-only: armed and not yet expired */
	bool zero_lag;           /**< read-only: the entity's 0-lag timer
				      (dls_entity::inactive_timer), not its
				      replenishment timer */
	uintptr_t platform_data; /**< public: free for the platform's use */
};

/**
 * @brief Where an entity's bandwidth counts (GRUB, Abeni et al. RTLWS 2014):
 * an active entity's bandwidth is in its runqueue's active sum
 * (dls_rq::bw, @c running, Linux's running_bw).
 */
enum dls_bw_state {
	/** Not in running_bw: never woken, or blocked past its 0-lag time. */
	DLS_BW_INACTIVE = 0,
	/** Runnable (queued, running or throttled): in running_bw. */
	DLS_BW_CONTENDING = 1,
	/** Blocked before its 0-lag time: still in running_bw until the
	 *  0-lag timer fires. */
	DLS_BW_NON_CONTENDING = 2
};

/** @brief Per-entity statistics; counters only grow. */
struct dls_stats {
	uint64_t exec_time;        /**< time it ran, ns, scaled by the CPU's capacity
				        (wall time on a full-speed CPU) */
	uint64_t runtime_charged;  /**< budget charged against its runtime, ns: the
				        same as @c exec_time unless DLS_FLAG_RECLAIM,
				        which GRUB charges at its reclaiming rate
				        (less while others leave bandwidth idle) */
	uint64_t instances;        /**< instances started afresh (deadline = now + D, full
				        budget: first wake-up, a wake-up the CBS rule renewed);
				        not replenishments, which postpone the deadline */
	uint64_t jobs_done;        /**< instances the integrator reported done */
	uint64_t replenishments;   /**< budget replenishments */
	uint64_t throttles;        /**< times the budget ran out */
	uint64_t misses;           /**< instances whose deadline passed while running or
				        before dls_dequeue() with DLS_DEQUEUE_DONE; at most
				        one per started instance (see @c instances) */
	uint64_t max_lateness;     /**< worst lateness seen at a miss, ns */
	uint64_t lagged;           /**< replenishments that found the deadline behind now */
	uint64_t overruns;         /**< charges that took the runtime below 0 (more than the
				        budget) or found the deadline passed while running;
				        a job using exactly its budget is throttled, not counted */
	uint64_t wakeups_kept;     /**< wake-ups that kept deadline and runtime */
	uint64_t wakeups_renewed;  /**< wake-ups that started a new instance */
	uint64_t yields;           /**< calls to dls_yield() */
	uint64_t migrations;       /**< moves to another runqueue */
	uint64_t reserved[2];      /**< private: room for counters; zero */
};

struct dls_entity;
struct dls_rq;
struct dls_domain;
struct dls_cpumask;
struct dls_smp;
struct dls_class_hooks;

/**
 * @brief Per-entity overrun notification callback.
 *
 * Called from the charge (dls_update_curr(), dls_tick(), dls_dequeue(),
 * dls_yield(), ...) with the runqueue lock held, in the middle of the
 * update: @p se has been charged (its runtime is spent or its deadline
 * passed) but is not yet throttled or replenished, so the runqueue is
 * between two consistent states.
 * @note It may read @p se and its statistics, record the event and wake or
 * signal another thread. It must not call any libdlsched function on this
 * domain (nor dls_rq_check()), take a runqueue lock (this one is held), or
 * free or re-initialise @p se.
 */
typedef void (*dls_overrun_fn)(void *arg, struct dls_entity *se);

/**
 * @brief A deadline scheduling entity: embed it in your task.
 *
 * Initialise with dls_entity_init(), then attach it to a runqueue with
 * dls_entity_attach().
 */
struct dls_entity {
	struct dls_rb_node node;    /**< private: EDF tree node */
	struct dls_params params;   /**< read-only: configured parameters */
	uint64_t period;            /**< read-only: effective period (P, or D when 0) */
	uint64_t bw;                /**< read-only: Q/P, DLS_BW_SHIFT fixed point */
	int64_t runtime;            /**< read-only: remaining runtime, ns */
	uint64_t deadline;          /**< read-only: absolute deadline, ns */
	uint64_t pi_deadline;       /**< read-only: inherited deadline while boosted */
	uint64_t exec_start;        /**< private: start of the current charge interval */
	uint64_t seq;               /**< private: FIFO tie-break among equal deadlines */
	struct dls_rq *rq;          /**< read-only: runqueue attached to, or NULL */
	struct dls_timer timer;     /**< read-only: replenishment timer */
	dls_overrun_fn overrun_cb;  /**< public: called on overrun when DLS_FLAG_OVERRUN is set */
	void *overrun_arg;          /**< public: argument of @c overrun_cb */
	struct dls_stats stats;     /**< read-only: statistics */
	bool is_new;                /**< read-only: no instance started yet */
	bool runnable;              /**< read-only: the integrator considers it ready */
	bool queued;                /**< read-only: on the EDF tree */
	bool throttled;             /**< read-only: budget exhausted, waiting for replenishment */
	bool yielded;               /**< read-only: gave up the rest of its instance */
	bool boosted;               /**< read-only: running with an inherited deadline */
	bool missed;                /**< read-only: this instance already missed its deadline */
	/* Global scheduling (see smp.h). */
	struct dls_rb_node pushable_node;   /**< private: node in the rq's pushable tree */
	const struct dls_cpumask *allowed;  /**< read-only: CPUs it may use, NULL = all */
	int nr_cpus_allowed;                /**< read-only: CPUs of the domain it may use */
	struct dls_entity *attached_next;   /**< private: list of the rq's entities */
	struct dls_entity *attached_prev;   /**< private */
	/* Bandwidth reclaiming (GRUB). */
	struct dls_timer inactive_timer;    /**< read-only: 0-lag timer; armed only
						 while DLS_BW_NON_CONTENDING */
	enum dls_bw_state bw_state;         /**< read-only: active or inactive */
	/** private: non-zero for the host entity of a server (server.h),
	 *  zero for a plain entity */
	uint64_t server_tag;
	uint64_t reserved[3];               /**< private: room to grow; zero */
};

/** @brief Kinds of trace events. */
enum dls_trace_type {
	DLS_TRACE_ENQUEUE,   /**< entity entered the EDF tree */
	DLS_TRACE_DEQUEUE,   /**< entity left the EDF tree */
	DLS_TRACE_THROTTLE,  /**< budget exhausted; timer armed */
	DLS_TRACE_REPLENISH, /**< budget replenished */
	DLS_TRACE_LAGGED,    /**< replenishment found the deadline behind now */
	DLS_TRACE_MISS,      /**< deadline miss */
	DLS_TRACE_OVERRUN,   /**< runtime overrun (see dls_stats::overruns) */
	DLS_TRACE_YIELD,     /**< entity yielded */
	DLS_TRACE_PARAMS,    /**< parameters changed */
	DLS_TRACE_NEW,       /**< new instance started */
	DLS_TRACE_BOOST      /**< inherited deadline set or cleared */
};

/** @brief One trace event, passed to dls_ops::trace. */
struct dls_trace_event {
	enum dls_trace_type type;     /**< what happened */
	int cpu;                      /**< runqueue's CPU */
	uint64_t now;                 /**< clock at the event, ns */
	const struct dls_entity *se;  /**< the entity concerned */
	uint64_t deadline;            /**< its absolute deadline after the event */
	int64_t runtime;              /**< its remaining runtime after the event */
};

/**
 * @brief Platform operations, given once at domain init.
 *
 * Every callback takes the domain's @c ctx first. Slots marked optional may
 * be NULL.
 */
struct dls_ops {
	/** Current time of @p cpu's clock, ns (monotonic, may wrap). */
	uint64_t (*now)(void *ctx, int cpu);
	/**
	 * Arm (or re-arm) @p t to fire at @p abs_ns; when it fires the platform
	 * calls dls_timer_expired() with the runqueue lock held.
	 */
	void (*timer_arm)(void *ctx, struct dls_timer *t, uint64_t abs_ns);
	/**
	 * Cancel @p t. A callback already in flight is harmless: the library
	 * ignores expiries of timers it no longer has armed, or that arrive
	 * before their time.
	 */
	void (*timer_cancel)(void *ctx, struct dls_timer *t);
	/** @p cpu must call dls_schedule() (or pick again) soon. Never asked
	 *  of an offline CPU, except once by dls_cpu_offline() when it takes
	 *  away the entity that CPU runs (dls_schedule() there returns NULL). */
	void (*resched)(void *ctx, int cpu);
	/** Optional: lock @p cpu's runqueue (used by cross-CPU operations). */
	void (*lock)(void *ctx, int cpu);
	/** Optional: unlock @p cpu's runqueue. */
	void (*unlock)(void *ctx, int cpu);
	/**
	 * Optional: receives every trace event; costs one branch when NULL.
	 * Called with the event's runqueue lock held, often in the middle of
	 * an operation (between taking an entity off the tree and putting it
	 * back, before the counts are brought up to date): it may copy the
	 * event and read the entity's fields, but must not call libdlsched
	 * on this domain (nor its validators), take a runqueue lock, or free
	 * the entity.
	 */
	void (*trace)(void *ctx, const struct dls_trace_event *ev);
	/** Reserved slots for optional callbacks of later releases: leave
	 *  them NULL (dls_domain_init() refuses others). */
	void (*reserved[4])(void);
};

/** @brief CBS wake-up rule for constrained-deadline entities (D < P). */
enum dls_wakeup_rule {
	/** The 2012 rule: keep (deadline, runtime) if runtime/(deadline-now) <= Q/P, else renew. */
	DLS_WAKEUP_CBS = 0,
	/** Today's Linux (default): keep if runtime/(deadline-now) <= Q/D; else, for
	 *  D < P and a deadline still ahead, trim runtime to (Q/D) * (deadline - now). */
	DLS_WAKEUP_REVISED = 1
};

/** @brief What a running entity is charged when its deadline passes. */
enum dls_overrun_rule {
	/** Today's Linux (default): the budget is exhausted exactly when
	 *  runtime <= 0; a passed deadline costs nothing more. */
	DLS_OVERRUN_LINUX = 0,
	/** The 2012 behaviour: a deadline passed while the entity is ready
	 *  ends its instance; the runtime left at the deadline is forfeited
	 *  (time run after the deadline is charged once, as any other). */
	DLS_OVERRUN_2012 = 1
};

/** @brief When a throttled entity with D < P is replenished. */
enum dls_replenish_rule {
	/** Today's Linux (default): at the start of its next period,
	 *  deadline - D + P; an entity that wakes after its deadline but
	 *  before that instant stays throttled until it. */
	DLS_REPLENISH_NEXT_PERIOD = 0,
	/** The 2012 behaviour: at its deadline. */
	DLS_REPLENISH_AT_DEADLINE = 1
};

/** @brief Domain configuration; dls_domain_config_default() fills it. */
struct dls_domain_config {
	uint64_t period_min;  /**< smallest accepted period, ns (default 100 us) */
	uint64_t period_max;  /**< largest accepted period, ns (default 2^22 us) */
	uint64_t bw_limit;    /**< admission limit per full-speed CPU, DLS_BW_SHIFT
				   fixed point (default 95%); DLS_BW_UNLIMITED disables */
	enum dls_wakeup_rule wakeup_rule; /**< default DLS_WAKEUP_REVISED */
	enum dls_overrun_rule overrun_rule; /**< default DLS_OVERRUN_LINUX */
	enum dls_replenish_rule replenish_rule; /**< default DLS_REPLENISH_NEXT_PERIOD */
	uint64_t avg_period;  /**< half-life of dls_rq::avg, ns (default 500 ms) */
	/** room for settings of later releases: leave zero (the default
	 *  function does; dls_domain_init() refuses others) */
	uint64_t reserved[2];
};

/** @brief Earliest deadlines queued on a runqueue. */
struct dls_earliest {
	uint64_t curr; /**< earliest deadline; valid when nr_running >= 1 */
	uint64_t next; /**< second earliest; valid when nr_running >= 2 */
};

/**
 * @brief Bandwidth object (Linux's dl_bw with its dl_rq sums): admitted
 * bandwidth, the capacity and limit it is admitted against, GRUB's sums
 * and the lock that guards them. Every runqueue keeps one (dls_rq::bw,
 * under the runqueue lock): its attached bandwidth (Linux's this_bw) and
 * active bandwidth (running_bw); on a CPU scheduled on its own it is also
 * the admission state. A globally scheduled domain keeps one for all its
 * CPUs (dls_smp::bw, under the bandwidth lock of dls_smp_set_bw_lock()).
 * Admission, capacity changes and GRUB's Uextra are its methods; which
 * object admits an entity is the one its runqueue's domain picks (Linux's
 * dl_bw_of()).
 */
struct dls_bw {
	/** read-only: admitted bandwidth (DLS_BW_SHIFT fixed point); on a
	 *  runqueue of a global domain, the bandwidth attached there */
	uint64_t total;
	/** read-only: capacity admitted against (DLS_CAPACITY_SCALE = one
	 *  full-speed CPU): the runqueue's own, or the sum over the online
	 *  CPUs of a global domain */
	uint64_t capacity;
	/** read-only: admission limit per full-speed CPU
	 *  (dls_domain_config::bw_limit) */
	uint64_t limit;
	/** read-only: a runqueue's active bandwidth (GRUB's U_act, Linux's
	 *  running_bw): the sum of dls_entity::bw over its attached entities
	 *  not DLS_BW_INACTIVE, never above @c total; 0 in a domain's object */
	uint64_t running;
	uint64_t max_bw;   /**< read-only: GRUB's Umax: @c limit, at most DLS_BW_UNIT */
	uint64_t bw_ratio; /**< read-only: 1/Umax with 8 fractional bits (Linux's bw_ratio) */
	/** read-only (atomic): entities with DLS_FLAG_RECLAIM admitted by
	 *  this object; while it is 0 no 0-lag timer is armed for the
	 *  entities it admits (nobody there reclaims, so a blocked entity's
	 *  bandwidth may leave @c running at once). 0 in the object of a
	 *  runqueue of a global domain. */
	unsigned long nr_reclaiming;
	/** read-only: the object of a global domain (its CPUs share it;
	 *  Uextra is per full-speed CPU of @c capacity) */
	bool shared;
	const struct dls_lock_ops *lock_ops; /**< private: NULL = no lock */
	void *lock_ctx;                      /**< private: argument of lock_ops */
};

/** @brief One CPU's deadline runqueue. */
struct dls_rq {
	struct dls_rb_root_cached root; /**< private: EDF tree */
	struct dls_domain *dom;         /**< read-only: owning domain */
	struct dls_entity *curr;        /**< read-only: entity running here or NULL */
	struct dls_earliest earliest;   /**< read-only: earliest deadline cache */
	unsigned int nr_running;        /**< read-only: entities on the tree */
	unsigned int nr_attached;       /**< read-only: entities attached */
	int cpu;                        /**< read-only: CPU id */
	uint32_t capacity;              /**< read-only: 1024 = full speed */
	/** read-only: the bandwidth attached here (@c total, Linux's this_bw)
	 *  and active here (@c running, running_bw); on a CPU scheduled on
	 *  its own also its admission state */
	struct dls_bw bw;
	uint64_t seq;                   /**< private: tie-break counter */
	uint64_t avg;                   /**< read-only: decaying sum of deadline time consumed, ns */
	uint64_t avg_stamp;             /**< private: last decay instant */
	/* Global scheduling (see smp.h). */
	struct dls_rb_root_cached pushable; /**< private: queued, not running, movable */
	struct dls_entity *attached;    /**< private: list of attached entities */
	unsigned int nr_migratory;      /**< read-only: queued entities allowed elsewhere */
	bool overloaded;                /**< read-only: has entities another CPU could run */
	bool online;                    /**< read-only: CPU takes part in scheduling */
	/** private: the EDF tree's largest node, NULL when it is empty (in a
	 *  64-bit word on every ABI, taken from the reserved words) */
	union {
		struct dls_rb_node *node; /**< private: the node */
		uint64_t word;            /**< private: the word's width */
	} root_last;
	uint64_t reserved[3];           /**< private: room to grow; zero */
};

/**
 * @brief A scheduling domain (the root domain): platform ops, configuration
 * and the runqueues of its CPUs.
 */
struct dls_domain {
	const struct dls_ops *ops;      /**< read-only: platform operations */
	void *ctx;                      /**< read-only: first argument of every op */
	struct dls_domain_config cfg;   /**< read-only: configuration */
	struct dls_rq *rqs;             /**< read-only: caller-owned runqueue array */
	int nr_cpus;                    /**< read-only: number of runqueues */
	struct dls_smp *smp;            /**< read-only: global scheduling state, or NULL
					     when each CPU is scheduled on its own */
	/** private: what the runqueues call of global scheduling, installed
	 *  by dls_smp_init() with @c smp; NULL when each CPU is scheduled on
	 *  its own */
	const struct dls_class_hooks *hooks;
	uint64_t reserved[4];           /**< private: room to grow; zero */
};

/** @} */

#endif /* DLSCHED_TYPES_H */
