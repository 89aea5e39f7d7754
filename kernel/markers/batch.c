// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: the batches that change sites.
 *
 * A change (arming or disarming a name, an object coming or going) queues
 * the instructions it writes and the probe arrays it retires in a struct
 * marker_batch, under marker_mutex. marker_batch_apply() writes the
 * instructions through the arch in one go; marker_batch_finish() frees
 * what was retired once marker_mutex is dropped: one grace period for all
 * of it.
 */

#include <linux/cpu.h>
#include <linux/memory.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "internal.h"

/* --- Batches ---------------------------------------------------------- */

/**
 * marker_batch_init - start a change
 * @b: the batch
 */
void marker_batch_init(struct marker_batch *b)
{
	unsigned int k;

	INIT_LIST_HEAD(&b->retired);
	INIT_LIST_HEAD(&b->formats);
	for (k = 0; k < MARKER_NR_KINDS; k++)
		INIT_LIST_HEAD(&b->kind[k]);
	b->patches = NULL;
	b->npatches = 0;
	b->room = 0;
	b->wait = false;
}

/**
 * marker_batch_retire - free a probe array once the change is finished
 * @b: the batch of the change
 * @old: the array the change replaced
 */
void marker_batch_retire(struct marker_batch *b, struct marker_probes *old)
{
	list_add_tail(&old->retire, &b->retired);
}

/**
 * marker_batch_patch - queue an instruction for a change to write
 * @b: the batch of the change
 * @what: the instruction (enum marker_insn)
 * @code: where
 * @dest: what it jumps to or calls, for those that do
 *
 * Under marker_mutex. Does not fail: a change that has been checked must
 * be able to patch what it publishes.
 *
 * Return: the queued instruction, for its mechanism to mark it unreached
 * (&struct marker_patch).
 */
struct marker_patch *marker_batch_patch(struct marker_batch *b,
					enum marker_insn what, void *code,
					void *dest)
{
	struct marker_patch *p;

	if (b->npatches == b->room) {
		b->room = max(2 * b->room, 64U);
		p = kvmalloc_array(b->room, sizeof(*p), GFP_KERNEL | __GFP_NOFAIL);
		if (b->npatches)
			memcpy(p, b->patches, b->npatches * sizeof(*p));
		kvfree(b->patches);
		b->patches = p;
	}
	p = &b->patches[b->npatches++];
	p->what = what;
	p->addr = code;
	p->dest = dest;
	p->unreached = false;
	return p;
}

