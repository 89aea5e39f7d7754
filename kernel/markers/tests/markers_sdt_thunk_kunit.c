// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "markers_sdt_thunk": the lifetime of SDT thunks, on every
 * arch that arms SDT sites with them.
 *
 * A task may be in a thunk when its site is disarmed: preempted there, or
 * interrupted before the thunk raised the preempt count, where a tick may
 * report a quiescent state and so end a normal grace period. Such a thunk
 * must call no probe once it is retired, and its memory must stay until
 * the task has left it.
 *
 * A stack taken in a probe walks through the thunk, by its name.
 */

#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/processor.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sdt.h>
#include <linux/sdt-decode.h>
#include <linux/smp.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#ifdef CONFIG_X86
#include <asm/text-patching.h>
#endif
#ifdef CONFIG_ARM64
#include <asm/insn.h>
#endif

#include "../internal.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* The site: one operand, which every arch's thunk reads. */
static noinline void sdt_thunk_kunit_site(int v)
{
	SDT_PROBE(kunit_thunk, site, v);
}

static unsigned int sdt_thunk_hits;

static void sdt_thunk_count(void *data, const u64 *args, unsigned int nargs)
{
	sdt_thunk_hits++;
}

static void sdt_thunk_detach_count(void *unused)
{
	sdt_disable_probe("kunit_thunk", "site", sdt_thunk_count, NULL);
}

static void sdt_thunk_relive(void *unused)
{
	sdt_thunk_set_live("kunit_thunk:site", true);
}

/* Arm the site with @probe, by its thunk; detached by @detach. */
static void sdt_thunk_arm(struct kunit *test, sdt_probe_func *probe,
			  kunit_action_t *detach)
{
	void *addr;

	KUNIT_ASSERT_EQ(test, sdt_set_probe("kunit_thunk", "site", 1, probe,
					    NULL), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, detach, NULL), 0);
	KUNIT_ASSERT_EQ(test, sdt_site_info("kunit_thunk:site", &addr,
					    &(unsigned int){0}), 4);
}

/*
 * A thunk whose live flag is clear, as a retired one's is, calls no
 * probe: a task that runs it after its site was disarmed may find the
 * probe gone.
 */
static void sdt_thunk_test_retired(struct kunit *test)
{
	sdt_thunk_hits = 0;
	sdt_thunk_arm(test, sdt_thunk_count, sdt_thunk_detach_count);
	sdt_thunk_kunit_site(1);
	KUNIT_EXPECT_EQ(test, sdt_thunk_hits, 1);

	KUNIT_ASSERT_EQ(test, sdt_thunk_set_live("kunit_thunk:site", false), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, sdt_thunk_relive,
							NULL), 0);
	sdt_thunk_kunit_site(2);
	KUNIT_EXPECT_EQ(test, sdt_thunk_hits, 1);
}

/* A task that stays in the thunk, and what the test tells it. */
static struct {
	atomic_t state;		/* SDT_STAY_* */
	struct completion done;
} sdt_thunk_stay;

enum { SDT_STAY_FIRING, SDT_STAY_IN, SDT_STAY_LEAVE, SDT_STAY_TIMED_OUT };

/*
 * Stay in the thunk with the preempt count at zero and interrupts on, as
 * a task interrupted where the thunk's count is zero, or preempted in it,
 * does: the tick may report quiescent states, and the thunk's return
 * address is on the stack. Never a voluntary context switch: a busy wait,
 * and cond_resched(), a preemption, so that the CPU's other work runs
 * without preempt=full.
 */
static void sdt_thunk_stay_probe(void *data, const u64 *args,
				 unsigned int nargs)
{
	unsigned long end = jiffies + 120 * HZ;

	preempt_enable_notrace();
	atomic_set(&sdt_thunk_stay.state, SDT_STAY_IN);
	while (atomic_read(&sdt_thunk_stay.state) == SDT_STAY_IN) {
		if (time_after(jiffies, end))
			atomic_set(&sdt_thunk_stay.state, SDT_STAY_TIMED_OUT);
		cpu_relax();
		cond_resched();
	}
	preempt_disable_notrace();
}

static void sdt_thunk_detach_stay(void *unused)
{
	sdt_disable_probe("kunit_thunk", "site", sdt_thunk_stay_probe, NULL);
}

static int sdt_thunk_stay_fire(void *unused)
{
	sdt_thunk_kunit_site(3);
	complete(&sdt_thunk_stay.done);
	return 0;
}

/*
 * Wait, up to @secs, until no more than @n thunks wait to be freed: their
 * grace period, then their work items.
 */
static bool sdt_thunk_wait_freed(int n, unsigned int secs)
{
	unsigned long end = jiffies + secs * HZ;

	/* CONFIG_MARKERS selects TASKS_RCU where it matters. */
	if (IS_ENABLED(CONFIG_TASKS_RCU))
		rcu_barrier_tasks();
	else
		rcu_barrier();
	while (atomic_read(&sdt_thunks_dying) > n && time_before(jiffies, end))
		schedule_timeout_uninterruptible(1);
	return atomic_read(&sdt_thunks_dying) <= n;
}

