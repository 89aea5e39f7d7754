// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "markers_sdt_diff": SDT operands against C, site by site.
 *
 * The sites are generated: every expression of SDT_DIFF_EXPRS(), as it is
 * and cast to each integer width and signedness (SDT_DIFF_CASTS()), gets
 * a site of its own in a function of its own, sdt_diff_site_<id>(), and a
 * twin, sdt_diff_want_<id>(), that computes the same expression in C
 * (both without KASAN, which takes a %gs: address for a user one). The
 * compiler is left free to put each operand where it likes: on x86-64,
 * registers of every width, immediates, globals and static locals
 * %rip-relative, arrays indexed by constants and by registers
 * (sym(,%reg,scale)), struct fields through pointers, per-CPU variables
 * through %gs:, vmlinux globals from a module; on arm64, a register or an
 * immediate ("nr": see <asm/sdt.h>). The test arms all the sites (one
 * key, sdt_diff:site), calls each site after its twin, and requires the
 * probe to have received exactly the twin's value; once for each
 * mechanism that arms SDT sites on the arch: on x86-64 a thunk, a call of
 * the trampoline, kprobes (optimized into jumps wherever kprobes can),
 * and int3 kprobes alone; on arm64, BRK kprobes.
 *
 * The operand forms the compiler chose are in the module's .note.stapsdt
 * (readelf -n, or markers-list, show them).
 */

#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/processor.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/sdt.h>
#include <linux/string.h>
#include <linux/types.h>

#include "../internal.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#ifdef CONFIG_X86
/*
 * sparse knows __seg_gs only where <asm/percpu.h> defines it for it
 * (CC_HAS_NAMED_AS, GCC); clang predefines it for itself.
 */
#if defined(__CHECKER__) && !defined(CONFIG_CC_HAS_NAMED_AS)
#define __seg_gs	__attribute__((address_space(__seg_gs)))
#endif

/*
 * Expressions of x86's own: %gs: operands (on SMP: on UP a per-CPU
 * variable is a plain one, and %gs: is not its segment), an x86 field of
 * vmlinux.
 */
#ifdef CONFIG_SMP
#define SDT_DIFF_EXPRS_GS(X)						\
	X(pcpu_seg, *(const int __seg_gs *)(unsigned long)&sdt_diff_pcpu) \
	X(pcpu_seg64, *(const u64 __seg_gs *)(unsigned long)&sdt_diff_pcpu64)
#else
#define SDT_DIFF_EXPRS_GS(X)
#endif
#define SDT_DIFF_EXPRS_ARCH(X)						\
	SDT_DIFF_EXPRS_GS(X)						\
	X(vmlinux_x86, boot_cpu_data.x86)
#else
#define SDT_DIFF_EXPRS_ARCH(X)
#endif

struct sdt_diff_obj {
	u8 b;
	s16 h;
	u32 w;
	s64 q;
	int arr[4];
	const void *ptr;
};

/* Globals, arrays, a struct; sdt_diff_escape() keeps them variables. */
static s8 sdt_diff_s8 = -5;
static u8 sdt_diff_u8 = 250;
static s16 sdt_diff_s16 = -30000;
static u16 sdt_diff_u16 = 65000;
static s32 sdt_diff_s32 = -2000000000;
static u32 sdt_diff_u32 = 4000000000U;
static s64 sdt_diff_s64 = -0x123456789abcdefLL;
static u64 sdt_diff_u64 = 0xfedcba9876543210ULL;
static int sdt_diff_arr[16] = { -1, 2, -3, 4, -5, 6, -7, 8, -9, 10, -11, 12, -13, 14, -15, 16 };
static struct sdt_diff_obj sdt_diff_gobj = {
	.b = 0x81, .h = -2, .w = 0x89abcdef, .q = -3, .arr = { 7, -8, 9, -10 },
};

static long sdt_diff_larr[8] = { -100, 200, -300, 400, -500, 600, -700, 800 };
static short sdt_diff_sarr[8] = { -1000, 2000, -3000, 4000, -5000, 6000, -7000, 8000 };