/* The order of writing: unreached instructions first, then by address. */
static int marker_patch_cmp(const void *a, const void *b)
{
	const struct marker_patch *x = a, *y = b;

	if (x->unreached != y->unreached)
		return x->unreached ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * Put @b's instructions in the order of marker_patch_cmp(). A change
 * queues them in runs already in that order (a name's jumps, its calls;
 * its unreached calls, then its jumps, which is one run): one run needs
 * nothing, two are merged in one pass; anything else, or a merge without
 * memory, is sorted in place.
 */
static void marker_batch_sort(struct marker_batch *b)
{
	struct marker_patch *p = b->patches, *merged, *x, *y, *xend, *yend;
	unsigned int i, n = b->npatches, second = 0;

	for (i = 1; i < n; i++) {
		if (marker_patch_cmp(&p[i - 1], &p[i]) <= 0)
			continue;
		if (second)
			goto sort;
		second = i;
	}
	if (!second)
		return;
	merged = kvmalloc_array(n, sizeof(*p), GFP_KERNEL | __GFP_NOWARN);
	if (!merged)
		goto sort;
	x = p;
	xend = p + second;
	y = xend;
	yend = p + n;
	for (i = 0; i < n; i++)
		merged[i] = y == yend || (x < xend && marker_patch_cmp(x, y) <= 0) ?
			    *x++ : *y++;
	kvfree(b->patches);
	b->patches = merged;
	b->room = n;
	return;
sort:
	sort(p, n, sizeof(*p), marker_patch_cmp, NULL);
}

/*
 * Write the instructions of @b through the arch, in order, in as few
 * batches as its queue allows: when the queue is full, apply it and go on,
 * as jump_label's __jump_label_update() does. text_mutex is taken once
 * for all of them, not per instruction as jump labels do.
 */
static void marker_batch_write(struct marker_batch *b)
{
	struct marker_patch *p;

	marker_batch_sort(b);
	cpus_read_lock();
	mutex_lock(&text_mutex);
	for (p = b->patches; p < b->patches + b->npatches; p++) {
		/* One change writes each site once. */
		if (WARN_ON_ONCE(p > b->patches && p->addr == p[-1].addr))
			continue;
		if (arch_marker_transform_queue(p))
			continue;
		arch_marker_transform_apply();
		/* An empty queue takes one instruction, or the arch is broken. */
		WARN_ON_ONCE(!arch_marker_transform_queue(p));
	}
	arch_marker_transform_apply();
	mutex_unlock(&text_mutex);
	cpus_read_unlock();
}

/**
 * marker_batch_apply - write what a change queued
 * @b: the batch
 *
 * Under marker_mutex, at the end of the change: its instructions go out
 * through the arch, then each mechanism's after-patch step runs.
 */
void marker_batch_apply(struct marker_batch *b)
{
	const struct marker_kind_ops *ops;
	unsigned int k;

	lockdep_assert_held(&marker_mutex);
	if (b->npatches)
		marker_batch_write(b);
	b->npatches = 0;
	for (k = 0; k < MARKER_NR_KINDS; k++) {
		ops = marker_kinds[k];
		if (ops && ops->after_patch)
			ops->after_patch(b);
	}
}

/**
 * marker_batch_abort - give up a change that published nothing
 * @b: the batch
 *
 * Frees what the change reserved; with or without marker_mutex.
 */
void marker_batch_abort(struct marker_batch *b)
{
	const struct marker_kind_ops *ops;
	unsigned int k;

	for (k = 0; k < MARKER_NR_KINDS; k++) {
		ops = marker_kinds[k];
		if (ops && ops->unreserve)
			ops->unreserve(b);
	}
}

/**
 * marker_batch_finish - finish a change once marker_mutex is dropped
 * @b: the batch
 *
 * The mechanisms finish disarming (the kprobes of disarmed SDT sites go
 * in one unregister_kprobes()), one grace period passes if anything was
 * detached, the mechanisms' last steps run (promoting MARK() sites to
 * direct calls), and the probe arrays and formats the change retired
 * are freed.
 */
void marker_batch_finish(struct marker_batch *b)
{
	const struct marker_kind_ops *ops;
	struct marker_probes *p, *tmp;
	struct marker_fmt *f, *ftmp;
	bool waited = false;
	unsigned int k;

	lockdep_assert_not_held(&marker_mutex);
	kvfree(b->patches);
	b->patches = NULL;
	/*
	 * One grace period for all: a mechanism's reaping may wait for one
	 * (unregistering the kprobes of disarmed SDT sites), which also
	 * serves everything else.
	 */
	for (k = 0; k < MARKER_NR_KINDS; k++) {
		ops = marker_kinds[k];
		if (ops && ops->reap)
			waited |= ops->reap(b);
	}
	if (!waited && b->wait)
		synchronize_rcu();
	for (k = 0; k < MARKER_NR_KINDS; k++) {
		ops = marker_kinds[k];
		if (ops && ops->finish)
			ops->finish(b);
	}
	if (!b->wait) {
		/* Nothing was detached: nobody waits for the old arrays. */
		list_for_each_entry_safe(p, tmp, &b->retired, retire)
			kfree_rcu(p, rcu);
		return;
	}
	list_for_each_entry_safe(p, tmp, &b->retired, retire)
		kfree(p);
	list_for_each_entry_safe(f, ftmp, &b->formats, node)
		kfree(f);
}
