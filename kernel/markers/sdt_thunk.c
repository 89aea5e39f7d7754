// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: the thunks of SDT sites, for the SDT mechanism (sdt.c).
 *
 * A thunk is the code one call-armed SDT site calls (on arm64, branches
 * to), made by the arch (arch_sdt_thunk_make()) when the site is armed:
 * it reads the site's operands and calls what sdt_thunk_make() tells it
 * to, the probe, sdt_thunk_iterate() over several, or sdt_thunk_site().
 * This file says what it calls, and when its memory may go: a thunk that
 * a change retires (sdt_thunk_retire()) stops calling probes before the
 * change's grace period and is freed after an RCU-tasks grace period
 * (sdt_thunks_kill()).
 */

#include <kunit/visibility.h>
#include <linux/atomic.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sdt-decode.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "internal.h"
#include "sdt.h"

/* Thunks retired by the change under way; under marker_mutex. */
static LIST_HEAD(sdt_thunks_retired);

/*
 * What a thunk calls when its site has several probes (@data), with
 * preemption disabled. @data lives as long as the thunk may call this.
 */
static notrace void sdt_thunk_iterate(void *data, const u64 *args,
				      unsigned int nargs)
{
	const struct marker_probes *probes = data;
	unsigned int i;

	for (i = 0; i < probes->nr; i++)
		probes->probe[i].sdt_func(probes->probe[i].data, args, nargs);
}

NOKPROBE_SYMBOL(sdt_thunk_iterate);

/*
 * Without the trampoline: what a thunk calls, with preemption disabled.
 * It serves its site (@data) for as long as it is armed, so it reads the
 * site's probes at each hit, as the trampoline's handler does.
 */
static notrace void sdt_thunk_site(void *data, const u64 *args,
				   unsigned int nargs)
{
	struct sdt_site *ss = data;
	/* Raw, as in sdt_hit(): preemption is disabled. */
	struct marker_probes *probes = rcu_dereference_raw(ss->probes);

	if (probes)
		sdt_thunk_iterate(probes, args, nargs);
}

NOKPROBE_SYMBOL(sdt_thunk_site);

/**
 * sdt_thunk_make - make the thunk of an SDT site
 * @ss: the site, its spec decoded
 * @probes: its probes
 *
 * Under marker_mutex. Where the arch has the trampoline, the thunk serves
 * @probes, and a change of the probes makes a new one; without it, the
 * thunk serves the site, whatever its probes become.
 *
 * Return: the thunk, or NULL (no thunks wanted, none the arch can make
 * for these operands, no memory, out of reach): the site gets the
 * trampoline, or a kprobe where the arch has none.
 */
struct sdt_thunk *sdt_thunk_make(struct sdt_site *ss,
				 struct marker_probes *probes)
{
	struct sdt_thunk_call call = {
		.hits = ss->hits,
		.faults = &ss->faults,
		.site = ss->code,
	};
	struct sdt_thunk *th;

	lockdep_assert_held(&marker_mutex);
	if (!sdt_use_thunks || arch_sdt_thunk_why(&ss->prog))
		return NULL;
	th = kzalloc(sizeof(*th), GFP_KERNEL);
	if (!th)
		return NULL;
	th->live = true;
	call.live = &th->live;
	if (!IS_ENABLED(CONFIG_HAVE_ARCH_MARKERS_SDT_TRAMPOLINE)) {
		/* For the site, whatever its probes become. */
		call.func = sdt_thunk_site;
		call.data = ss;
	} else if (probes->nr == 1) {
		/* One probe is called directly, ... */
		call.func = probes->probe[0].sdt_func;
		call.data = probes->probe[0].data;
	} else {
		/* ... several through the iterator. */
		call.func = sdt_thunk_iterate;
		call.data = probes;
	}
	th->code = arch_sdt_thunk_make(&ss->prog, &call);
	if (IS_ERR(th->code)) {
		kfree(th);
		return NULL;
	}
	return th;
}

/* Thunks killed and not yet freed, for the KUnit suites. */
VISIBLE_IF_KUNIT atomic_t sdt_thunks_dying = ATOMIC_INIT(0);
EXPORT_SYMBOL_IF_KUNIT(sdt_thunks_dying);

static void sdt_thunk_free_work(struct work_struct *work)
{
	struct sdt_thunk *th = container_of(work, struct sdt_thunk, free_work);

	arch_sdt_thunk_free(th->code);
	kfree(th);
	atomic_dec(&sdt_thunks_dying);
}

/* Freeing executable memory resets its permissions: in process context. */
static void sdt_thunk_free_rcu(struct rcu_head *rcu)
{
	struct sdt_thunk *th = container_of(rcu, struct sdt_thunk, rcu);

	INIT_WORK(&th->free_work, sdt_thunk_free_work);
	schedule_work(&th->free_work);
}

/**
 * sdt_thunk_retire - retire a thunk its site no longer calls
 * @th: the thunk; its site's instruction changes in the change under way
 *
 * Under marker_mutex. The site calls it until the change's text is
 * written; sdt_thunks_kill() does the rest.
 */
void sdt_thunk_retire(struct sdt_thunk *th)
{
	lockdep_assert_held(&marker_mutex);
	list_add_tail(&th->retired, &sdt_thunks_retired);
}

/**
 * sdt_thunks_kill - kill the thunks a change retired
 * @b: the change, its text written
 *
 * Under marker_mutex: no site calls the thunks retired, but a task may
 * still be in one, preempted there or interrupted where its preempt count
 * is zero (a tick there may end a normal grace period). Clear @live,
 * which it tests with the preempt count raised before it touches the
 * probe or the site, before the change's grace period; free them after
 * an RCU-tasks grace period: it waits for each task on a runqueue to
 * switch voluntarily or to reach user mode, which none does inside a
 * thunk, and, through the normal grace periods it contains, for the
 * idle tasks, whose preempt count is never zero. CONFIG_MARKERS selects
 * TASKS_RCU wherever the preempt count exists; without it, the tick
 * ends no grace period in kernel code, a thunk is an RCU read side
 * throughout, and call_rcu_tasks() is call_rcu().
 */
void sdt_thunks_kill(struct marker_batch *b)
{
	struct sdt_thunk *th, *tmp;

	lockdep_assert_held(&marker_mutex);
	list_for_each_entry_safe(th, tmp, &sdt_thunks_retired, retired) {
		WRITE_ONCE(th->live, false);
		list_del(&th->retired);
		atomic_inc(&sdt_thunks_dying);
		call_rcu_tasks(&th->rcu, sdt_thunk_free_rcu);
	}
}

/* The thunk the SDT site @e calls, or NULL. */
void *sdt_thunk_code(const struct marker_entry *e)
{
	lockdep_assert_held(&marker_mutex);
	return e->sdt && e->sdt->thunk ? e->sdt->thunk->code : NULL;
}