static void sdt_thunk_release(void *unused)
{
	atomic_cmpxchg(&sdt_thunk_stay.state, SDT_STAY_IN, SDT_STAY_LEAVE);
	wait_for_completion(&sdt_thunk_stay.done);
}

/*
 * The site is disarmed while a task, on another CPU, is in its thunk:
 * the detach returns, normal grace periods end, and the thunk must still
 * be there; it goes once the task has left it.
 */
static void sdt_thunk_test_in_use(struct kunit *test)
{
	unsigned long end = jiffies + 10 * HZ;
	struct task_struct *t;
	unsigned int cpu;
	int dying;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs online");
	KUNIT_ASSERT_TRUE(test, sdt_thunk_wait_freed(0, 10));
	atomic_set(&sdt_thunk_stay.state, SDT_STAY_FIRING);
	init_completion(&sdt_thunk_stay.done);
	sdt_thunk_arm(test, sdt_thunk_stay_probe, sdt_thunk_detach_stay);

	cpus_read_lock();
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	t = kthread_create(sdt_thunk_stay_fire, NULL, "sdt-thunk-stay");
	if (!IS_ERR(t)) {
		kthread_bind(t, cpu);
		wake_up_process(t);
	}
	cpus_read_unlock();
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, sdt_thunk_release,
							NULL), 0);
	while (atomic_read(&sdt_thunk_stay.state) == SDT_STAY_FIRING &&
	       time_before(jiffies, end))
		schedule_timeout_uninterruptible(1);
	KUNIT_ASSERT_EQ(test, atomic_read(&sdt_thunk_stay.state), SDT_STAY_IN);

	dying = atomic_read(&sdt_thunks_dying);
	kunit_release_action(test, sdt_thunk_detach_stay, NULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&sdt_thunks_dying), dying + 1);
	/* What a normal grace period would let go, and its work item. */
	rcu_barrier();
	schedule_timeout_uninterruptible(msecs_to_jiffies(200));
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&sdt_thunks_dying), dying + 1,
			    "the thunk was freed while a task was in it");
	KUNIT_EXPECT_EQ(test, atomic_read(&sdt_thunk_stay.state), SDT_STAY_IN);

	kunit_release_action(test, sdt_thunk_release, NULL);
	KUNIT_EXPECT_TRUE(test, sdt_thunk_wait_freed(dying, 10));
}

/* The stack a probe of the site saw, as KASAN and lockdep save theirs. */
static unsigned long sdt_thunk_stack[32];
static unsigned int sdt_thunk_stack_len;

static void sdt_thunk_stack_probe(void *data, const u64 *args,
				  unsigned int nargs)
{
	sdt_thunk_stack_len = stack_trace_save(sdt_thunk_stack,
					       ARRAY_SIZE(sdt_thunk_stack), 0);
}

static void sdt_thunk_detach_stack(void *unused)
{
	sdt_disable_probe("kunit_thunk", "site", sdt_thunk_stack_probe, NULL);
}

/*
 * Has the saved stack a frame in the function named @func? %ps prints a
 * module's function with " [module]" after its name.
 */
static bool sdt_thunk_stack_has(const char *func)
{
	size_t len = strlen(func);
	char sym[KSYM_SYMBOL_LEN];
	unsigned int i;

	for (i = 0; i < sdt_thunk_stack_len; i++) {
		snprintf(sym, sizeof(sym), "%ps", (void *)sdt_thunk_stack[i]);
		if (!strncmp(sym, func, len) && (!sym[len] || sym[len] == ' '))
			return true;
	}
	return false;
}

/*
 * A stack saved in a probe (stack_trace_save(), as a KASAN or lockdep
 * report saves one) walks through the thunk, by its name, to the site's
 * function. On x86 it goes on to the site's caller, this test; on arm64
 * the site's function is a leaf with no frame record, and the walk goes
 * from it to its caller's caller.
 */
static void sdt_thunk_test_stack(struct kunit *test)
{
	sdt_thunk_stack_len = 0;
	sdt_thunk_arm(test, sdt_thunk_stack_probe, sdt_thunk_detach_stack);
	sdt_thunk_kunit_site(3);
	KUNIT_ASSERT_GT(test, sdt_thunk_stack_len, 0);
	KUNIT_EXPECT_TRUE_MSG(test, sdt_thunk_stack_has("sdt_thunk_kunit_thunk_site"),
			      "no frame of the thunk, by its name");
	KUNIT_EXPECT_TRUE_MSG(test, sdt_thunk_stack_has("sdt_thunk_kunit_site"),
			      "no frame of the site's function");
	if (IS_ENABLED(CONFIG_X86))
		KUNIT_EXPECT_TRUE_MSG(test, sdt_thunk_stack_has("sdt_thunk_test_stack"),
				      "no frame of the site's caller");
}

static int sdt_thunk_test_init(struct kunit *test)
{
	/* Without it, the tick ends no grace period inside a thunk. */
	if (!IS_ENABLED(CONFIG_PREEMPT_COUNT))
		kunit_skip(test, "no preempt count: a thunk is an RCU read side");
	sdt_use_thunks = true;
	sdt_use_kprobes = false;
	return 0;
}

