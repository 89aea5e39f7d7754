/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel markers: what the two files of the SDT mechanism share, sdt.c
 * (the mechanism, arming with a call) and sdt_kprobe.c (arming with a
 * kprobe).
 */
#ifndef _KERNEL_MARKERS_SDT_H
#define _KERNEL_MARKERS_SDT_H

#include <linux/atomic.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/rbtree_latch.h>
#include <linux/rcupdate.h>
#include <linux/sdt-decode.h>
#include <linux/workqueue.h>

#include "internal.h"

/*
 * The generated code of one call-armed site (arch_sdt_thunk_emit()), for
 * one array of probes: a change of its probes makes a new one. It is
 * freed after an RCU-tasks grace period once no site calls it; @live is
 * cleared before the normal grace period that lets its probes go. It
 * takes @len bytes of a pack from @slot; its site enters at @code, and
 * the @size bytes from there are its text. Reserved and not yet made, it
 * has @buf to be emitted into, and no @code.
 */
struct sdt_thunk {
	void *code;
	void *slot;
	u8 *buf;
	unsigned int len;
	unsigned int size;
	bool live;
	struct list_head retired;	/* in sdt_thunks_retired */
	struct latch_tree_node lnode;	/* in sdt_thunk_tree, by @code */
	struct list_head list;		/* in sdt_thunk_list */
	char *name;			/* sdt_thunk_<provider>_<name> */
	struct rcu_head rcu;
	struct work_struct free_work;
};

/*
 * An armed SDT site: its mechanism, its decoded operand spec, and its
 * probes. A site whose arming failed keeps its state, with @error, until
 * its key loses its probes.
 */
struct sdt_site {
	struct marker_entry *entry;	/* NULL while only reserved */
	struct list_head dead;		/* in a marker_batch: reserved, disarmed */
	struct hlist_node hnode;	/* in sdt_calls, while call-armed */
	void *code;
	struct marker_probes __rcu *probes;
	bool called;			/* armed with a call */
	struct sdt_thunk *thunk;	/* ... of this, not the trampoline */
	struct sdt_thunk *spare;	/* reserved for its next thunk */
	bool kprobe;			/* armed, or being armed, with kp */
	bool registered;		/* armed with kp */
	struct kprobe kp;
	int error;			/* arming failed: -errno */
	const char *why;		/* ... and why, if not prog.why */
	atomic_t faults;		/* memory operands that faulted */
	local_t __percpu *hits;
	struct sdt_prog prog;
};

/* A hit of @ss, with the registers at the site: fetch, call the probes. */
static __always_inline void sdt_hit(struct sdt_site *ss, struct pt_regs *regs)
{
	struct marker_probes *probes;
	u64 args[SDT_MAX_ARGS] __uninitialized;
	unsigned int i, faults;

	/* Raw, as in __marker_slowpath(): preemption is disabled. */
	probes = rcu_dereference_raw(ss->probes);
	if (!probes)
		return;
	local_inc(this_cpu_ptr(ss->hits));
	faults = sdt_fetch(&ss->prog, regs, args);
	if (unlikely(faults))
		atomic_add(faults, &ss->faults);
	for (i = 0; i < probes->nr; i++)
		probes->probe[i].sdt_func(probes->probe[i].data, args,
					  ss->prog.nargs);
}

/* Thunks (sdt_thunk.c): kernel-doc at the definitions. */
struct sdt_thunk *sdt_thunk_reserve(struct sdt_site *ss, gfp_t gfp);
struct sdt_thunk *sdt_thunk_make(struct sdt_site *ss,
				 struct marker_probes *probes);
void sdt_thunk_discard(struct sdt_thunk *th);
void sdt_thunk_retire(struct sdt_thunk *th);
void sdt_thunks_kill(struct marker_batch *b);

/* Arming with a kprobe (sdt_kprobe.c): kernel-doc at the definitions. */
void sdt_arm_kprobe(struct sdt_site *ss);
bool sdt_optimized(const struct sdt_site *ss);
bool sdt_kprobe_at(void *addr);
bool sdt_own_kprobe(const struct kprobe *kp);
void sdt_unregister_kprobes(struct list_head *list, unsigned int n);

#endif /* _KERNEL_MARKERS_SDT_H */