static DEFINE_PER_CPU(int, sdt_diff_pcpu);
static DEFINE_PER_CPU(u64, sdt_diff_pcpu64);

/*
 * The compiler would fold a static that nothing writes into a constant,
 * and the site would get an immediate: as far as it knows, this writes
 * them all.
 */
static void sdt_diff_escape(void)
{
	barrier_data(&sdt_diff_s8);
	barrier_data(&sdt_diff_u8);
	barrier_data(&sdt_diff_s16);
	barrier_data(&sdt_diff_u16);
	barrier_data(&sdt_diff_s32);
	barrier_data(&sdt_diff_u32);
	barrier_data(&sdt_diff_s64);
	barrier_data(&sdt_diff_u64);
	barrier_data(sdt_diff_arr);
	barrier_data(&sdt_diff_gobj);
	barrier_data(sdt_diff_larr);
	barrier_data(sdt_diff_sarr);
}

/*
 * A static local, which the compiler may not take for a constant: as far
 * as it knows, the empty asm could write it.
 */
#define SDT_DIFF_STATIC(type, init)					\
	({ static type sl = init; barrier_data(&sl); sl; })

/*
 * The expressions, over the parameters of every site function:
 * o (a struct pointer), i (an int, 0..15), c (a char), s (a short), l (a
 * long) and u (an unsigned int). Pointers and wide constants are in
 * SDT_DIFF_UNCAST(): they are not cast to narrower integers.
 */
#define SDT_DIFF_EXPRS(X)						\
	X(g_s8, sdt_diff_s8)						\
	X(g_u8, sdt_diff_u8)						\
	X(g_s16, sdt_diff_s16)						\
	X(g_u16, sdt_diff_u16)						\
	X(g_s32, sdt_diff_s32)						\
	X(g_u32, sdt_diff_u32)						\
	X(g_s64, sdt_diff_s64)						\
	X(g_u64, sdt_diff_u64)						\
	X(static_local, SDT_DIFF_STATIC(int, -77))			\
	X(static_local64, SDT_DIFF_STATIC(u64, 0x8000000000000001ULL))	\
	X(arr_const, sdt_diff_arr[3])					\
	X(arr_var, sdt_diff_arr[i & 15])				\
	X(larr_var, sdt_diff_larr[i & 7])				\
	X(sarr_var, sdt_diff_sarr[(i + 1) & 7])				\
	X(arr_bytes, ((const u8 *)sdt_diff_arr)[(i * 3) & 63])		\
	X(gobj_w, sdt_diff_gobj.w)					\
	X(gobj_arr, sdt_diff_gobj.arr[i & 3])				\
	X(o_b, o->b)							\
	X(o_h, o->h)							\
	X(o_w, o->w)							\
	X(o_q, o->q)							\
	X(o_arr_const, o->arr[2])					\
	X(o_arr_var, o->arr[i & 3])					\
	X(pcpu_ptr, *this_cpu_ptr(&sdt_diff_pcpu))			\
	X(param_i, i)							\
	X(param_c, c)							\
	X(param_s, s)							\
	X(param_l, l)							\
	X(param_u, u)							\
	X(param_sum, l + i)						\
	X(const_small, 5)						\
	X(const_neg, -1)						\
	X(vmlinux_nr_cpu_ids, nr_cpu_ids)				\
	X(vmlinux_init_pid, init_task.pid)				\
	SDT_DIFF_EXPRS_ARCH(X)

#define SDT_DIFF_UNCAST(X)						\
	X(const_int_max, 0x7fffffff)					\
	X(const_s64, -0x123456789abcdefLL)				\
	X(const_u64, 0xfedcba9876543210ULL)				\
	X(ptr_o, o)							\
	X(ptr_o_field, o->ptr)						\
	X(ptr_global, &sdt_diff_arr[2])					\
	X(ptr_gobj_field, sdt_diff_gobj.ptr)

