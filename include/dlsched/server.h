/**
 * @file server.h
 * @brief Server entities: a deadline reservation whose work is not its own
 * (hierarchical CBS, Lipari & Baruah, RTAS 2001; Linux's dl_server).
 *
 * A server is a deadline entity on a host runqueue that asks an inner
 * scheduler whether it has work and what runs (dls_server_ops). The time
 * the inner work runs is the server's: the host charges its budget; when it
 * is throttled nothing inside runs; when it has no work it blocks as a
 * plain entity does (the CBS wake-up rule applies at dls_server_start(),
 * GRUB's states too). The inner scheduler may be anything: a second
 * libdlsched domain (a guest: dls_server_guest_ops, one server per vCPU),
 * a fixed-priority queue, or the lower classes of the host.
 *
 * @code
 * dls_server_init(&vcpu, &dls_server_guest_ops, &guest_rq[0], 0);
 * dls_server_attach(&host_rq[0], &vcpu, &(struct dls_params){ .runtime = Q, .deadline = P });
 * dls_server_start(&host_rq[0], &vcpu);        // the guest has work
 * void *what;
 * struct dls_entity *se = dls_server_schedule(&host_rq[0], &what);
 * // se: the host entity picked (the server); what: the guest entity to run
 * @endcode
 *
 * Lock contract: every function expects the host runqueue's lock held (as
 * sched.h); the ops are called with it held. With a guest domain inside,
 * the guest's runqueue locks nest inside the host's: pin each vCPU server
 * to one host CPU, and let the guest's resched op ask that host CPU to
 * call dls_server_schedule() (or dls_server_start() when it idles) rather
 * than take the host lock from inside the guest.
 */
#ifndef DLSCHED_SERVER_H
#define DLSCHED_SERVER_H

#include <dlsched/sched.h>

/**
 * @defgroup server Server entities
 * @brief Reservations that run an inner scheduler's work.
 * @{
 */

/** @brief dls_server_init(): defer the server (Linux's fair server, 6.12+):
 *  it only runs once its work has starved until zero laxity. */
#define DLS_SERVER_DEFER 0x1u

/** @brief What a server asks of its inner scheduler (all called with the
 *  host runqueue's lock held). */
struct dls_server_ops {
	/** Whether the inner scheduler has work to run (required). */
	bool (*has_work)(void *arg);
	/** The server runs on host CPU @p cpu from now, or, already running
	 *  there, the host rescheduled and kept it: what runs inside (pick
	 *  again), or NULL when nothing does (the server then stops and
	 *  blocks) (required). */
	void *(*pick)(void *arg, int cpu);
	/** The server stops running on @p cpu (preempted, throttled or
	 *  blocked): charge what ran inside up to now (required). */
	void (*stop)(void *arg, int cpu);
	/** DLS_SERVER_DEFER only: arm (or re-arm: it moves) the server's
	 *  deferral timer to @p abs_ns; when it fires, call
	 *  dls_server_timer_expired(). */
	void (*timer_arm)(void *arg, uint64_t abs_ns);
	/** DLS_SERVER_DEFER only: cancel that timer (an expiry in flight is
	 *  ignored by dls_server_timer_expired()). */
	void (*timer_cancel)(void *arg);
};

/** @brief Where a server is. */
enum dls_server_state {
	DLS_SERVER_IDLE = 0,  /**< no work: blocked on the host */
	DLS_SERVER_DEFERRED,  /**< DLS_SERVER_DEFER: work waits, the server
				   does not compete until its zero-laxity time */
	DLS_SERVER_ACTIVE     /**< runnable on the host (queued, running or
				   throttled) */
};

/** @brief Counters of a server; they only grow. */
struct dls_server_stats {
	uint64_t starts;        /**< dls_server_start() from idle */
	uint64_t picks;         /**< times it was picked with work inside */
	uint64_t empty_picks;   /**< picked with nothing inside: it blocked */
	uint64_t defers;        /**< deferred starts and background renewals */
	uint64_t defer_runs;    /**< zero-laxity times reached with work */
	uint64_t background_ns; /**< lower-class time charged while deferred */
};

/** @brief A server entity: embed it, or use it as it is. */
struct dls_server {
	struct dls_entity se;               /**< read-only: its host entity */
	const struct dls_server_ops *ops;   /**< read-only */
	void *arg;                          /**< read-only: argument of the ops */
	uint32_t flags;                     /**< read-only: DLS_SERVER_* */
	enum dls_server_state state;        /**< read-only */
	int cpu;                            /**< read-only: host CPU running it, or -1 */
	void *curr;                         /**< read-only: what runs inside, or NULL */
	uint64_t defer_at;                  /**< read-only: zero-laxity time while DEFERRED */
	bool timer_armed;                   /**< read-only: deferral timer armed */
	struct dls_server_stats stats;      /**< read-only */
	uint64_t reserved[2];               /**< private: zero */
};

