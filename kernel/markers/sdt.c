// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: arming SDT sites.
 *
 * An SDT site (<linux/sdt.h>) is a 5-byte NOP and an operand spec saying
 * where each argument lives. When its key gets probes, the registry
 * (core.c) calls sdt_arm(): the spec is decoded once into a program
 * (arch_sdt_parse()) and a kprobe is registered on the NOP; kprobes
 * optimizes it into a jump where it can. At each hit the kprobe's handler
 * fetches the arguments (arch_sdt_fetch()) and calls the probes.
 * sdt_disarm() stops the site calling probes; sdt_reap() unregisters the
 * kprobes of every site a change disarmed at once, waiting for running
 * handlers with one grace period.
 *
 * Everything here runs under marker_mutex, but for the kprobe handler and
 * sdt_reap().
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <kunit/visibility.h>
#include <asm/sdt.h>

#include "internal.h"

/*
 * An SDT site with probes: its kprobe and its decoded operand spec. A site
 * whose arming failed keeps its state, with @error, until its key loses
 * its probes.
 */
struct sdt_site {
	struct marker_entry *entry;
	struct list_head dead;		/* in a marker_batch: reserved, disarmed */
	struct marker_probes __rcu *probes;
	struct kprobe kp;
	bool registered;		/* kp is registered */
	int error;			/* arming failed: -errno */
	atomic_t faults;		/* memory operands that faulted */
	unsigned long hits;		/* approximate under concurrent hits */
	struct sdt_prog prog;
};

/*
 * Arm SDT sites with int3 kprobes only (a post_handler keeps kprobes from
 * optimizing them), for tests of that path.
 */
VISIBLE_IF_KUNIT bool sdt_int3_only;
EXPORT_SYMBOL_IF_KUNIT(sdt_int3_only);

/* The number of arguments in an SDT operand spec. */
int sdt_spec_nargs(const char *spec)
{
	int n = 0;

	while (*spec) {
		while (*spec == ' ')
			spec++;
		if (!*spec)
			break;
		n++;
		while (*spec && *spec != ' ')
			spec++;
	}
	return n;
}

struct sdt_sym_match {
	const char *name;
	unsigned long addr;
	unsigned int n;
};

static int sdt_match_vmlinux(void *data, unsigned long addr)
{
	struct sdt_sym_match *m = data;

	m->addr = addr;
	m->n++;
	return 0;
}

static int sdt_match_module(void *data, const char *name, unsigned long addr)
{
	struct sdt_sym_match *m = data;

	if (!strcmp(name, m->name)) {
		m->addr = addr;
		m->n++;
	}
	return 0;
}

/*
 * The symbol of a %rip-relative operand, looked up in the site's own
 * object (vmlinux, or its module): 0 when it is not there, or not unique
 * (two static variables of that name), rather than a guess. Data symbols
 * need CONFIG_KALLSYMS_ALL.
 */
static unsigned long sdt_resolve(void *ctx, const char *sym)
{
	struct marker_object *obj = ctx;
	struct sdt_sym_match m = { .name = sym };

	if (!obj->mod)
		kallsyms_on_each_match_symbol(sdt_match_vmlinux, sym, &m);
	else
		module_kallsyms_on_each_symbol(obj->mod->name, sdt_match_module, &m);
	return m.n == 1 ? m.addr : 0;
}

static int sdt_kprobe_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct sdt_site *ss = container_of(kp, struct sdt_site, kp);
	struct marker_probes *probes;
	u64 args[SDT_MAX_ARGS];
	unsigned int i, faults;

	/* kprobe handlers run with preemption disabled. */
	probes = rcu_dereference_sched(ss->probes);
	if (!probes)
		return 0;
	WRITE_ONCE(ss->hits, READ_ONCE(ss->hits) + 1);
	faults = arch_sdt_fetch(&ss->prog, regs, args);
	if (unlikely(faults))
		atomic_add(faults, &ss->faults);
	for (i = 0; i < probes->nr; i++)
		probes->probe[i].sdt_func(probes->probe[i].data, args,
					  ss->prog.nargs);
	return 0;
}

NOKPROBE_SYMBOL(sdt_kprobe_pre);

/* Present only to keep kprobes from optimizing the site (sdt_int3_only). */
static void sdt_kprobe_post(struct kprobe *kp, struct pt_regs *regs,
			    unsigned long flags)
{
}

/*
 * Is the site's kprobe optimized into a jump? kprobes wraps an optimized
 * probe in an aggregate kprobe: ask the one registered at the address.
 */
static bool sdt_optimized(const struct sdt_site *ss)
{
	struct kprobe *p;
	bool ret;

	if (!ss->registered)
		return false;
	rcu_read_lock();
	p = get_kprobe(ss->kp.addr);
	ret = p && kprobe_optimized(p);
	rcu_read_unlock();
	return ret;
}

/**
 * sdt_reserve - reserve what arming an SDT site will need
 * @e: the site
 * @b: the batch of the change that will arm it
 * @gfp: how to allocate
 *
 * So that arming, once a change is committed, cannot fail for memory.
 *
 * Return: 0, or -ENOMEM.
 */