/* Slots of the test's thunks, given back by sdt_thunk_pack_release(). */
#define SDT_THUNK_KUNIT_SLOTS	64
#define SDT_THUNK_KUNIT_LEN	64

static void *sdt_thunk_slots[SDT_THUNK_KUNIT_SLOTS];

static void sdt_thunk_pack_release(void *unused)
{
	unsigned int i;

	for (i = 0; i < SDT_THUNK_KUNIT_SLOTS; i++) {
		if (sdt_thunk_slots[i])
			sdt_pack_free(sdt_thunk_slots[i], SDT_THUNK_KUNIT_LEN, true);
		sdt_thunk_slots[i] = NULL;
	}
}

/* Does @p hold the arch's trap, as arch_sdt_thunk_invalidate() fills? */
static bool sdt_test_traps(const void *p, size_t len)
{
#if defined(CONFIG_X86)
	return !memchr_inv(p, INT3_INSN_OPCODE, len);
#elif defined(CONFIG_ARM64)
	const __le32 *insn = p;
	size_t i;

	for (i = 0; i < len / AARCH64_INSN_SIZE; i++)
		if (le32_to_cpu(insn[i]) != AARCH64_BREAK_FAULT)
			return false;
	return true;
#else
	return true;
#endif
}

/*
 * Thunks share packs: 64 thunks of 64 bytes take at most two pages (a
 * page each before). A slot holds traps until its thunk is written, and
 * again once it is freed; a pack goes with its last thunk.
 */
static void sdt_thunk_test_pack(struct kunit *test)
{
	unsigned int packs = sdt_packs_nr, i;
	u8 bytes[SDT_THUNK_KUNIT_LEN], traps[SDT_THUNK_KUNIT_LEN];
	void *slot;

	if (!IS_ENABLED(CONFIG_HAVE_ARCH_MARKERS_SDT_CALL))
		kunit_skip(test, "no thunks on this arch");
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, sdt_thunk_pack_release,
							NULL), 0);
	memset(bytes, 0x5a, sizeof(bytes));
	for (i = 0; i < SDT_THUNK_KUNIT_SLOTS; i++) {
		slot = sdt_pack_alloc(SDT_THUNK_KUNIT_LEN);
		KUNIT_ASSERT_NOT_NULL(test, slot);
		sdt_thunk_slots[i] = slot;
		KUNIT_EXPECT_TRUE(test, IS_ALIGNED((unsigned long)slot, 16));
		if (i)
			KUNIT_EXPECT_PTR_NE(test, slot, sdt_thunk_slots[i - 1]);
		/* What a slot holds before its thunk: the pack's traps. */
		if (!i) {
			memcpy(traps, slot, sizeof(traps));
			KUNIT_EXPECT_TRUE_MSG(test, sdt_test_traps(traps, sizeof(traps)),
					      "a fresh slot holds %*ph", 8, traps);
		}
		KUNIT_EXPECT_MEMEQ(test, slot, traps, sizeof(traps));
		arch_sdt_thunk_write(slot, bytes, sizeof(bytes));
		KUNIT_EXPECT_MEMEQ(test, slot, bytes, sizeof(bytes));
	}
	KUNIT_EXPECT_NE(test, memcmp(traps, bytes, sizeof(bytes)), 0);
	KUNIT_EXPECT_LE(test, sdt_packs_nr, packs + 2);
	kunit_info(test, "%u thunks of %u bytes: %u new packs\n",
		   SDT_THUNK_KUNIT_SLOTS, SDT_THUNK_KUNIT_LEN, sdt_packs_nr - packs);

	/* Freed: traps again, and the packs gone. */
	slot = sdt_thunk_slots[0];
	sdt_pack_free(slot, SDT_THUNK_KUNIT_LEN, true);
	sdt_thunk_slots[0] = NULL;
	KUNIT_EXPECT_MEMEQ(test, slot, traps, sizeof(traps));
	KUNIT_EXPECT_TRUE(test, sdt_test_traps(slot, SDT_THUNK_KUNIT_LEN));
	sdt_thunk_pack_release(NULL);
	KUNIT_EXPECT_LE(test, sdt_packs_nr, packs);
}

static struct kunit_case sdt_thunk_test_cases[] = {
	KUNIT_CASE(sdt_thunk_test_retired),
	KUNIT_CASE(sdt_thunk_test_in_use),
	KUNIT_CASE(sdt_thunk_test_stack),
	KUNIT_CASE(sdt_thunk_test_pack),
	{}
};

static struct kunit_suite sdt_thunk_test_suite = {
	.name = "markers_sdt_thunk",
	.init = sdt_thunk_test_init,
	.test_cases = sdt_thunk_test_cases,
};

kunit_test_suite(sdt_thunk_test_suite);

MODULE_DESCRIPTION("KUnit tests of the lifetime of SDT thunks");
MODULE_LICENSE("GPL");