/**
 * @brief Prepare a server (detached, idle).
 * @param[out] srv the server. @param[in] ops its inner scheduler's ops.
 * @param[in] arg their argument. @param[in] flags DLS_SERVER_*.
 * @retval 0 success.
 * @retval DLS_EINVAL a required op missing, DLS_SERVER_DEFER without the
 *         timer ops, or an unknown flag.
 */
DLS_API int dls_server_init(struct dls_server *srv,
			    const struct dls_server_ops *ops, void *arg,
			    uint32_t flags);

/**
 * @brief Attach a server to a host runqueue (admission as dls_entity_attach()).
 * @param[in,out] rq host runqueue (lock held). @param[in,out] srv the server.
 * @param[in] p its reservation. A deferred server refuses DLS_FLAG_SOFT and
 *            DLS_FLAG_RECLAIM (DLS_EFLAGS).
 * @return 0, or the error of dls_entity_attach(); nothing changed on error.
 */
DLS_API int dls_server_attach(struct dls_rq *rq, struct dls_server *srv,
			      const struct dls_params *p);

/**
 * @brief Work appeared inside an idle server: wake it on the host (CBS
 * wake-up rule), or, deferred, start its deferral. Nothing when not idle.
 * @param[in,out] rq its host runqueue (lock held). @param[in,out] srv the server.
 * @retval 0 success. @retval DLS_EDETACHED / DLS_EOTHERRQ as dls_wakeup().
 */
DLS_API int dls_server_start(struct dls_rq *rq, struct dls_server *srv);

/**
 * @brief The work inside is gone: block the server now (it would at its
 * next pick anyway). Nothing when idle.
 * @param[in,out] rq its host runqueue (lock held). @param[in,out] srv the server.
 * @retval 0 success. @retval DLS_EDETACHED / DLS_EOTHERRQ as dls_dequeue().
 */
DLS_API int dls_server_stop(struct dls_rq *rq, struct dls_server *srv);

/**
 * @brief dls_schedule() through servers: stop the server running here, pick
 * the earliest host entity, and when it is a server ask it what runs; a
 * server with nothing inside blocks and the pick goes on.
 * @param[in,out] rq host runqueue (lock held).
 * @param[out] what the entity to run (a plain host entity, or what the
 *             server's pick returned), NULL to idle.
 * @return the host entity current on @p rq (a server or a plain entity), or NULL.
 */
DLS_API struct dls_entity *dls_server_schedule(struct dls_rq *rq, void **what);

/**
 * @brief DLS_SERVER_DEFER: lower-class work ran @p delta ns on the server's
 * CPU outside the server; it counts against the deferred budget (a spent
 * budget starts a new period, still deferred). Nothing unless DEFERRED.
 * @param[in,out] rq host runqueue (lock held). @param[in,out] srv the server.
 * @param[in] delta ns.
 */
DLS_API void dls_server_background(struct dls_rq *rq, struct dls_server *srv,
				   uint64_t delta);

/**
 * @brief The deferral timer fired: at zero laxity with work, the server
 * competes under EDF with the budget and deadline it has (no wake-up rule),
 * on the runqueue it is attached to (a deferred server is per CPU, as
 * Linux's fair server: in a global domain pin it there).
 * @param[in,out] rq host runqueue (lock held). @param[in,out] srv the server.
 */
DLS_API void dls_server_timer_expired(struct dls_rq *rq, struct dls_server *srv);

/**
 * @brief The server an entity is, or NULL for a plain entity.
 * @param[in] se an entity. @return its server or NULL.
 */
DLS_API struct dls_server *dls_server_of(const struct dls_entity *se);

/**
 * @brief Validate a server against its host entity and inner scheduler.
 * @param[in] srv the server (host lock held). @return NULL, or the property violated.
 */
DLS_API const char *dls_server_check(const struct dls_server *srv);

/**
 * @brief Ops for a server backing one vCPU of a guest domain: @c arg is the
 * guest's dls_rq of that vCPU; pick is dls_schedule() there, stop
 * dls_put_prev() of its current entity. The guest domain's clock is the
 * host's and its resched op must reach the host CPU that runs the vCPU.
 */
DLS_API extern const struct dls_server_ops dls_server_guest_ops;

/**
 * @brief Admission inside a guest against the servers that back it: set
 * the guest domain's limit to the mean bandwidth of its @p nr servers, so
 * a global guest admits at most their sum (one vCPU each: its server's,
 * with equal servers). Before any entity is attached to the guest.
 * @param[in,out] guest the guest domain (dls_domain_init() done).
 * @param[in] srv its servers, attached. @param[in] nr their count, the
 *            guest's CPU count.
 * @retval 0 success. @retval DLS_EINVAL nr differs from the guest's CPUs,
 *         a server is detached, or the guest has attached entities.
 */
DLS_API int dls_server_guest_admit(struct dls_domain *guest,
				   const struct dls_server *srv, int nr);

/** @} */

#endif /* DLSCHED_SERVER_H */