/* Each expression as it is and cast to every width and signedness. */
#define SDT_DIFF_CASTS(X, id, e)					\
	X(id, e)							\
	X(id##_to_s8, (s8)(e))						\
	X(id##_to_u8, (u8)(e))						\
	X(id##_to_s16, (s16)(e))					\
	X(id##_to_u16, (u16)(e))					\
	X(id##_to_s32, (s32)(e))					\
	X(id##_to_u32, (u32)(e))					\
	X(id##_to_s64, (s64)(e))					\
	X(id##_to_u64, (u64)(e))

#define SDT_DIFF_PARAMS							\
	const struct sdt_diff_obj *o, int i, char c, short s, long l,	\
	unsigned int u

typedef void sdt_diff_site_fn(const struct sdt_diff_obj *o, int i, char c,
			      short s, long l, unsigned int u);
typedef u64 sdt_diff_want_fn(const struct sdt_diff_obj *o, int i, char c,
			     short s, long l, unsigned int u);

/*
 * The site of @e, and its twin returning @want: what a probe must receive
 * for @e, its value extended to 64 bits as its type says, which is what
 * converting it to u64 does in C (through unsigned long for a pointer).
 */
#define SDT_DIFF_DEFINE_AS(id, e, want)					\
static noinline __no_sanitize_address					\
void sdt_diff_site_##id(SDT_DIFF_PARAMS)				\
{									\
	SDT_PROBE(sdt_diff, site, e);					\
}									\
static noinline __no_sanitize_address					\
u64 sdt_diff_want_##id(SDT_DIFF_PARAMS)					\
{									\
	return want;							\
}

#define SDT_DIFF_DEFINE(id, e)	SDT_DIFF_DEFINE_AS(id, e, (u64)(e))
#define SDT_DIFF_DEFINE_CASTS(id, e)	SDT_DIFF_CASTS(SDT_DIFF_DEFINE, id, e)
#define SDT_DIFF_DEFINE_UNCAST(id, e)					\
	SDT_DIFF_DEFINE_AS(id, e, (u64)(unsigned long)(e))

SDT_DIFF_EXPRS(SDT_DIFF_DEFINE_CASTS)
SDT_DIFF_UNCAST(SDT_DIFF_DEFINE_UNCAST)

struct sdt_diff_case {
	const char *id, *expr;
	sdt_diff_site_fn *site;
	sdt_diff_want_fn *want;
};

#define SDT_DIFF_ENTRY(id, e)						\
	{ #id, #e, sdt_diff_site_##id, sdt_diff_want_##id },
#define SDT_DIFF_ENTRY_CASTS(id, e)	SDT_DIFF_CASTS(SDT_DIFF_ENTRY, id, e)

static const struct sdt_diff_case sdt_diff_cases[] = {
	SDT_DIFF_EXPRS(SDT_DIFF_ENTRY_CASTS)
	SDT_DIFF_UNCAST(SDT_DIFF_ENTRY)
};

/* What the probe saw. */
static struct {
	unsigned int nr;
	u64 arg;
} sdt_diff_hit;

static void sdt_diff_probe(void *data, const u64 *args, unsigned int nargs)
{
	sdt_diff_hit.nr++;
	sdt_diff_hit.arg = nargs == 1 ? args[0] : ~0ULL;
}

static void sdt_diff_detach(void *unused)
{
	sdt_disable_probe("sdt_diff", "site", sdt_diff_probe, NULL);
}

/* The parameters each site gets, with i and the object varied. */
static void sdt_diff_run(struct kunit *test, int i)
{
	static const char dummy[] = "ptr";
	struct sdt_diff_obj obj = {
		.b = 0xf0 + i, .h = -1234 * (i + 1), .w = 0xfffffff0U + i,
		.q = -((s64)i << 40) - 1, .arr = { -i, i, 3 * i, -3 * i },
		.ptr = dummy,
	};
	unsigned int n, bad = 0;
	u64 want;

	for (n = 0; n < ARRAY_SIZE(sdt_diff_cases); n++) {
		const struct sdt_diff_case *d = &sdt_diff_cases[n];

		sdt_diff_hit.nr = 0;
		/* Per-CPU operands: the site and its twin on one CPU. */
		preempt_disable();
		want = d->want(&obj, i, -3 - i, -300 - i, -(1L << 35) + i, 0x80000000U + i);
		d->site(&obj, i, -3 - i, -300 - i, -(1L << 35) + i, 0x80000000U + i);
		preempt_enable();
		/* The compiler cannot know the site wrote sdt_diff_hit. */
		barrier();
		if (sdt_diff_hit.nr != 1 || sdt_diff_hit.arg != want) {
			bad++;
			KUNIT_FAIL(test, "i=%d %s (%s): %u hits, 0x%llx, C says 0x%llx",
				   i, d->id, d->expr, sdt_diff_hit.nr,
				   sdt_diff_hit.arg, want);
		}
	}
	kunit_info(test, "i=%d: %zu sites, %u differ from C\n", i,
		   ARRAY_SIZE(sdt_diff_cases), bad);
}

/* The mechanisms that arm SDT sites on this arch. */
struct sdt_diff_mech {
	const char *name;
	bool calls;		/* !sdt_use_thunks: the trampoline */
	bool kprobes;		/* sdt_use_kprobes */
	bool int3_only;		/* sdt_int3_only */
};

static const struct sdt_diff_mech sdt_diff_mechs[] = {
#ifdef CONFIG_HAVE_ARCH_MARKERS_SDT_CALL
	{ "thunk" },
#endif
#ifdef CONFIG_HAVE_ARCH_MARKERS_SDT_TRAMPOLINE
	{ "call", .calls = true },
#endif
	{ "kprobe", .kprobes = true },
#ifdef CONFIG_OPTPROBES
	/* Without optimization: "kprobe" is that already. */
	{ "int3", .kprobes = true, .int3_only = true },
#endif
};

static void sdt_diff_mech_desc(const struct sdt_diff_mech *m, char *desc)
{
	strscpy(desc, m->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sdt_diff_mech, sdt_diff_mechs, sdt_diff_mech_desc);

static void sdt_diff_test_values(struct kunit *test)
{
	const struct sdt_diff_mech *m = test->param_value;
	bool use_thunks = sdt_use_thunks, use_kprobes = sdt_use_kprobes;
	unsigned int thunks, calls;
	int cpu, i, ret;

	sdt_diff_escape();
	for_each_possible_cpu(cpu) {
		per_cpu(sdt_diff_pcpu, cpu) = -100 - cpu;
		per_cpu(sdt_diff_pcpu64, cpu) = 0x8000000000000000ULL + cpu;
	}
	KUNIT_ASSERT_GE(test, ARRAY_SIZE(sdt_diff_cases), 200);
	sdt_use_thunks = !m->calls;
	sdt_use_kprobes = m->kprobes;
	sdt_int3_only = m->int3_only;
	ret = sdt_set_probe("sdt_diff", "site", 1, sdt_diff_probe, NULL);
	sdt_use_thunks = use_thunks;
	sdt_use_kprobes = use_kprobes;
	sdt_int3_only = false;
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, sdt_diff_detach,
							NULL), 0);
	if (m->kprobes && !m->int3_only)
		sdt_wait_kprobe_optimizer();
	thunks = sdt_count_thunks("sdt_diff:site", &calls);
	kunit_info(test, "%s: %u sites call their thunk, %u the trampoline\n",
		   m->name, thunks, calls);
	if (!m->kprobes && !m->calls)
		KUNIT_EXPECT_GT(test, thunks, ARRAY_SIZE(sdt_diff_cases) / 2);
	else
		KUNIT_EXPECT_EQ(test, thunks, 0);
	for (i = 0; i < 16; i += 5)
		sdt_diff_run(test, i);
}

static struct kunit_case sdt_diff_test_cases[] = {
	KUNIT_CASE_PARAM_ATTR(sdt_diff_test_values, sdt_diff_mech_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	{}
};

static struct kunit_suite sdt_diff_test_suite = {
	.name = "markers_sdt_diff",
	.test_cases = sdt_diff_test_cases,
};

kunit_test_suite(sdt_diff_test_suite);

MODULE_DESCRIPTION("KUnit differential test of SDT operands against C");
MODULE_LICENSE("GPL");