int sdt_reserve(struct marker_entry *e, struct marker_batch *b, gfp_t gfp)
{
	struct sdt_site *ss;

	lockdep_assert_held(&marker_mutex);
	if (e->sdt || e->gone)
		return 0;
	ss = kzalloc(sizeof(*ss), gfp);
	if (!ss)
		return -ENOMEM;
	list_add(&ss->dead, &b->spare_sdt);
	return 0;
}

/**
 * sdt_arm - arm an SDT site with probes
 * @e: the site
 * @probes: its key's probes, which the site takes
 * @b: the batch of the change, with the site's reservation
 *
 * Decode the site's spec once and register its kprobe. A site that cannot
 * be armed (a spec that does not decode, a kprobe refused) keeps the error,
 * shown in the listing, and stays dormant; no other site is affected.
 */
void sdt_arm(struct marker_entry *e, struct marker_probes *probes,
	     struct marker_batch *b)
{
	const struct marker_site *site = e->site;
	struct sdt_site *ss = e->sdt;
	int ret;

	lockdep_assert_held(&marker_mutex);
	if (!ss) {
		ss = list_first_entry_or_null(&b->spare_sdt, struct sdt_site, dead);
		if (WARN_ON_ONCE(!ss))
			return;		/* not reserved: a bug */
		list_del(&ss->dead);
		ss->entry = e;
		e->sdt = ss;
		ret = arch_sdt_parse(marker_site_format(site), &ss->prog,
				     sdt_resolve, e->obj);
		if (ret < 0) {
			ss->error = ret;
			marker_warn_site(e, "cannot decode \"%s\": %d\n",
					 marker_site_format(site), ret);
		}
	}
	if (ss->error)
		return;
	rcu_assign_pointer(ss->probes, probes);
	if (ss->registered)
		return;
	ss->kp.addr = marker_site_code(site);
	ss->kp.pre_handler = sdt_kprobe_pre;
	if (sdt_int3_only)
		ss->kp.post_handler = sdt_kprobe_post;
	ret = register_kprobe(&ss->kp);
	if (ret) {
		ss->error = ret;
		RCU_INIT_POINTER(ss->probes, NULL);
		marker_warn_site(e, "cannot register a kprobe: %d\n", ret);
		return;
	}
	ss->registered = true;
}

/**
 * sdt_disarm - disarm an SDT site
 * @e: the site
 * @b: the batch of the change
 *
 * Forget the site's state (an arming error too) and stop it calling
 * probes; its kprobe is unregistered by sdt_reap() once marker_mutex is
 * dropped, with those of the other sites the change disarmed.
 */
void sdt_disarm(struct marker_entry *e, struct marker_batch *b)
{
	struct sdt_site *ss = e->sdt;

	lockdep_assert_held(&marker_mutex);
	if (!ss)
		return;
	RCU_INIT_POINTER(ss->probes, NULL);
	e->sdt = NULL;
	list_add_tail(&ss->dead, &b->dead_sdt);
}

/**
 * sdt_reap - unregister the kprobes of the sites a change disarmed
 * @b: the batch of the change
 *
 * All in one unregister_kprobes(), which waits for one grace period: after
 * it, no CPU runs their handlers, nor any probe unpublished before.
 *
 * Return: whether it waited for a grace period.
 */
bool sdt_reap(struct marker_batch *b)
{
	struct sdt_site *ss, *tmp;
	struct kprobe **kps;
	unsigned int n = 0;

	list_for_each_entry(ss, &b->dead_sdt, dead)
		n += ss->registered;
	if (n) {
		kps = kmalloc_array(n, sizeof(*kps), GFP_KERNEL | __GFP_NOFAIL);
		n = 0;
		list_for_each_entry(ss, &b->dead_sdt, dead)
			if (ss->registered)
				kps[n++] = &ss->kp;
		unregister_kprobes(kps, n);
		kfree(kps);
	}
	list_for_each_entry_safe(ss, tmp, &b->dead_sdt, dead)
		kfree(ss);
	sdt_unreserve(b);
	return n;
}

/* Free the reservations of @b that arming did not use. */
void sdt_unreserve(struct marker_batch *b)
{
	struct sdt_site *ss, *tmp;

	list_for_each_entry_safe(ss, tmp, &b->spare_sdt, dead)
		kfree(ss);
	INIT_LIST_HEAD(&b->spare_sdt);
}

/**
 * sdt_state - what an SDT site is doing
 * @e: the site
 * @error: if not NULL, set to the arming error for SDT_ERROR
 *
 * Return: its enum sdt_state.
 */
enum sdt_state sdt_state(const struct marker_entry *e, int *error)
{
	const struct sdt_site *ss = e->sdt;

	lockdep_assert_held(&marker_mutex);
	if (!ss)
		return SDT_DORMANT;
	if (ss->error) {
		if (error)
			*error = ss->error;
		return SDT_ERROR;
	}
	if (!ss->registered)
		return SDT_DORMANT;
	return sdt_optimized(ss) ? SDT_OPTIMIZED : SDT_KPROBE;
}

/* The memory operands of @e that faulted since it was armed. */
unsigned int sdt_faults(const struct marker_entry *e)
{
	return e->sdt ? atomic_read(&e->sdt->faults) : 0;
}

/* The hits of @e since it was armed (approximate). */
unsigned long sdt_hits(const struct marker_entry *e)
{
	return e->sdt ? READ_ONCE(e->sdt->hits) : 0;
}
