/*
 * layout: the growth policy of the public structures (types.h, pi.h;
 * docs/rtos-integration.md, "Growth policy").
 *
 * An RTOS embeds struct dls_entity, dls_rq, dls_domain and the PI objects
 * in its own structures and compiles against one release's headers; a
 * later libdlsched must find every field where that build put it. So:
 *  - each growable structure ends in its reserved words (checked below for
 *    every ABI: the words are last, nothing follows them);
 *  - its size and the offset of the reserved words are recorded here for
 *    the data models the library is built for, and a change fails the
 *    build of this test: a new field must take reserved words (size and
 *    offset stay), or the change belongs to a new major version, and
 *    then the table changes with it;
 *  - the init functions zero the reserved words whatever the storage held,
 *    and dls_domain_init() refuses caller-filled reserved words or slots
 *    that are not zero.
 */
#include <limits.h>
#include <string.h>

#include <dlsched/pi.h>
#include <dlsched/sched.h>

#include "dls_test.h"
#include "fake_platform.h"

/* The reserved words end the structure. */
#define RESERVED_LAST(T)                                                       \
	_Static_assert(offsetof(struct T, reserved) +                          \
			       sizeof(((struct T *)0)->reserved) ==            \
		       sizeof(struct T),                                       \
		       #T ": the reserved words must end the structure")
RESERVED_LAST(dls_stats);
RESERVED_LAST(dls_entity);
RESERVED_LAST(dls_ops);
RESERVED_LAST(dls_domain_config);
RESERVED_LAST(dls_rq);
RESERVED_LAST(dls_domain);
RESERVED_LAST(dls_pi_task);
RESERVED_LAST(dls_pi_mutex);
RESERVED_LAST(dls_pi_ops);
RESERVED_LAST(dls_pi_ctx);

/*
 * The recorded layouts: sizeof and offsetof(reserved) on
 *   LP64     64-bit pointers and long (x86_64, aarch64 Linux);
 *   ILP32/8  32-bit pointers, uint64_t aligned to 8 (ARM EABI: armhf,
 *            Cortex-M with 4-byte enums);
 *   ILP32/8s the same with short enums (arm-none-eabi-gcc's default);
 *   ILP32/4  32-bit pointers, uint64_t aligned to 4 (i386).
 * Measured with sizeof/offsetof on each (clang -m32, clang
 * --target=arm-none-eabi, arm-none-eabi-gcc -mcpu=cortex-m4).
 */
#define ENUM_SIZE sizeof(enum dls_bw_state)
#define IS_LP64 (UINTPTR_MAX == UINT64_MAX && ULONG_MAX == UINT64_MAX)
#define IS_ILP32 (UINTPTR_MAX == UINT32_MAX && ULONG_MAX == UINT32_MAX)
#if IS_LP64 || IS_ILP32
/* short enums are recorded for ARM EABI only */
#define KNOWN_ABI (ENUM_SIZE == 4 || (IS_ILP32 && _Alignof(uint64_t) == 8))
#define LAYOUT(lp64, ilp32_8, ilp32_8s, ilp32_4)                               \
	(IS_LP64 ? (lp64) :                                                    \
	 _Alignof(uint64_t) == 4 ? (ilp32_4) :                                 \
	 ENUM_SIZE == 4 ? (ilp32_8) : (ilp32_8s))
#define FROZEN(T, sz, off)                                                     \
	_Static_assert(!KNOWN_ABI || sizeof(struct T) == (sz),                 \
		       #T ": size changed; a new field takes reserved words "  \
		       "(docs/rtos-integration.md, Growth policy)");           \
	_Static_assert(!KNOWN_ABI || offsetof(struct T, reserved) == (off),    \
		       #T ": the fields before the reserved words moved")
/*     structure          size: LP64 ILP32/8 /8s  /4    reserved at: ... */
FROZEN(dls_stats,         LAYOUT(128, 128, 128, 128), LAYOUT(112, 112, 112, 112));
FROZEN(dls_entity,        LAYOUT(416, 360, 360, 340), LAYOUT(392, 336, 336, 316));
FROZEN(dls_ops,           LAYOUT(88, 44, 44, 44),     LAYOUT(56, 28, 28, 28));
FROZEN(dls_domain_config, LAYOUT(64, 64, 56, 60),     LAYOUT(48, 48, 40, 44));
FROZEN(dls_rq,            LAYOUT(232, 192, 192, 188), LAYOUT(208, 168, 168, 164));
FROZEN(dls_domain,        LAYOUT(144, 120, 112, 116), LAYOUT(112, 88, 80, 84));
FROZEN(dls_pi_task,       LAYOUT(104, 88, 88, 68),    LAYOUT(88, 72, 72, 52));
FROZEN(dls_pi_mutex,      LAYOUT(32, 24, 24, 20),     LAYOUT(24, 16, 16, 12));
FROZEN(dls_pi_ops,        LAYOUT(24, 12, 12, 12),     LAYOUT(8, 4, 4, 4));
FROZEN(dls_pi_ctx,        LAYOUT(48, 40, 40, 36),     LAYOUT(32, 24, 24, 20));
#endif

/* The frozen structures keep their size (they change only with the major
 * version). */
_Static_assert(offsetof(struct dls_params, flags) == 3 * sizeof(uint64_t) &&
		       sizeof(struct dls_params) == 3 * sizeof(uint64_t) + _Alignof(uint64_t),
	       "dls_params is frozen");
_Static_assert(sizeof(struct dls_earliest) == 2 * sizeof(uint64_t),
	       "dls_earliest is frozen");
_Static_assert(sizeof(struct dls_rb_node) == 3 * sizeof(void *),
	       "dls_rb_node is frozen");

#define WORDS_ZERO(obj) words_zero((obj)->reserved, sizeof((obj)->reserved))

static bool words_zero(const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

/* Storage full of garbage, as a C object without an initializer may be. */
#define DIRTY(obj) memset(&(obj), 0xa5, sizeof(obj))

static void test_init_zeroes_reserved(void)
{
	struct fake_platform fp;
	struct dls_domain dom;
	struct dls_rq rqs[2];
	struct dls_domain_config cfg;
	struct dls_entity se;

	fake_init(&fp, 0);
	DIRTY(cfg);
	dls_domain_config_default(&cfg);
	CU_ASSERT_TRUE(WORDS_ZERO(&cfg));
	DIRTY(dom);
	DIRTY(rqs);
	CU_ASSERT_EQUAL(dls_domain_init(&dom, &fake_ops, &fp, &cfg, rqs, 2), 0);
	CU_ASSERT_TRUE(WORDS_ZERO(&dom));
	CU_ASSERT_TRUE(WORDS_ZERO(&rqs[0]));
	CU_ASSERT_TRUE(WORDS_ZERO(&rqs[1]));
	CU_ASSERT_TRUE(WORDS_ZERO(&dom.cfg));
	DIRTY(se);
	dls_entity_init(&se);
	CU_ASSERT_TRUE(WORDS_ZERO(&se));
	CU_ASSERT_TRUE(WORDS_ZERO(&se.stats));
}

static void test_pi_init_zeroes_reserved(void)
{
	static const struct dls_pi_ops ops = { .boost_changed = NULL };
	struct dls_pi_ctx pi;
	struct dls_pi_task t;
	struct dls_pi_mutex m;

	DIRTY(pi);
	DIRTY(t);
	DIRTY(m);
	dls_pi_ctx_init(&pi, &ops, NULL);
	dls_pi_task_init(&t, 10, true, 1000);
	dls_pi_mutex_init(&m);
	CU_ASSERT_TRUE(WORDS_ZERO(&pi));
	CU_ASSERT_TRUE(WORDS_ZERO(&t));
	CU_ASSERT_TRUE(WORDS_ZERO(&m));
}

static void reserved_slot(void)
{
}

/* A caller-filled reserved word or slot a later release may give a
 * meaning: refused by name today, not silently ignored. */
static void test_domain_refuses_reserved(void)
{
	struct fake_platform fp;
	struct dls_domain dom;
	struct dls_rq rq;
	struct dls_domain_config cfg;
	struct dls_ops ops = fake_ops;

	fake_init(&fp, 0);
	for (size_t i = 0; i < sizeof(cfg.reserved) / sizeof(cfg.reserved[0]); i++) {
		dls_domain_config_default(&cfg);
		cfg.reserved[i] = 1;
		CU_ASSERT_EQUAL(dls_domain_init(&dom, &fake_ops, &fp, &cfg, &rq, 1),
				DLS_EINVAL);
	}
	for (size_t i = 0; i < sizeof(ops.reserved) / sizeof(ops.reserved[0]); i++) {
		ops = fake_ops;
		ops.reserved[i] = reserved_slot;
		CU_ASSERT_EQUAL(dls_domain_init(&dom, &ops, &fp, NULL, &rq, 1), DLS_EINVAL);
	}
	/* designated initializers leave every reserved slot NULL */
	ops = (struct dls_ops){ .now = fake_ops.now, .timer_arm = fake_ops.timer_arm,
				.timer_cancel = fake_ops.timer_cancel,
				.resched = fake_ops.resched };
	CU_ASSERT_EQUAL(dls_domain_init(&dom, &ops, &fp, NULL, &rq, 1), 0);
}

static const struct dls_test_case cases[] = {
	{ "init functions zero the reserved words", test_init_zeroes_reserved },
	{ "PI init functions zero the reserved words", test_pi_init_zeroes_reserved },
	{ "domain init refuses non-zero reserved words", test_domain_refuses_reserved },
	{ NULL, NULL },
};

static const struct dls_test_suite suites[] = {
	{ "layout", cases },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	printf("layout: %zu-byte pointers, uint64_t aligned to %zu, %zu-byte enums\n",
	       sizeof(void *), (size_t)_Alignof(uint64_t), sizeof(enum dls_bw_state));
	return dls_test_main(argc, argv, suites);
}
