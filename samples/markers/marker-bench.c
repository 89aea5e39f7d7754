// SPDX-License-Identifier: GPL-2.0
/*
 * marker-bench.c: the cost of markers next to the tracepoints and kprobes
 * a kernel developer would use instead, measured in one boot.
 *
 * Each row times a tight loop around a small noinline function holding one
 * kind of site, dormant or armed with an empty probe. Interrupts are off
 * around each run; time is ktime_get_ns(). A row's figure is the median
 * of @runs runs, in ns per iteration, with min and max.
 *
 *	insmod marker-bench.ko rows=abcdefghj
 *
 * prints one line per row, "marker-bench: row ...". Row i (an int3 SDT
 * site) wants /proc/sys/debug/kprobes-optimization at 0 when loaded.
 * latency=1 also measures arming and disarming a name with 1, 100 and
 * 1000 sites, counting the machine-wide syncs of text patching (calls of
 * do_sync_core(), the IPI text_poke_sync() sends, per CPU) with a kprobe.
 * Everything runs at load; unload the module to run it again.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/irqflags.h>
#include <linux/kprobes.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/sdt.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>

static unsigned int iters = 20000;
module_param(iters, uint, 0444);
MODULE_PARM_DESC(iters, "iterations per run");

static unsigned int runs = 7;
module_param(runs, uint, 0444);
MODULE_PARM_DESC(runs, "runs per row (the median is reported)");

static char *bench_rows_default = "abcdefghj";
module_param_named(rows, bench_rows_default, charp, 0444);
MODULE_PARM_DESC(rows, "rows to run, a to k");

static bool latency;
module_param(latency, bool, 0444);
MODULE_PARM_DESC(latency, "measure arming latency too");

static void bench_rows(void);

/* Writing rows to "run" runs them again, e.g. after enabling by control. */
static int bench_run_set(const char *val, const struct kernel_param *kp)
{
	int ret = param_set_charp(val, kp);

	if (!ret)
		bench_rows();
	return ret;
}

static const struct kernel_param_ops bench_run_ops = {
	.set = bench_run_set,
	.get = param_get_charp,
	.free = param_free_charp,
};

static char *run;
module_param_cb(run, &bench_run_ops, &run, 0644);
MODULE_PARM_DESC(run, "rows to run now");

DECLARE_TRACE(marker_bench_tp, TP_PROTO(int v), TP_ARGS(v));
DEFINE_TRACE(marker_bench_tp, TP_PROTO(int v), TP_ARGS(v));

/*
 * The functions under test: the same body but for the site. noipa: GCC
 * must not fold identical ones into one (fn_base and fn_kprobed are).
 */

/* e: a 2.6.24-style marker, a load, test and branch on a state word. */
static int bench_old_state;

static noinline __attribute__((__noipa__)) void bench_old_call(int v)
{
	barrier();
}

static noinline __attribute__((__noipa__)) void fn_base(int v)
{
	barrier();
}

static noinline __attribute__((__noipa__)) void fn_mark(int v)
{
	MARK(marker_bench, "%d", v);
	barrier();
}

static noinline __attribute__((__noipa__)) void fn_sdt(int v)
{
	SDT_PROBE(marker_bench, sdt, v);
	barrier();
}

static noinline __attribute__((__noipa__)) void fn_tp(int v)
{
	trace_marker_bench_tp(v);
	barrier();
}

static noinline __attribute__((__noipa__)) void fn_old(int v)
{
	if (unlikely(READ_ONCE(bench_old_state)))
		bench_old_call(v);
	barrier();
}

static noinline __attribute__((__noipa__)) void fn_kprobed(int v)
{
	barrier();
}

/* k: the built-in trace probe (enabled from the control file) ... */
static noinline __attribute__((__noipa__)) void fn_trace(int v)
{
	MARK(marker_bench_k, "v=%d", v);
	barrier();
}

/* ... next to trace_printk() with the same format. */
static noinline __attribute__((__noipa__)) void fn_trace_printk(int v)
{
	trace_printk("marker_bench_k: v=%d\n", v);
	barrier();
}

