// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: arming SDT sites.
 *
 * An SDT site (<linux/sdt.h>) is a 5-byte NOP and an operand spec saying
 * where each argument lives. This file is the mechanism of SDT sites
 * (struct marker_kind_ops, registered with the core). When a key gets
 * probes, the registry (core.c) arms its sites through it: the spec is
 * decoded once into a program (sdt_parse()), then the site is armed
 * by one of three mechanisms:
 *
 * thunk	the default: the NOP becomes a CALL of code generated for the
 *		site at arming (arch_sdt_thunk_emit()), which stores each
 *		operand into the probes' u64 array and calls the probe, or
 *		sdt_thunk_iterate(), directly. A site whose operands it cannot
 *		read safely (arch_sdt_thunk_why()), or whose thunk cannot be
 *		made, gets the trampoline instead.
 * call		a CALL of the SDT trampoline (arch_sdt_trampoline()): every
 *		register and the flags saved in a struct pt_regs, and
 *		sdt_trampoline_handler() finds the site in an RCU hash table.
 * kprobe	a kprobe on the NOP, optimized where kprobes can.
 *
 * That is x86. An arch without the trampoline (arm64: a call there would
 * overwrite the link register, which the site's code may hold live)
 * branches to the thunk, which saves every register and branches back.
 * A site whose first thunk cannot be made is armed by kprobes there; and
 * since a change of a thunk-armed site's probes has no trampoline to fall
 * back on, the change reserves the site's next thunk (sdt_reserve()).
 *
 * debugfs markers/sdt_mechanism selects one for the sites armed from then
 * on. sdt_disarm() stops the site calling probes and unpatches it;
 * sdt_reap(), once marker_mutex is dropped, unregisters the kprobes of
 * every site a change disarmed at once, or just waits for one grace
 * period.
 *
 * The thunks, what they call and their lifetime, are in sdt_thunk.c;
 * arming with a kprobe is in sdt_kprobe.c. Everything here runs under
 * marker_mutex, but the trampoline's handler, sdt_reap() and
 * sdt_text_reserved().
 *
 * A change's batch keeps one list of struct sdt_site for this mechanism
 * (marker_batch_list()): at its head the reservations sdt_reserve() made
 * and arming has not used yet (no entry), after them the sites the change
 * disarmed, for sdt_reap().
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/hashtable.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sdt-decode.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include "internal.h"
#include "sdt.h"

/* Call-armed sites, by address, for the trampoline; under RCU. */
#define SDT_CALL_BITS	8
static DEFINE_HASHTABLE(sdt_calls, SDT_CALL_BITS);

struct sdt_sym_match {
	const char *name;
	struct module *mod;
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

	/*
	 * A module's init symbols go with its init text after LIVE: never
	 * count them, so that what a site resolves to does not depend on
	 * whether it is armed at COMING or later.
	 */
	if (!strcmp(name, m->name) && !within_module_init(addr, m->mod)) {
		m->addr = addr;
		m->n++;
	}
	return 0;
}

/*
 * The symbol of an operand, looked up in the site's own object, then (for
 * a module's site) in vmlinux: 0 when it is in neither, or not unique in
 * the first that has it (two static variables of that name), rather than
 * a guess. Data symbols need CONFIG_KALLSYMS_ALL.
 */
static unsigned long sdt_resolve(void *ctx, const char *sym)
{
	struct marker_object *obj = ctx;
	struct sdt_sym_match m = { .name = sym, .mod = obj->mod };

	if (obj->mod) {
		module_kallsyms_on_each_symbol(obj->mod->name, sdt_match_module, &m);
		if (m.n)
			return m.n == 1 ? m.addr : 0;
	}
	kallsyms_on_each_match_symbol(sdt_match_vmlinux, sym, &m);
	return m.n == 1 ? m.addr : 0;
}

#ifdef CONFIG_HAVE_ARCH_MARKERS_SDT_TRAMPOLINE
/**
 * sdt_trampoline_handler - a hit of an SDT site armed with a call
 * @regs: the registers and flags at the site; @regs->ip is the address
 *	  right after the site's CALL
 *
 * Called by arch_sdt_trampoline() only.
 */
notrace void sdt_trampoline_handler(struct pt_regs *regs)
{
	void *code = (void *)(instruction_pointer(regs) - MARKER_CALL_SIZE);
	struct sdt_site *ss;

	regs->sp = (unsigned long)regs + SDT_TRAMPOLINE_FRAME;
	/* sdt_arm() keeps off the code where it may not be: see there. */
	RCU_LOCKDEP_WARN(!rcu_is_watching(), "SDT site where RCU is not watching");
	preempt_disable_notrace();
	hash_for_each_possible_rcu_notrace(sdt_calls, ss, hnode,
					   (unsigned long)code) {
		if (ss->code == code) {
			sdt_hit(ss, regs);
			break;
		}
	}
	preempt_enable_notrace();
}

NOKPROBE_SYMBOL(sdt_trampoline_handler);
#endif

/* Is @e armed, or being armed, with its kprobe? Under RCU. */
static bool sdt_kprobe_armed(const struct marker_entry *e)
{
	const struct sdt_site *ss = READ_ONCE(e->sdt);

	return ss && READ_ONCE(ss->kprobe);
}

/**
 * sdt_text_reserved - does text overlap an SDT site?
 * @start: the first byte
 * @end: the last byte
 * @kp: the kprobe being registered, or NULL for kprobes' optimizer. If it
 *	is the registry's own (or for the optimizer), the site that starts
 *	at @start is let through when it is armed with the registry's
 *	kprobe: that kprobe is being registered or optimized
 *
 * Every SDT site is reserved for as long as it exists, dormant or armed,
 * as jump-label entries are: the registry may patch it into a CALL at any
 * time, and would write that CALL into an int3 or into an optimized
 * kprobe's JMP. Since the reservation does not change with the site's
 * state, kprobes' check and the registry's arming need no common lock.
 * Called under RCU or with preemption disabled: the entries of an object
 * are freed after a grace period, their sdt_site too.
 *
 * Return: true if they overlap.
 */
static bool sdt_text_reserved(unsigned long start, unsigned long end,
			      const struct kprobe *kp)
{
	bool own = !kp || sdt_own_kprobe(kp);
	const struct marker_entry *e;
	struct marker_object *obj;
	unsigned long c;
	bool ret = false;

	rcu_read_lock();
	list_for_each_entry_rcu(obj, &marker_objects, list) {
		for (e = obj->entry; e < obj->entry + obj->nr && !ret; e++) {
			if (e->site->kind != MARKER_KIND_SDT || READ_ONCE(e->gone))
				continue;
			c = (unsigned long)marker_site_code(e->site);
			if (c > end || start >= c + MARKER_CALL_SIZE)
				continue;
			ret = !(own && c == start && sdt_kprobe_armed(e));
		}
		if (ret)
			break;
	}
	rcu_read_unlock();
	return ret;
}

static void sdt_free(struct sdt_site *ss)
{
	if (ss->spare)
		sdt_thunk_discard(ss->spare);
	free_percpu(ss->hits);
	kfree(ss);
}

/**
 * sdt_reserve - reserve what arming an SDT site will need
 * @e: the site
 * @b: the batch of the change that will arm it
 * @gfp: how to allocate
 *
 * So that arming, once a change is committed, cannot fail for memory: a
 * site not armed yet gets its struct sdt_site; a site armed with a thunk,
 * where the arch has no trampoline to fall back on, the thunk its new
 * probes will need (kept in the site if the change is given up). That
 * one may also be out of the site's reach, which is refused as memory is
 * (no executable memory where the site needs it). A change that only
 * detaches (@gfp with __GFP_NOFAIL) cannot be refused: if its thunk
 * cannot be had, the site goes into error, as sdt_thunk_rearm() says.
 *
 * Return: 0, or -ENOMEM.
 */
static int sdt_reserve(struct marker_entry *e, struct marker_batch *b,
		       gfp_t gfp)
{
	struct sdt_site *ss = e->sdt;
	struct sdt_thunk *th;

	lockdep_assert_held(&marker_mutex);
	if (ss && ss->thunk && !ss->spare &&
	    !IS_ENABLED(CONFIG_HAVE_ARCH_MARKERS_SDT_TRAMPOLINE)) {
		/* Not __GFP_NOFAIL: execmem may fail all the same. */
		th = sdt_thunk_reserve(ss, gfp & ~__GFP_NOFAIL);
		if (IS_ERR(th))
			return gfp & __GFP_NOFAIL ? 0 : -ENOMEM;
		ss->spare = th;
		return 0;
	}
	if (ss || e->gone)
		return 0;
	ss = kzalloc(sizeof(*ss), gfp);
	if (!ss)
		return -ENOMEM;
	ss->hits = alloc_percpu_gfp(local_t, gfp);
	if (!ss->hits) {
		kfree(ss);
		return -ENOMEM;
	}
	/* At the head: see the top. */
	list_add(&ss->dead, marker_batch_list(b, MARKER_KIND_SDT));
	return 0;
}

/*
 * The probes of thunk-armed @ss change: a new thunk, or the trampoline,
 * replaces its thunk in @b; the old one is retired (the site calls it
 * until @b is written, its probes valid until the change's grace period).
 * Without a trampoline, a site whose new thunk cannot be made (the change
 * could not reserve it, and it only detached) is disarmed, in error, as a
 * site whose kprobe was refused: it calls no probe rather than the old
 * ones, and stays so until its key loses its probes.
 */
static void sdt_thunk_rearm(struct sdt_site *ss, struct marker_probes *probes,
			    struct marker_batch *b)
{
	struct sdt_thunk *th = sdt_thunk_make(ss, probes);

	lockdep_assert_held(&marker_mutex);
	sdt_thunk_retire(ss->thunk);
	ss->thunk = IS_ERR(th) ? NULL : th;
	if (ss->thunk) {
		marker_batch_patch(b, MARKER_INSN_SDT_CALL, ss->code, th->code);
	} else if (IS_ENABLED(CONFIG_HAVE_ARCH_MARKERS_SDT_TRAMPOLINE)) {
		hash_add_rcu(sdt_calls, &ss->hnode, (unsigned long)ss->code);
		marker_batch_patch(b, MARKER_INSN_SDT_CALL, ss->code, NULL);
	} else {
		ss->called = false;
		ss->error = PTR_ERR(th);
		ss->why = "no_new_thunk";
		RCU_INIT_POINTER(ss->probes, NULL);
		marker_batch_patch(b, MARKER_INSN_SDT_NOP, ss->code, NULL);
		b->wait = true;
		marker_warn_site(ss->entry, "cannot make its thunk anew: %ld\n",
				 PTR_ERR(th));
	}
}

/**
 * sdt_arm - arm an SDT site with probes
 * @e: the site
 * @probes: its key's probes, which the site takes
 * @b: the batch of the change, with the site's reservation
 *
 * Decode the site's spec once, and arm it by the current mechanism. A
 * site that cannot be armed (a spec that does not decode, a kprobe
 * refused) keeps the error, shown in the listing, and stays dormant; no
 * other site is affected.
 */
static void sdt_arm(struct marker_entry *e, struct marker_probes *probes,
		    struct marker_batch *b)
{
	const struct marker_site *site = e->site;
	struct sdt_site *ss = e->sdt;
	int ret;

	lockdep_assert_held(&marker_mutex);
	if (!ss) {
		ss = list_first_entry_or_null(marker_batch_list(b, MARKER_KIND_SDT),
					      struct sdt_site, dead);
		if (WARN_ON_ONCE(!ss || ss->entry))
			return;		/* not reserved: a bug */
		list_del(&ss->dead);
		ss->entry = e;
		ss->code = marker_site_code(site);
		WRITE_ONCE(e->sdt, ss);		/* sdt_kprobe_armed() reads it */
		ret = sdt_parse(marker_site_format(site), &ss->prog,
				sdt_resolve, e->obj);
		if (ret < 0) {
			ss->error = ret;
			marker_warn_site(e, "cannot decode \"%s\": %d (%s)\n",
					 marker_site_format(site), ret,
					 ss->prog.why);
		}
	}
	if (ss->error)
		return;
	/*
	 * Where kprobes may not go, neither may a call: entry, noinstr,
	 * idle and NOKPROBE code, where RCU may not be watching, or that
	 * the handler's own path runs. For a coming module's site, kprobes
	 * has added the module's blacklist by now: its module notifier has
	 * our priority and was registered first (kernel/kprobes.o links
	 * before kernel/markers/).
	 */
	if (within_kprobe_blacklist((unsigned long)ss->code)) {
		ss->error = -EINVAL;
		ss->why = "kprobe_blacklist";
		marker_warn_site(e, "in code kprobes may not probe: %d\n", -EINVAL);
		return;
	}
	rcu_assign_pointer(ss->probes, probes);
	if (ss->registered)
		return;
	if (ss->called) {
		/* The trampoline's handler reads @probes at each hit. */
		if (ss->thunk)
			sdt_thunk_rearm(ss, probes, b);
		return;
	}
	if (sdt_use_kprobes) {
		sdt_arm_kprobe(ss);
		return;
	}
	/*
	 * kprobes keeps off the site (sdt_text_reserved()). A kprobe there
	 * all the same, say one of ours still being unregistered, or one
	 * put on a coming module before its sites were known, would write
	 * its saved bytes over the call: refuse the site instead.
	 */
	if (sdt_kprobe_at(ss->code)) {
		ss->error = -EBUSY;
		RCU_INIT_POINTER(ss->probes, NULL);
		marker_warn_site(e, "a kprobe is on the site: %d\n", -EBUSY);
		return;
	}
	ss->thunk = sdt_thunk_make(ss, probes);
	if (IS_ERR(ss->thunk))
		ss->thunk = NULL;
	if (!ss->thunk && !IS_ENABLED(CONFIG_HAVE_ARCH_MARKERS_SDT_TRAMPOLINE)) {
		/* No thunk (no memory, out of reach) and no trampoline. */
		sdt_arm_kprobe(ss);
		return;
	}
	if (ss->thunk) {
		marker_batch_patch(b, MARKER_INSN_SDT_CALL, ss->code,
				   ss->thunk->code);
	} else {
		hash_add_rcu(sdt_calls, &ss->hnode, (unsigned long)ss->code);
		marker_batch_patch(b, MARKER_INSN_SDT_CALL, ss->code, NULL);
	}
	ss->called = true;
}

/**
 * sdt_disarm - disarm an SDT site
 * @e: the site
 * @b: the batch of the change
 *
 * Forget the site's state (an arming error too), stop it calling probes
 * and queue the patching of its CALL back into a NOP; its kprobe, or its
 * memory, goes in sdt_reap() once marker_mutex is dropped, with those of
 * the other sites the change disarmed.
 */
static void sdt_disarm(struct marker_entry *e, struct marker_batch *b)
{
	struct sdt_site *ss = e->sdt;

	lockdep_assert_held(&marker_mutex);
	if (!ss)
		return;
	RCU_INIT_POINTER(ss->probes, NULL);
	if (ss->called) {
		if (ss->thunk)
			sdt_thunk_retire(ss->thunk);
		else
			hash_del_rcu(&ss->hnode);
		ss->thunk = NULL;
		if (!e->gone)
			marker_batch_patch(b, MARKER_INSN_SDT_NOP, ss->code, NULL);
		b->wait = true;
	}
	WRITE_ONCE(e->sdt, NULL);	/* freed after a grace period */
	list_add_tail(&ss->dead, marker_batch_list(b, MARKER_KIND_SDT));
}

/**
 * sdt_reap - finish disarming the sites of a change
 * @b: the batch of the change
 *
 * The kprobes of its sites in one unregister_kprobes(), which waits for
 * one grace period: after it, no CPU runs their handlers, nor the
 * trampoline's, nor any probe unpublished before. Then free the sites.
 *
 * Return: whether it waited for a grace period.
 */
static bool sdt_reap(struct marker_batch *b)
{
	struct list_head *list = marker_batch_list(b, MARKER_KIND_SDT);
	unsigned int n = 0, dead = 0;
	struct sdt_site *ss, *tmp;

	list_for_each_entry(ss, list, dead) {
		n += ss->registered;
		dead += !!ss->entry;
	}
	if (n) {
		sdt_unregister_kprobes(list, n);
	} else if (dead) {
		/* Call-armed sites: wait for the trampoline's handlers. */
		synchronize_rcu();
		n = 1;
	}
	/* The disarmed sites, and the reservations arming did not use. */
	list_for_each_entry_safe(ss, tmp, list, dead)
		sdt_free(ss);
	INIT_LIST_HEAD(list);
	return n;
}

/* Free the reservations of @b, a change given up: it disarmed nothing. */
static void sdt_unreserve(struct marker_batch *b)
{
	struct list_head *list = marker_batch_list(b, MARKER_KIND_SDT);
	struct sdt_site *ss, *tmp;

	list_for_each_entry_safe(ss, tmp, list, dead) {
		if (WARN_ON_ONCE(ss->entry))
			continue;	/* disarmed: a bug, leak it */
		list_del(&ss->dead);
		sdt_free(ss);
	}
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
	if (ss->called)
		return ss->thunk ? SDT_THUNK : SDT_CALL;
	if (!ss->registered)
		return SDT_DORMANT;
	return sdt_optimized(ss) ? SDT_OPTIMIZED : SDT_KPROBE;
}

/*
 * Why @e is in error, in one word: its operand spec did not decode (see
 * sdt_parse()), or it is where kprobes may not go; or NULL.
 */
const char *sdt_why(const struct marker_entry *e)
{
	lockdep_assert_held(&marker_mutex);
	if (!e->sdt || !e->sdt->error)
		return NULL;
	return e->sdt->why ?: e->sdt->prog.why;
}

/* The memory operands of @e that faulted since it was armed. */
unsigned int sdt_faults(const struct marker_entry *e)
{
	return e->sdt ? atomic_read(&e->sdt->faults) : 0;
}

/* The hits of @e since it was armed. */
static unsigned long sdt_hits(const struct marker_entry *e)
{
	unsigned long n = 0;
	int cpu;

	if (!e->sdt)
		return 0;
	for_each_possible_cpu(cpu)
		n += local_read(per_cpu_ptr(e->sdt->hits, cpu));
	return n;
}

/* --- The mechanism of SDT sites ------------------------------------- */

static bool sdt_accepts(const struct marker_site *site,
			const struct marker_probe *p)
{
	return p->nargs < 0 || sdt_spec_nargs(marker_site_format(site)) == p->nargs;
}

static void sdt_update(struct marker_entry *e, struct marker_probes *probes,
		       struct marker_batch *b)
{
	if (probes)
		sdt_arm(e, probes, b);
	else
		sdt_disarm(e, b);
}

static bool sdt_armed(const struct marker_entry *e)
{
	switch (sdt_state(e, NULL)) {
	case SDT_CALL:
	case SDT_THUNK:
	case SDT_KPROBE:
	case SDT_OPTIMIZED:
		return true;
	default:
		return false;
	}
}

/*
 * An SDT site's trace event has one u64 field per argument: every site of
 * its key must have as many.
 */
static const char *sdt_event_why(const char *first, const char *fmt)
{
	if (first && sdt_spec_nargs(first) != sdt_spec_nargs(fmt))
		return "sites_disagree_on_argument_count";
	return NULL;
}

/* @obj leaves the registry: disarm its sites before its text goes. */
static void sdt_object_del(struct marker_object *obj, struct marker_batch *b)
{
	struct marker_entry *e;

	for (e = obj->entry; e < obj->entry + obj->nr; e++)
		if (e->site->kind == MARKER_KIND_SDT)
			sdt_disarm(e, b);
}

/* The init text of @obj is about to be freed: disarm its sites there. */
static void sdt_init_gone(struct marker_object *obj, struct marker_batch *b)
{
	struct marker_entry *e;

	for (e = obj->entry; e < obj->entry + obj->nr; e++)
		if (e->site->kind == MARKER_KIND_SDT && e->init && !e->gone)
			sdt_disarm(e, b);
}

static void sdt_show(struct seq_file *m, const struct marker_entry *e)
{
	const char *why;
	int err;

	switch (sdt_state(e, &err)) {
	case SDT_ERROR:
		why = sdt_why(e);
		if (why)
			seq_printf(m, "error(%d:%s)", err, why);
		else
			seq_printf(m, "error(%d)", err);
		break;
	case SDT_CALL:
		seq_puts(m, "call");
		break;
	case SDT_THUNK:
		seq_puts(m, "thunk");
		break;
	case SDT_KPROBE:
		seq_puts(m, "kprobe");
		break;
	case SDT_OPTIMIZED:
		seq_puts(m, "optimized");
		break;
	case SDT_DORMANT:
		seq_puts(m, e->mn->probes ? "mismatch" : "dormant");
		break;
	}
}

static void sdt_counts(const struct marker_entry *e, unsigned int *faults,
		       unsigned long *hits)
{
	*faults = sdt_faults(e);
	*hits = sdt_hits(e);
}

static const struct marker_kind_ops sdt_ops = {
	.name		= "sdt",
	.accepts	= sdt_accepts,
	.reserve	= sdt_reserve,
	.unreserve	= sdt_unreserve,
	.update		= sdt_update,
	.armed		= sdt_armed,
	.event_why	= sdt_event_why,
	.object_del	= sdt_object_del,
	.init_gone	= sdt_init_gone,
	.after_patch	= sdt_thunks_kill,
	.reap		= sdt_reap,
	.show		= sdt_show,
	.counts		= sdt_counts,
	.text_reserved	= sdt_text_reserved,
};

/* Before marker_init(): sdt.o links before objects.o. */
static int __init sdt_init(void)
{
	marker_register_kind(MARKER_KIND_SDT, &sdt_ops);
	return 0;
}
early_initcall(sdt_init);
