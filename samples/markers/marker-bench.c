// SPDX-License-Identifier: GPL-2.0
/*
 * marker-bench.c: the cost of markers next to the tracepoints and kprobes
 * a kernel developer would use instead, measured in one boot.
 *
 * Each row times a tight loop around a small noinline function holding one
 * kind of site, dormant or armed with an empty probe. Interrupts are off
 * around each run; time is ktime_get_ns(). A row's figure is the median
 * of @runs runs, in ns per iteration, with min and max. On an emulated
 * machine whose clock counts one nanosecond per instruction retired, the
 * same figure counts the instructions of an iteration.
 *
 *	insmod marker-bench.ko rows=all
 *	echo sdt_int3_1arg > /sys/module/marker_bench/parameters/run
 *
 * prints one line per row, "marker_bench: row ID median ...". Rows:
 *
 *	baseline		a function with no site
 *	mark_dormant		a MARK() with no probe
 *	sdt_dormant		an SDT site with no probe
 *	tracepoint_dormant	a tracepoint with no probe
 *	old_marker_dormant	a 2.6.24-style marker: load, test, branch
 *	tracepoint_armed	a tracepoint, one empty probe
 *	tracepoint_armed_2probes	a tracepoint, two empty probes
 *	mark_armed		a MARK(), one empty probe (a direct call)
 *	mark_armed_2probes	a MARK(), two empty probes (the slow path)
 *	sdt_thunk_1arg		SDT sites armed with a call of (arm64: a
 *	sdt_thunk_4args		branch to) their own thunk (the default
 *	sdt_thunk_12args	mechanism), 1, 4 and 12 register or
 *	sdt_thunk_stack_arg	immediate args, one stack operand
 *	sdt_thunk_percpu	(-4@8(%rsp)) and one per-CPU operand
 *				(8@%gs:this_cpu_off, x86 only)
 *	sdt_call_1arg		the same 1, 4 and 12-arg sites armed with a
 *	sdt_call_4args		call of the trampoline: the mechanism must
 *	sdt_call_12args		be set to "call" first
 *	sdt_optprobe_1arg	the 1-arg site armed with a kprobe: its
 *	sdt_int3_1arg		mechanism must be set to "kprobe" first
 *				(/sys/kernel/debug/markers/sdt_mechanism),
 *				and kprobe optimization off for the int3 row
 *				(on arm64: a BRK kprobe, the only one)
 *	kprobe_entry		a kprobe on a function's entry
 *	mark_event		MARK() to its trace event, markers/marker_bench_k
 *	trace_event		a TRACE_EVENT with the same field and format,
 *				marker_bench/marker_bench_ev
 *	sdt_event		an SDT site to its trace event,
 *				sdt_marker_bench/sdt_k: each event enabled
 *				in tracefs first
 *	trace_printk		trace_printk() with the same format
 *	bpf_mark_event		a BPF tracepoint program on the marker event,
 *	bpf_trace_event		on the TRACE_EVENT, and a raw-tracepoint
 *	bpf_raw_tp		program on the TRACE_EVENT's tracepoint: each
 *				attached first by a BPF loader, the
 *				events not enabled
 *	live_base		a function that keeps 12 values live across
 *	tracepoint_dormant_live	where the others have their site, with
 *	mark_dormant_live	no site, and with each kind of site,
 *	sdt_dormant_live	dormant and armed with one empty probe (the
 *	tracepoint_armed_live	SDT site by its thunk): what the compiler
 *	mark_armed_live		does around a site that may call shows in
 *	sdt_armed_live		the dormant rows
 *	bpf_mark_raw		the raw-tracepoint program attached by marker
 *	bpf_sdt_raw		name to marker_bench_k, and by SDT key to
 *				marker_bench:sdt_k (armed by its thunk)
 *	dyndbg_dormant		a pr_debug(), off (its static key)
 *	dyndbg_event		the same to its trace event,
 *				dyndbg_marker_bench/fn_dyndbg (with
 *				CONFIG_MARKERS_DYNDBG): enabled first
 *	dyndbg_printk		the same printed ("+p"), the console at a
 *				level that drops the line: set first
 *
 * arming=1 also measures arming and disarming a name with 1, 100 and 1000
 * sites, and, as its anchor, enabling and disabling a static key with as
 * many jump-label sites (static_branch_enable(), static_branch_disable()):
 * the time (instructions, on a clock that counts them), the
 * machine-wide syncs of text patching (x86: calls of do_sync_core(), the
 * IPI text_poke_sync() sends, per CPU; arm64: calls of
 * kick_all_cpus_sync(), made once per sync by the CPU that patched) and
 * the grace periods waited for (calls of synchronize_rcu() by this task),
 * both counted with kprobes. Everything runs at load; "run" runs rows
 * again. The SDT keys marker_bench:many_1, many_100 and many_1000 have
 * as many sites (with GCC), for arming by the control file: what their
 * thunks take shows in /proc/vmallocinfo and /proc/kallsyms.
 *
 * A row the arch cannot run prints "row ID skipped: why": arm64 has no
 * SDT trampoline (no call rows), no per-CPU operand, and kprobes that
 * are not optimized.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/irqflags.h>
#include <linux/jump_label.h>
#include <linux/kprobes.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/sched.h>
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

static char *bench_rows_default = "all";
module_param_named(rows, bench_rows_default, charp, 0444);
MODULE_PARM_DESC(rows, "rows to run at load: comma-separated ids, or all");

static bool arming;
module_param(arming, bool, 0444);
MODULE_PARM_DESC(arming, "measure arming and disarming too");

static void bench_rows(const char *rows);

/* Writing rows to "run" runs them again, e.g. after switching mechanism. */
static int bench_run_set(const char *val, const struct kernel_param *kp)
{
	int ret = param_set_charp(val, kp);

	if (!ret)
		bench_rows(*(char **)kp->arg);
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
DECLARE_TRACE(marker_bench_live_tp, TP_PROTO(int v), TP_ARGS(v));
DEFINE_TRACE(marker_bench_live_tp, TP_PROTO(int v), TP_ARGS(v));

/* After the tracepoint above: this header defines its own. */
#define CREATE_TRACE_POINTS
#include "marker_bench_trace.h"

/*
 * The functions under test: the same body but for the site. noipa: GCC
 * must not fold identical ones into one (fn_base and fn_kprobed are).
 * clang has no noipa and does not merge functions at -O2; __used (the
 * address escapes) keeps its interprocedural passes from changing them.
 */
#ifdef CONFIG_CC_IS_GCC
#define __bench_noipa	__attribute__((__noipa__))
#else
#define __bench_noipa	__used
#endif

/* A 2.6.24-style marker, a load, test and branch on a state word. */
static int bench_old_state;

static noinline __bench_noipa void bench_old_call(int v)
{
	barrier();
}

static noinline __bench_noipa void fn_base(int v)
{
	barrier();
}

static noinline __bench_noipa void fn_mark(int v)
{
	MARK(marker_bench, "%d", v);
	barrier();
}

static noinline __bench_noipa void fn_sdt(int v)
{
	SDT_PROBE(marker_bench, sdt, v);
	barrier();
}

static noinline __bench_noipa void fn_sdt4(int v)
{
	SDT_PROBE(marker_bench, sdt4, v, v + 1, v + 2, v + 3);
	barrier();
}

static noinline __bench_noipa void fn_sdt12(int v)
{
	SDT_PROBE(marker_bench, sdt12, v, v + 1, v + 2, v + 3, v + 4, v + 5,
		  v + 6, v + 7, v + 8, v + 9, v + 10, v + 11);
	barrier();
}

/*
 * An operand in a stack slot, and one in this CPU's per-CPU area (x86:
 * arm64 has no segment-relative operand, and no sdt_percpu site).
 */
static noinline __bench_noipa void fn_sdt_stack(int v)
{
#ifdef CONFIG_X86
	asm volatile(SDT_PROBE_ASM(marker_bench, sdt_stack, "-4@8(%%rsp)") : :);
#else
	asm volatile(SDT_PROBE_ASM(marker_bench, sdt_stack, "-4@[sp, 8]") : :);
#endif
	barrier();
}

static noinline __bench_noipa void fn_sdt_percpu(int v)
{
#ifdef CONFIG_X86
	asm volatile(SDT_PROBE_ASM(marker_bench, sdt_percpu, "8@%%gs:this_cpu_off") : :);
#endif
	barrier();
}

static noinline __bench_noipa void fn_tp(int v)
{
	trace_marker_bench_tp(v);
	barrier();
}

static noinline __bench_noipa void fn_old(int v)
{
	if (unlikely(READ_ONCE(bench_old_state)))
		bench_old_call(v);
	barrier();
}

static noinline __bench_noipa void fn_kprobed(int v)
{
	barrier();
}

/* A marker event ... */
static noinline __bench_noipa void fn_trace(int v)
{
	MARK(marker_bench_k, "v=%d", v);
	barrier();
}

/* ... a TRACE_EVENT of the same field and format ... */
static noinline __bench_noipa void fn_trace_event(int v)
{
	trace_marker_bench_ev(v);
	barrier();
}

/* ... an SDT event ... */
static noinline __bench_noipa void fn_sdt_event(int v)
{
	SDT_PROBE(marker_bench, sdt_k, v);
	barrier();
}

/* ... a pr_debug() of the same format, dormant, to its event or printed ... */
static noinline __bench_noipa void fn_dyndbg(int v)
{
	pr_debug("v=%d\n", v);
	barrier();
}

/* ... next to trace_printk() with the same format. */
static noinline __bench_noipa void fn_trace_printk(int v)
{
	trace_printk("marker_bench_k: v=%d\n", v);
	barrier();
}

/*
 * A function that keeps 12 values live across its site: read before it
 * (READ_ONCE(): the compiler cannot read them again after), used after
 * it. Across a call, the x86-64 ABI keeps 6 registers (arm64: 10); a
 * site that may call makes the compiler save the rest, or keep them in
 * the callee-saved registers it then saves in the prologue, whether or
 * not the site is armed. An SDT site's asm takes its operands and
 * clobbers nothing.
 */
static int bench_live_in[12];
static int bench_live_out;

#define BENCH_LIVE(fn, site)						\
static noinline __bench_noipa void fn(int v)				\
{									\
	int a0 = READ_ONCE(bench_live_in[0]) + v;			\
	int a1 = READ_ONCE(bench_live_in[1]) + v;			\
	int a2 = READ_ONCE(bench_live_in[2]) + v;			\
	int a3 = READ_ONCE(bench_live_in[3]) + v;			\
	int a4 = READ_ONCE(bench_live_in[4]) + v;			\
	int a5 = READ_ONCE(bench_live_in[5]) + v;			\
	int a6 = READ_ONCE(bench_live_in[6]) + v;			\
	int a7 = READ_ONCE(bench_live_in[7]) + v;			\
	int a8 = READ_ONCE(bench_live_in[8]) + v;			\
	int a9 = READ_ONCE(bench_live_in[9]) + v;			\
	int a10 = READ_ONCE(bench_live_in[10]) + v;			\
	int a11 = READ_ONCE(bench_live_in[11]) + v;			\
									\
	site;								\
	WRITE_ONCE(bench_live_out, (a0 * a1) ^ (a2 * a3) ^ (a4 * a5) ^	\
		   (a6 * a7) ^ (a8 * a9) ^ (a10 * a11));		\
}

BENCH_LIVE(fn_live_base, barrier())
BENCH_LIVE(fn_live_tp, trace_marker_bench_live_tp(v))
BENCH_LIVE(fn_live_mark, MARK(marker_bench_live, "%d", v))
BENCH_LIVE(fn_live_sdt, SDT_PROBE(marker_bench, sdt_live, v))

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
BENCH_LOOP(fn_sdt4)
BENCH_LOOP(fn_sdt12)
BENCH_LOOP(fn_sdt_stack)
BENCH_LOOP(fn_sdt_percpu)
BENCH_LOOP(fn_tp)
BENCH_LOOP(fn_old)
BENCH_LOOP(fn_kprobed)
BENCH_LOOP(fn_trace)
BENCH_LOOP(fn_trace_event)
BENCH_LOOP(fn_sdt_event)
BENCH_LOOP(fn_trace_printk)
BENCH_LOOP(fn_dyndbg)
BENCH_LOOP(fn_live_base)
BENCH_LOOP(fn_live_tp)
BENCH_LOOP(fn_live_mark)
BENCH_LOOP(fn_live_sdt)

/* Empty probes. */
static void bench_mark_probe(void *data, const char *fmt, va_list *args)
{
}

static void bench_sdt_probe(void *data, const u64 *args, unsigned int n)
{
}

/* Before an SDT row: a probe that counts, so that a site never armed shows. */
static void bench_sdt_count(void *data, const u64 *args, unsigned int n)
{
	(*(unsigned int *)data)++;
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
static void bench_time(const char *id, const char *what,
		       u64 (*loop)(unsigned int))
{
	u64 t[16];
	unsigned int r, n = min_t(unsigned int, runs, ARRAY_SIZE(t));

	loop(iters / 10 + 1);	/* warm up */
	for (r = 0; r < n; r++)
		t[r] = loop(iters) * 100 / iters;
	sort(t, n, sizeof(t[0]), cmp_u64, NULL);
	pr_info("row %s median %llu.%02llu min %llu.%02llu max %llu.%02llu ns runs %u iters %u: %s\n",
		id, t[n / 2] / 100, t[n / 2] % 100, t[0] / 100, t[0] % 100,
		t[n - 1] / 100, t[n - 1] % 100, n, iters, what);
}

/* Let kprobes' delayed optimizer run (it waits 5 jiffies). */
static void bench_settle(void)
{
	msleep(200);
}

static int bench_mark_row(const char *id, const char *what, int nprobes,
			  const char *name, u64 (*loop)(unsigned int))
{
	static int second;
	int ret;

	ret = marker_set_probe(name, "%d", bench_mark_probe, NULL);
	if (!ret && nprobes > 1)
		ret = marker_set_probe(name, "%d", bench_mark_probe, &second);
	if (!ret)
		bench_time(id, what, loop);
	marker_disable_probe(name, bench_mark_probe, &second);
	marker_disable_probe(name, bench_mark_probe, NULL);
	return ret;
}

static int bench_sdt_row(const char *id, const char *what, const char *name,
			 u64 (*loop)(unsigned int))
{
	unsigned int hits = 0;
	int ret;

	ret = sdt_set_probe("marker_bench", name, -1, bench_sdt_count, &hits);
	if (ret)
		return ret;
	loop(1);
	sdt_disable_probe("marker_bench", name, bench_sdt_count, &hits);
	if (hits != 1) {
		pr_err("row %s: the probe never ran (%u hits)\n", id, hits);
		return -EIO;
	}
	ret = sdt_set_probe("marker_bench", name, -1, bench_sdt_probe, NULL);
	if (ret)
		return ret;
	bench_settle();
	bench_time(id, what, loop);
	sdt_disable_probe("marker_bench", name, bench_sdt_probe, NULL);
	return 0;
}

static int bench_tp_row(const char *id, const char *what, int nprobes)
{
	static int second;
	int ret;

	ret = register_trace_marker_bench_tp(bench_tp_probe, NULL);
	if (!ret && nprobes > 1) {
		ret = register_trace_marker_bench_tp(bench_tp_probe, &second);
		if (ret)
			unregister_trace_marker_bench_tp(bench_tp_probe, NULL);
	}
	if (ret)
		return ret;
	bench_time(id, what, loop_fn_tp);
	if (nprobes > 1)
		unregister_trace_marker_bench_tp(bench_tp_probe, &second);
	unregister_trace_marker_bench_tp(bench_tp_probe, NULL);
	tracepoint_synchronize_unregister();
	return 0;
}

static int bench_tp_live_row(void)
{
	int ret = register_trace_marker_bench_live_tp(bench_tp_probe, NULL);

	if (ret)
		return ret;
	bench_time("tracepoint_armed_live", "12 live values, tracepoint, one empty probe",
		   loop_fn_live_tp);
	unregister_trace_marker_bench_live_tp(bench_tp_probe, NULL);
	tracepoint_synchronize_unregister();
	return 0;
}

static int bench_kprobe_row(void)
{
	int ret;

	bench_kp.addr = (kprobe_opcode_t *)fn_kprobed;
	ret = register_kprobe(&bench_kp);
	if (ret)
		return ret;
	bench_settle();
	bench_time("kprobe_entry", "kprobe on a function entry", loop_fn_kprobed);
	unregister_kprobe(&bench_kp);
	return 0;
}

/* The trap of a kprobe that is not optimized. */
#ifdef CONFIG_X86
#define BENCH_TRAP	"int3"
#else
#define BENCH_TRAP	"BRK"
#endif

/* The rows this arch cannot run (see the top), and why; NULL: it can. */
static const char *bench_arch_why(const char *id)
{
	if (!IS_ENABLED(CONFIG_HAVE_ARCH_MARKERS_SDT_CALL) &&
	    (str_has_prefix(id, "sdt_thunk_") || str_has_prefix(id, "sdt_call_")))
		return "SDT sites are armed by kprobes only";
	if (!IS_ENABLED(CONFIG_HAVE_ARCH_MARKERS_SDT_TRAMPOLINE) &&
	    str_has_prefix(id, "sdt_call_"))
		return "no SDT trampoline: a thunk or a kprobe arms each site";
	if (!IS_ENABLED(CONFIG_X86) && !strcmp(id, "sdt_thunk_percpu"))
		return "no per-CPU (segment-relative) operand";
	if (!IS_ENABLED(CONFIG_OPTPROBES) && !strcmp(id, "sdt_optprobe_1arg"))
		return "no optimized kprobes";
	return NULL;
}

/* Rows that need the shell to set something up first: not in "all". */
static const char * const bench_setup_rows[] = {
	"sdt_call_1arg", "sdt_call_4args", "sdt_call_12args",
	"sdt_optprobe_1arg", "sdt_int3_1arg", "mark_event", "trace_event",
	"sdt_event", "bpf_mark_event", "bpf_trace_event", "bpf_raw_tp",
	"bpf_mark_raw", "bpf_sdt_raw",
	"dyndbg_event", "dyndbg_printk",
};

/* Is row @id in the comma-separated @rows ("all": those needing no setup)? */
static bool bench_listed(const char *rows, const char *id)
{
	size_t n = strlen(id);
	const char *p;
	unsigned int i;

	if (!strcmp(rows, "all")) {
		for (i = 0; i < ARRAY_SIZE(bench_setup_rows); i++)
			if (!strcmp(id, bench_setup_rows[i]))
				return false;
		return true;
	}
	for (p = rows; (p = strstr(p, id)); p += n)
		if ((p == rows || p[-1] == ',') && (!p[n] || p[n] == ',' ||
						    p[n] == '\n'))
			return true;
	return false;
}

/* Run row @id of @rows? A row the arch cannot run says so instead. */
static bool bench_want(const char *rows, const char *id)
{
	const char *why;

	if (!bench_listed(rows, id))
		return false;
	why = bench_arch_why(id);
	if (why)
		pr_info("row %s skipped: %s\n", id, why);
	return !why;
}

static void bench_rows(const char *rows)
{
	int ret = 0;

	if (bench_want(rows, "baseline"))
		bench_time("baseline", "nothing", loop_fn_base);
	if (bench_want(rows, "mark_dormant"))
		bench_time("mark_dormant", "MARK(), no probe", loop_fn_mark);
	if (bench_want(rows, "sdt_dormant"))
		bench_time("sdt_dormant", "SDT site, no probe", loop_fn_sdt);
	if (bench_want(rows, "tracepoint_dormant"))
		bench_time("tracepoint_dormant", "tracepoint, no probe", loop_fn_tp);
	if (bench_want(rows, "old_marker_dormant"))
		bench_time("old_marker_dormant",
			   "2.6.24-style marker (load, test, branch)", loop_fn_old);
	if (bench_want(rows, "tracepoint_armed"))
		ret = ret ?: bench_tp_row("tracepoint_armed",
					  "tracepoint, one empty probe", 1);
	if (bench_want(rows, "tracepoint_armed_2probes"))
		ret = ret ?: bench_tp_row("tracepoint_armed_2probes",
					  "tracepoint, two empty probes", 2);
	if (bench_want(rows, "mark_armed"))
		ret = ret ?: bench_mark_row("mark_armed", "MARK(), one empty probe", 1,
					    "marker_bench", loop_fn_mark);
	if (bench_want(rows, "mark_armed_2probes"))
		ret = ret ?: bench_mark_row("mark_armed_2probes",
					    "MARK(), two empty probes", 2,
					    "marker_bench", loop_fn_mark);
	if (bench_want(rows, "sdt_thunk_1arg"))
		ret = ret ?: bench_sdt_row("sdt_thunk_1arg",
					   "SDT site, thunk, 1 argument", "sdt",
					   loop_fn_sdt);
	if (bench_want(rows, "sdt_thunk_4args"))
		ret = ret ?: bench_sdt_row("sdt_thunk_4args",
					   "SDT site, thunk, 4 arguments", "sdt4",
					   loop_fn_sdt4);
	if (bench_want(rows, "sdt_thunk_12args"))
		ret = ret ?: bench_sdt_row("sdt_thunk_12args",
					   "SDT site, thunk, 12 arguments", "sdt12",
					   loop_fn_sdt12);
	if (bench_want(rows, "sdt_thunk_stack_arg"))
		ret = ret ?: bench_sdt_row("sdt_thunk_stack_arg",
					   "SDT site, thunk, a stack operand",
					   "sdt_stack", loop_fn_sdt_stack);
	if (bench_want(rows, "sdt_thunk_percpu"))
		ret = ret ?: bench_sdt_row("sdt_thunk_percpu",
					   "SDT site, thunk, a per-CPU operand",
					   "sdt_percpu", loop_fn_sdt_percpu);
	if (bench_want(rows, "live_base"))
		bench_time("live_base", "12 live values, no site", loop_fn_live_base);
	if (bench_want(rows, "tracepoint_dormant_live"))
		bench_time("tracepoint_dormant_live", "12 live values, tracepoint, no probe",
			   loop_fn_live_tp);
	if (bench_want(rows, "mark_dormant_live"))
		bench_time("mark_dormant_live", "12 live values, MARK(), no probe",
			   loop_fn_live_mark);
	if (bench_want(rows, "sdt_dormant_live"))
		bench_time("sdt_dormant_live", "12 live values, SDT site, no probe",
			   loop_fn_live_sdt);
	if (bench_want(rows, "tracepoint_armed_live"))
		ret = ret ?: bench_tp_live_row();
	if (bench_want(rows, "mark_armed_live"))
		ret = ret ?: bench_mark_row("mark_armed_live",
					    "12 live values, MARK(), one empty probe", 1,
					    "marker_bench_live", loop_fn_live_mark);
	if (bench_want(rows, "sdt_armed_live"))
		ret = ret ?: bench_sdt_row("sdt_armed_live",
					   "12 live values, SDT site, thunk", "sdt_live",
					   loop_fn_live_sdt);
	if (bench_want(rows, "sdt_call_1arg"))
		ret = ret ?: bench_sdt_row("sdt_call_1arg",
					   "SDT site, call, 1 argument", "sdt",
					   loop_fn_sdt);
	if (bench_want(rows, "sdt_call_4args"))
		ret = ret ?: bench_sdt_row("sdt_call_4args",
					   "SDT site, call, 4 arguments", "sdt4",
					   loop_fn_sdt4);
	if (bench_want(rows, "sdt_call_12args"))
		ret = ret ?: bench_sdt_row("sdt_call_12args",
					   "SDT site, call, 12 arguments", "sdt12",
					   loop_fn_sdt12);
	if (bench_want(rows, "sdt_optprobe_1arg"))
		ret = ret ?: bench_sdt_row("sdt_optprobe_1arg",
					   "SDT site, optimized kprobe, 1 argument",
					   "sdt", loop_fn_sdt);
	if (bench_want(rows, "sdt_int3_1arg"))
		ret = ret ?: bench_sdt_row("sdt_int3_1arg",
					   "SDT site, " BENCH_TRAP " kprobe, 1 argument",
					   "sdt", loop_fn_sdt);
	if (bench_want(rows, "kprobe_entry"))
		ret = ret ?: bench_kprobe_row();
	if (bench_want(rows, "mark_event"))
		bench_time("mark_event", "MARK() to its trace event", loop_fn_trace);
	if (bench_want(rows, "trace_event"))
		bench_time("trace_event", "TRACE_EVENT, same field and format",
			   loop_fn_trace_event);
	if (bench_want(rows, "sdt_event"))
		bench_time("sdt_event", "SDT site, 1 argument, to its trace event",
			   loop_fn_sdt_event);
	if (bench_want(rows, "trace_printk"))
		bench_time("trace_printk", "trace_printk(), same format",
			   loop_fn_trace_printk);
	if (bench_want(rows, "bpf_mark_event"))
		bench_time("bpf_mark_event", "MARK() event, BPF tracepoint program",
			   loop_fn_trace);
	if (bench_want(rows, "bpf_trace_event"))
		bench_time("bpf_trace_event", "TRACE_EVENT, BPF tracepoint program",
			   loop_fn_trace_event);
	if (bench_want(rows, "bpf_raw_tp"))
		bench_time("bpf_raw_tp", "TRACE_EVENT, BPF raw tracepoint program",
			   loop_fn_trace_event);
	if (bench_want(rows, "bpf_mark_raw"))
		bench_time("bpf_mark_raw", "MARK(), BPF raw program by marker name",
			   loop_fn_trace);
	if (bench_want(rows, "bpf_sdt_raw"))
		bench_time("bpf_sdt_raw", "SDT site, BPF raw program by SDT key",
			   loop_fn_sdt_event);
	if (bench_want(rows, "dyndbg_dormant"))
		bench_time("dyndbg_dormant", "pr_debug(), off", loop_fn_dyndbg);
	if (bench_want(rows, "dyndbg_event"))
		bench_time("dyndbg_event", "pr_debug() to its trace event",
			   loop_fn_dyndbg);
	if (bench_want(rows, "dyndbg_printk"))
		bench_time("dyndbg_printk", "pr_debug() printed, line dropped",
			   loop_fn_dyndbg);
	if (ret)
		pr_err("rows %s: %d\n", rows, ret);
}

/* --- Arming ----------------------------------------------------------- */

/* Sites of one name, copied by the compiler (one descriptor). */
static noinline void many_1(int v)
{
	MARK(marker_bench_1, "%d", v);
}

/*
 * GCC copies these sites 100 and 1000 times; clang does not unroll a
 * loop that holds an asm goto, so under clang they stay one site each.
 */
static noinline void many_100(void)
{
	int i;

#ifdef CONFIG_CC_IS_GCC
#pragma GCC unroll 100
#endif
	for (i = 0; i < 100; i++)
		MARK(marker_bench_100, "%d", i);
}

static noinline void many_1000(void)
{
	int i;

#ifdef CONFIG_CC_IS_GCC
#pragma GCC unroll 1000
#endif
	for (i = 0; i < 1000; i++)
		MARK(marker_bench_1000, "%d", i);
}

/*
 * SDT sites of one key, copied as the MARK() ones are: the guest job
 * arms them, 1, 101 and 1101 in all, and reads the executable memory
 * their thunks take.
 */
static noinline void sdt_many_1(int v)
{
	SDT_PROBE(marker_bench, many_1, v);
}

static noinline void sdt_many_100(void)
{
	int i;

#ifdef CONFIG_CC_IS_GCC
#pragma GCC unroll 100
#endif
	for (i = 0; i < 100; i++)
		SDT_PROBE(marker_bench, many_100, i);
}

static noinline void sdt_many_1000(void)
{
	int i;

#ifdef CONFIG_CC_IS_GCC
#pragma GCC unroll 1000
#endif
	for (i = 0; i < 1000; i++)
		SDT_PROBE(marker_bench, many_1000, i);
}

/* The anchor: a static key's jump-label sites, 1, 100 and 1000 of them. */
static DEFINE_STATIC_KEY_FALSE(bench_key_1);
static DEFINE_STATIC_KEY_FALSE(bench_key_100);
static DEFINE_STATIC_KEY_FALSE(bench_key_1000);
static int bench_key_sink;

static noinline void keys_1(int v)
{
	if (static_branch_unlikely(&bench_key_1))
		WRITE_ONCE(bench_key_sink, v);
}

static noinline void keys_100(void)
{
	int i;

#ifdef CONFIG_CC_IS_GCC
#pragma GCC unroll 100
#endif
	for (i = 0; i < 100; i++)
		if (static_branch_unlikely(&bench_key_100))
			WRITE_ONCE(bench_key_sink, i);
}

static noinline void keys_1000(void)
{
	int i;

#ifdef CONFIG_CC_IS_GCC
#pragma GCC unroll 1000
#endif
	for (i = 0; i < 1000; i++)
		if (static_branch_unlikely(&bench_key_1000))
			WRITE_ONCE(bench_key_sink, i);
}

/*
 * What counts a machine-wide sync of text patching (see the top), and
 * whether it runs on every CPU of a sync or once.
 */
#ifdef CONFIG_X86
#define BENCH_SYNC_SYMBOL	"do_sync_core"
#define BENCH_SYNC_CPUS		num_online_cpus()
#else
#define BENCH_SYNC_SYMBOL	"kick_all_cpus_sync"
#define BENCH_SYNC_CPUS		1
#endif

static atomic_t bench_syncs, bench_gps;
static struct task_struct *bench_task;

static int bench_sync_pre(struct kprobe *p, struct pt_regs *regs)
{
	atomic_inc(&bench_syncs);
	return 0;
}

static int bench_gp_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (current == READ_ONCE(bench_task))
		atomic_inc(&bench_gps);
	return 0;
}

static struct kprobe bench_sync_kp = {
	.symbol_name = BENCH_SYNC_SYMBOL,
	.pre_handler = bench_sync_pre,
};

static struct kprobe bench_gp_kp = {
	.symbol_name = "synchronize_rcu",
	.pre_handler = bench_gp_pre,
};

static unsigned int bench_count_sites(const char *name)
{
	const struct marker_site *s;
	unsigned int n = 0;

	for (s = THIS_MODULE->markers;
	     s < THIS_MODULE->markers + THIS_MODULE->num_markers; s++)
		if (!strcmp(marker_site_name(s), name))
			n++;
	return n;
}

static unsigned int bench_count_key_sites(struct static_key_false *key)
{
	struct jump_entry *j;
	unsigned int n = 0;

	for (j = THIS_MODULE->jump_entries;
	     j < THIS_MODULE->jump_entries + THIS_MODULE->num_jump_entries; j++)
		if (jump_entry_key(j) == &key->key)
			n++;
	return n;
}

/* One line per measurement: the same for a MARK() name and a static key. */
static void bench_arming_report(const char *what, unsigned int sites,
				u64 t0, u64 t1, u64 t2, int arm_syncs,
				const char *name)
{
	int disarm_syncs = atomic_read(&bench_syncs) - arm_syncs;

	pr_info("arming %s sites %u arm_ns %llu arm_syncs %u disarm_ns %llu disarm_syncs %u grace_periods %d: %s\n",
		what, sites, t1 - t0, arm_syncs / BENCH_SYNC_CPUS, t2 - t1,
		disarm_syncs / BENCH_SYNC_CPUS, atomic_read(&bench_gps), name);
}

static void bench_arming_start(void)
{
	atomic_set(&bench_syncs, 0);
	atomic_set(&bench_gps, 0);
	WRITE_ONCE(bench_task, current);
}

static void bench_arming_one(const char *name)
{
	int arm_syncs, ret;
	u64 t0, t1, t2;

	bench_arming_start();
	t0 = ktime_get_ns();
	ret = marker_set_probe(name, NULL, bench_mark_probe, NULL);
	t1 = ktime_get_ns();
	arm_syncs = atomic_read(&bench_syncs);
	if (ret) {
		WRITE_ONCE(bench_task, NULL);
		pr_err("arming %s: %d\n", name, ret);
		return;
	}
	marker_disable_probe(name, bench_mark_probe, NULL);
	t2 = ktime_get_ns();
	WRITE_ONCE(bench_task, NULL);
	bench_arming_report("mark", bench_count_sites(name), t0, t1, t2,
			    arm_syncs, name);
}

static void bench_key_one(struct static_key_false *key, const char *name)
{
	int arm_syncs;
	u64 t0, t1, t2;

	bench_arming_start();
	t0 = ktime_get_ns();
	static_branch_enable(key);
	t1 = ktime_get_ns();
	arm_syncs = atomic_read(&bench_syncs);
	static_branch_disable(key);
	t2 = ktime_get_ns();
	WRITE_ONCE(bench_task, NULL);
	bench_arming_report("static_key", bench_count_key_sites(key), t0, t1,
			    t2, arm_syncs, name);
}

static void bench_arming(void)
{
	int ret = register_kprobe(&bench_sync_kp);

	if (ret) {
		pr_err("cannot count %s(): %d\n", BENCH_SYNC_SYMBOL, ret);
		return;
	}
	ret = register_kprobe(&bench_gp_kp);
	if (ret) {
		pr_err("cannot count synchronize_rcu(): %d\n", ret);
		unregister_kprobe(&bench_sync_kp);
		return;
	}
	/* Let kprobes optimize the counters now, not while they count. */
	bench_settle();
	bench_arming_one("marker_bench_1");
	bench_arming_one("marker_bench_100");
	bench_arming_one("marker_bench_1000");
	bench_key_one(&bench_key_1, "bench_key_1");
	bench_key_one(&bench_key_100, "bench_key_100");
	bench_key_one(&bench_key_1000, "bench_key_1000");
	unregister_kprobe(&bench_gp_kp);
	unregister_kprobe(&bench_sync_kp);
	/* Keep the sites referenced. */
	if (READ_ONCE(bench_old_state) == 42) {
		many_1(0);
		many_100();
		many_1000();
		keys_1(0);
		keys_100();
		keys_1000();
		sdt_many_1(0);
		sdt_many_100();
		sdt_many_1000();
	}
}

static int __init marker_bench_init(void)
{
	if (!iters || !runs)
		return -EINVAL;
	bench_rows(bench_rows_default);
	if (arming)
		bench_arming();
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
