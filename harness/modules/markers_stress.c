// SPDX-License-Identifier: GPL-2.0
/*
 * markers_stress: arm/disarm storms and fault injection against the marker
 * registry, driven from user space by the integration tests. Not a KUnit
 * suite: its runs are long, and the shell sets up fault injection.
 *
 * Its sites: MARK() names stress_m0 ... stress_m7 and SDT names
 * stress:s0 ... stress:s7, one site each, but stress_m7 and stress:s7,
 * which have three (an inlined helper). In /sys/kernel/debug/markers_stress/:
 *
 * storm	write CYCLES: kthreads on every CPU fire the sites in a loop while
 *		four arming kthreads attach and detach probes to the 16 names,
 *		CYCLES times in all, through marker_set_probe() and
 *		sdt_set_probe(). Half the names keep a second probe attached
 *		throughout, so that their sites stay patched; the others are
 *		patched and unpatched at each cycle. Every probe checks, at each
 *		call, that its detach has not returned yet ("late"), and each
 *		detach that no call of the probe is still running when it
 *		returns ("running"). Read: the result.
 * fault	write CALLS: that many attach or detach calls on the same names
 *		from the writing task, which the shell lets fail allocations
 *		(/proc/self/make-it-fail, failslab, fail_page_alloc). Each call
 *		must succeed or fail with -ENOMEM, detaching must not fail, and
 *		after each the registry must agree with the text and with
 *		kprobes (marker_check_consistency()). Read: the result.
 * check	read: the number of sites whose state disagrees with the text
 *		or kprobes, for checks between module loads.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sdt.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "internal.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define STRESS_SLOTS	16
#define STRESS_ARMERS	4

struct stress_slot {
	const char *name;	/* MARK() name, or the SDT name of provider "stress" */
	bool sdt;
	bool anchored;		/* a second probe stays attached */
	bool attached;		/* the storm's probe, by its arming thread */
	int live;		/* 1 from before attaching until detach returns */
	atomic_t calls;
	atomic_t late;		/* calls after detach returned */
	atomic_t inflight;	/* calls of the storm's probe running now */
	atomic_t running;	/* ... seen running when detach returned */
};

static struct stress_slot slots[STRESS_SLOTS] = {
	{ "stress_m0" }, { "stress_m1" }, { "stress_m2" }, { "stress_m3" },
	{ "stress_m4" }, { "stress_m5" }, { "stress_m6" }, { "stress_m7" },
	{ "s0", true }, { "s1", true }, { "s2", true }, { "s3", true },
	{ "s4", true }, { "s5", true }, { "s6", true }, { "s7", true },
};

static unsigned int anchored = 0xaaaa;
module_param(anchored, uint, 0644);
MODULE_PARM_DESC(anchored, "storm: a bit per name (stress_m0 first) that keeps a second probe");

static char stress_result[256];
static DEFINE_MUTEX(stress_mutex);

/* --- Sites ------------------------------------------------------------ */

static __always_inline void stress_inline(int v)
{
	MARK(stress_m7, "%d", v);
	SDT_PROBE(stress, s7, v);
}

static noinline void stress_fire(int v, unsigned long w)
{
	MARK(stress_m0, "%d", v);
	MARK(stress_m1, "%d %lu", v, w);
	MARK(stress_m2, "%s %d", "stress", v);
	MARK(stress_m3, "%p", &v);
	MARK(stress_m4, "%d", v);
	MARK(stress_m5, "%lu", w);
	MARK(stress_m6, MARK_NOARGS);
	SDT_PROBE(stress, s0, v);
	SDT_PROBE(stress, s1, v, w);
	SDT_PROBE(stress, s2, w);
	SDT_PROBE(stress, s3);
	SDT_PROBE(stress, s4, v, v, v);
	SDT_PROBE(stress, s5, w);
	SDT_PROBE(stress, s6, v);
	stress_inline(v);
	stress_inline(v + 1);
	stress_inline(v + 2);
}

/* --- Probes ----------------------------------------------------------- */

/*
 * A call of the storm's probe: late if its detach has returned already,
 * and in flight until it returns. It lingers, so that a detach that
 * returned without waiting for it would find it still running.
 */
static void stress_run(struct stress_slot *s)
{
	int i;

	atomic_inc(&s->inflight);
	atomic_inc(&s->calls);
	if (!READ_ONCE(s->live))
		atomic_inc(&s->late);
	for (i = 0; i < 500; i++)
		cpu_relax();
	atomic_dec(&s->inflight);
}

static void stress_probe(void *data, const char *fmt, va_list *args)
{
	stress_run(data);
}

static void stress_sdt_probe(void *data, const u64 *args, unsigned int n)
{
	stress_run(data);
}

static void stress_anchor(void *data, const char *fmt, va_list *args)
{
}