/* A timing loop per function: direct calls, no indirect branch. */
#define BENCH_LOOP(fn)							\
static noinline u64 loop_##fn(unsigned int n)				\
{									\
	unsigned long flags;						\
	unsigned int i;							\
	u64 t0, t1;							\
									\
	local_irq_save(flags);						\
	t0 = ktime_get_ns();						\
	for (i = 0; i < n; i++)						\
		fn(i);							\
	t1 = ktime_get_ns();						\
	local_irq_restore(flags);					\
	return t1 - t0;							\
}

BENCH_LOOP(fn_base)
BENCH_LOOP(fn_mark)
BENCH_LOOP(fn_sdt)
BENCH_LOOP(fn_tp)
BENCH_LOOP(fn_old)
BENCH_LOOP(fn_kprobed)
BENCH_LOOP(fn_trace)
BENCH_LOOP(fn_trace_printk)

/* Empty probes. */
static void bench_mark_probe(void *data, const char *fmt, va_list *args)
{
}

static void bench_sdt_probe(void *data, const u64 *args, unsigned int n)
{
}

static void bench_tp_probe(void *data, int v)
{
}

static int bench_kp_pre(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

static struct kprobe bench_kp = {
	.pre_handler = bench_kp_pre,
};

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Time @loop @runs times; print median, min and max in ns/iteration. */
static void bench_row(char row, const char *what, u64 (*loop)(unsigned int))
{
	u64 t[16];
	unsigned int r, n = min_t(unsigned int, runs, ARRAY_SIZE(t));

	loop(iters / 10 + 1);	/* warm up */
	for (r = 0; r < n; r++)
		t[r] = loop(iters) * 100 / iters;
	sort(t, n, sizeof(t[0]), cmp_u64, NULL);
	pr_info("row %c median %llu.%02llu min %llu.%02llu max %llu.%02llu ns runs %u iters %u: %s\n",
		row, t[n / 2] / 100, t[n / 2] % 100, t[0] / 100, t[0] % 100,
		t[n - 1] / 100, t[n - 1] % 100, n, iters, what);
}

/* Let kprobes' delayed optimizer run (it waits 5 jiffies). */
static void bench_settle(void)
{
	msleep(200);
}

static void bench_rows(void)
{
	const char *rows = run ?: bench_rows_default;
	int ret;

	if (strchr(rows, 'a'))
		bench_row('a', "nothing (baseline)", loop_fn_base);
	if (strchr(rows, 'b'))
		bench_row('b', "dormant MARK", loop_fn_mark);
	if (strchr(rows, 'c'))
		bench_row('c', "dormant SDT site", loop_fn_sdt);
	if (strchr(rows, 'd'))
		bench_row('d', "dormant tracepoint", loop_fn_tp);
	if (strchr(rows, 'e'))
		bench_row('e', "dormant 2.6.24-style marker (load, test, branch)",
			  loop_fn_old);
	if (strchr(rows, 'f')) {
		ret = marker_set_probe("marker_bench", "%d", bench_mark_probe, NULL);
		if (!ret) {
			bench_row('f', "armed MARK, one empty probe", loop_fn_mark);
			marker_disable_probe("marker_bench", bench_mark_probe, NULL);
		} else {
			pr_err("row f: marker_set_probe: %d\n", ret);
		}
	}
	if (strchr(rows, 'g')) {
		ret = register_trace_marker_bench_tp(bench_tp_probe, NULL);
		if (!ret) {
			bench_row('g', "armed tracepoint, one empty probe", loop_fn_tp);
			unregister_trace_marker_bench_tp(bench_tp_probe, NULL);
			tracepoint_synchronize_unregister();
		} else {
			pr_err("row g: register_trace: %d\n", ret);
		}
	}
	if (strchr(rows, 'h') || strchr(rows, 'i')) {
		ret = sdt_set_probe("marker_bench", "sdt", 1, bench_sdt_probe, NULL);
		if (!ret) {
			bench_settle();
			bench_row(strchr(rows, 'h') ? 'h' : 'i',
				  strchr(rows, 'h') ? "armed SDT site, optimized kprobe" :
						      "armed SDT site, int3 kprobe",
				  loop_fn_sdt);
			sdt_disable_probe("marker_bench", "sdt", bench_sdt_probe, NULL);
		} else {
			pr_err("row h/i: sdt_set_probe: %d\n", ret);
		}
	}
	if (strchr(rows, 'k')) {
		/* Echo 'enable name marker_bench_k' to the control file first. */
		bench_row('k', "built-in trace probe (ring buffer)", loop_fn_trace);
		bench_row('K', "trace_printk(), same format", loop_fn_trace_printk);
	}
	if (strchr(rows, 'j')) {
		bench_kp.addr = (kprobe_opcode_t *)fn_kprobed;
		ret = register_kprobe(&bench_kp);
		if (!ret) {
			bench_settle();
			bench_row('j', "kprobe on a function entry", loop_fn_kprobed);
			unregister_kprobe(&bench_kp);
		} else {
			pr_err("row j: register_kprobe: %d\n", ret);
		}
	}
}

/* --- Arming latency --------------------------------------------------- */

/* Sites of one name, copied by the compiler (one descriptor, one key). */
static noinline void many_1(int v)
{
	MARK(marker_bench_1, "%d", v);
}

static noinline void many_100(void)
{
	int i;

#pragma GCC unroll 100
	for (i = 0; i < 100; i++)
		MARK(marker_bench_100, "%d", i);
}

static noinline void many_1000(void)
{
	int i;

#pragma GCC unroll 1000
	for (i = 0; i < 1000; i++)
		MARK(marker_bench_1000, "%d", i);
}

static atomic_t bench_syncs;

static int bench_sync_pre(struct kprobe *p, struct pt_regs *regs)
{
	atomic_inc(&bench_syncs);
	return 0;
}

static struct kprobe bench_sync_kp = {
	.symbol_name = "do_sync_core",
	.pre_handler = bench_sync_pre,
};

static unsigned int bench_count_sites(const char *name)
{
	const struct marker_site *s;
	unsigned int n = 0;

	for (s = THIS_MODULE->markers;
	     s < THIS_MODULE->markers + THIS_MODULE->num_markers; s++)
		if (!strcmp(offset_to_ptr(&s->name), name))
			n++;
	return n;
}

static void bench_latency_one(const char *name)
{
	u64 t0, t1, t2;
	int arm_syncs, disarm_syncs, ret;

	atomic_set(&bench_syncs, 0);
	t0 = ktime_get_ns();
	ret = marker_set_probe(name, NULL, bench_mark_probe, NULL);
	t1 = ktime_get_ns();
	arm_syncs = atomic_read(&bench_syncs);
	if (ret) {
		pr_err("latency %s: %d\n", name, ret);
		return;
	}
	marker_disable_probe(name, bench_mark_probe, NULL);
	t2 = ktime_get_ns();
	disarm_syncs = atomic_read(&bench_syncs) - arm_syncs;
	pr_info("latency sites %u arm %llu us syncs %u disarm %llu us syncs %u: %s\n",
		bench_count_sites(name), (t1 - t0) / 1000,
		arm_syncs / num_online_cpus(), (t2 - t1) / 1000,
		disarm_syncs / num_online_cpus(), name);
}

static void bench_latency(void)
{
	int ret = register_kprobe(&bench_sync_kp);

	if (ret) {
		pr_err("cannot count do_sync_core(): %d\n", ret);
		return;
	}
	bench_latency_one("marker_bench_1");
	bench_latency_one("marker_bench_100");
	bench_latency_one("marker_bench_1000");
	unregister_kprobe(&bench_sync_kp);
	/* Keep the sites referenced. */
	if (READ_ONCE(bench_old_state) == 42) {
		many_1(0);
		many_100();
		many_1000();
	}
}

static int __init marker_bench_init(void)
{
	if (!iters || !runs)
		return -EINVAL;
	bench_rows();
	if (latency)
		bench_latency();
	pr_info("done\n");
	return 0;
}

static void __exit marker_bench_exit(void)
{
}

module_init(marker_bench_init);
module_exit(marker_bench_exit);
MODULE_DESCRIPTION("Kernel markers benchmark: markers, tracepoints, kprobes");
MODULE_LICENSE("GPL");