static void stress_sdt_anchor(void *data, const u64 *args, unsigned int n)
{
}

static int stress_attach(struct stress_slot *s)
{
	if (s->sdt)
		return sdt_set_probe("stress", s->name, -1, stress_sdt_probe, s);
	return marker_set_probe(s->name, NULL, stress_probe, s);
}

static int stress_detach(struct stress_slot *s)
{
	if (s->sdt)
		return sdt_disable_probe("stress", s->name, stress_sdt_probe, s);
	return marker_disable_probe(s->name, stress_probe, s);
}

static int stress_anchor_set(struct stress_slot *s, bool on)
{
	if (s->sdt)
		return on ? sdt_set_probe("stress", s->name, -1, stress_sdt_anchor, s) :
			    sdt_disable_probe("stress", s->name, stress_sdt_anchor, s);
	return on ? marker_set_probe(s->name, NULL, stress_anchor, s) :
		    marker_disable_probe(s->name, stress_anchor, s);
}

/* Toggle the storm's probe of @s; false on an error. */
static bool stress_toggle(struct stress_slot *s)
{
	if (s->attached) {
		if (stress_detach(s))
			return false;
		/* Returned: no CPU may still run the probe. */
		if (atomic_read(&s->inflight))
			atomic_inc(&s->running);
		WRITE_ONCE(s->live, 0);
		s->attached = false;
		return true;
	}
	WRITE_ONCE(s->live, 1);
	if (stress_attach(s)) {
		WRITE_ONCE(s->live, 0);
		return false;
	}
	s->attached = true;
	return true;
}

/* --- The storm -------------------------------------------------------- */

static int stress_firer(void *unused)
{
	unsigned long i = 0;

	while (!kthread_should_stop()) {
		stress_fire(i, i);
		i++;
		cond_resched();
	}
	return 0;
}

struct stress_armer {
	struct task_struct *task;
	unsigned int id, cycles, done, errors;
};

static int stress_arm_thread(void *data)
{
	struct stress_armer *a = data;
	unsigned int i, k = 0;

	while (a->done < a->cycles && !kthread_should_stop()) {
		/* The slots of this armer: id, id + STRESS_ARMERS, ... */
		i = a->id + (k++ % (STRESS_SLOTS / STRESS_ARMERS)) * STRESS_ARMERS;
		if (!stress_toggle(&slots[i]))
			a->errors++;
		a->done++;
		cond_resched();
	}
	/* Leave nothing attached; wait to be stopped. */
	for (i = a->id; i < STRESS_SLOTS; i += STRESS_ARMERS)
		if (slots[i].attached && !stress_toggle(&slots[i]))
			a->errors++;
	while (!kthread_should_stop())
		msleep(20);
	return 0;
}

static int stress_storm(unsigned int cycles)
{
	struct stress_armer armers[STRESS_ARMERS] = {};
	unsigned int i, cpu, done = 0, errors = 0, calls = 0, late = 0, running = 0;
	struct task_struct **firers;
	int ret = 0;

	/* By CPU id: an NR_CPUS array (512 on arm64) is 4 kB of stack. */
	firers = kcalloc(nr_cpu_ids, sizeof(*firers), GFP_KERNEL);
	if (!firers)
		return -ENOMEM;
	for (i = 0; i < STRESS_SLOTS; i++) {
		slots[i].anchored = anchored & BIT(i);
		atomic_set(&slots[i].calls, 0);
		atomic_set(&slots[i].late, 0);
		atomic_set(&slots[i].inflight, 0);
		atomic_set(&slots[i].running, 0);
		if (slots[i].anchored && stress_anchor_set(&slots[i], true))
			errors++;
	}
	for_each_online_cpu(cpu) {
		firers[cpu] = kthread_create_on_cpu(stress_firer, NULL, cpu,
						    "markers-fire/%u");
		if (IS_ERR(firers[cpu])) {
			firers[cpu] = NULL;
			ret = -ENOMEM;
			goto stop;
		}
		/* Firing in every gap the arming threads leave, not instead. */
		set_user_nice(firers[cpu], MAX_NICE);
		wake_up_process(firers[cpu]);
	}
	for (i = 0; i < STRESS_ARMERS; i++) {
		armers[i].id = i;
		armers[i].cycles = cycles / STRESS_ARMERS +
				   (i < cycles % STRESS_ARMERS);
		armers[i].task = kthread_run(stress_arm_thread, &armers[i],
					     "markers-arm/%u", i);
		if (IS_ERR(armers[i].task)) {
			armers[i].task = NULL;
			ret = -ENOMEM;
			goto stop;
		}
	}
	for (i = 0; i < STRESS_ARMERS; i++)
		while (READ_ONCE(armers[i].done) < armers[i].cycles)
			msleep(20);
stop:
	for (i = 0; i < STRESS_ARMERS; i++) {
		if (!armers[i].task)
			continue;
		kthread_stop(armers[i].task);
		done += armers[i].done;
		errors += armers[i].errors;
	}
	for_each_online_cpu(cpu)
		if (firers[cpu])
			kthread_stop(firers[cpu]);
	for (i = 0; i < STRESS_SLOTS; i++) {
		if (slots[i].anchored && stress_anchor_set(&slots[i], false))
			errors++;
		calls += atomic_read(&slots[i].calls);
		late += atomic_read(&slots[i].late);
		running += atomic_read(&slots[i].running);
	}
	snprintf(stress_result, sizeof(stress_result),
		 "storm cycles %u calls %u late %u running %u errors %u inconsistent %d\n",
		 done, calls, late, running, errors, marker_check_consistency());
	kfree(firers);
	return ret;
}

/* --- Fault injection -------------------------------------------------- */

/* Does the registry agree with what the calls of @s returned? */
static bool stress_slot_consistent(struct stress_slot *s)
{
	char key[MARKER_KEY_MAX];
	unsigned int n, armed;

	if (s->sdt)
		snprintf(key, sizeof(key), "stress:%s", s->name);
	n = marker_count_sites(s->sdt ? key : s->name, &armed);
	/*
	 * An SDT site may be in error (a kprobe refused), not armed: every
	 * site is one or the other.
	 */
	if (s->attached)
		return armed + (s->sdt ? sdt_count_errors(key) : 0) == n;
	return !armed;
}

static int stress_fault(unsigned int calls)
{
	unsigned int i, failed = 0, bad = 0, inconsistent = 0;
	struct stress_slot *s;
	int ret;

	for (i = 0; i < calls; i++) {
		s = &slots[get_random_u32_below(STRESS_SLOTS)];
		if (s->attached) {
			ret = stress_detach(s);
			if (ret)
				bad++;		/* detaching never fails */
			else
				s->attached = false;
		} else {
			ret = stress_attach(s);
			if (!ret)
				s->attached = true;
			else if (ret == -ENOMEM)
				failed++;
			else
				bad++;
		}
		if (!stress_slot_consistent(s))
			inconsistent++;
		inconsistent += marker_check_consistency();
		stress_fire(i, i);
		cond_resched();
	}
	for (i = 0; i < STRESS_SLOTS; i++)
		if (slots[i].attached && !stress_detach(&slots[i]))
			slots[i].attached = false;
	snprintf(stress_result, sizeof(stress_result),
		 "fault calls %u failed %u bad %u inconsistent %u\n",
		 calls, failed, bad, inconsistent);
	return 0;
}

/* --- debugfs ---------------------------------------------------------- */

static ssize_t stress_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	int (*run)(unsigned int) = file->private_data;
	unsigned int n;
	int ret;

	ret = kstrtouint_from_user(ubuf, len, 0, &n);
	if (ret)
		return ret;
	mutex_lock(&stress_mutex);
	stress_result[0] = '\0';
	ret = run(n);
	mutex_unlock(&stress_mutex);
	return ret ?: len;
}

static ssize_t stress_read(struct file *file, char __user *ubuf, size_t len,
			   loff_t *ppos)
{
	char buf[sizeof(stress_result)];
	int n;

	mutex_lock(&stress_mutex);
	n = strscpy(buf, stress_result, sizeof(buf));
	mutex_unlock(&stress_mutex);
	return simple_read_from_buffer(ubuf, len, ppos, buf, max(n, 0));
}

static const struct file_operations stress_fops = {
	.open = simple_open,
	.read = stress_read,
	.write = stress_write,
};

static ssize_t stress_check(struct file *file, char __user *ubuf, size_t len,
			    loff_t *ppos)
{
	char buf[16];
	int n = snprintf(buf, sizeof(buf), "%d\n", marker_check_consistency());

	return simple_read_from_buffer(ubuf, len, ppos, buf, n);
}

static const struct file_operations stress_check_fops = {
	.read = stress_check,
};

static struct dentry *stress_dir;

static int __init stress_init(void)
{
	stress_dir = debugfs_create_dir("markers_stress", NULL);
	debugfs_create_file("storm", 0600, stress_dir, stress_storm, &stress_fops);
	debugfs_create_file("fault", 0600, stress_dir, stress_fault, &stress_fops);
	debugfs_create_file("check", 0400, stress_dir, NULL, &stress_check_fops);
	return 0;
}

static void __exit stress_exit(void)
{
	debugfs_remove(stress_dir);
}

module_init(stress_init);
module_exit(stress_exit);
MODULE_DESCRIPTION("Kernel markers: arm/disarm storms and fault injection");
MODULE_LICENSE("GPL");
