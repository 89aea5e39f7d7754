// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: arming SDT sites.
 *
 * An SDT site (<linux/sdt.h>) is a 5-byte NOP and an operand spec saying
 * where each argument lives. When its key gets probes, the registry
 * (core.c) calls sdt_arm(): the spec is decoded once into a program
 * (arch_sdt_parse()), then the site is armed by one of two mechanisms:
 *
 * call		the default: the NOP is patched into a CALL of the SDT
 *		trampoline (arch_sdt_trampoline()), in the change's text_poke
 *		batch. The trampoline saves every register and the flags in a
 *		struct pt_regs and calls sdt_trampoline_handler(), which finds
 *		the site by its address in an RCU hash table.
 * kprobe	a kprobe on the NOP, optimized into a jump where kprobes can
 *		(the mechanism before; kept to compare, and selected with
 *		/sys/kernel/debug/markers/sdt_mechanism).
 *
 * Either way the handler fetches the arguments (arch_sdt_fetch()) and
 * calls the probes. sdt_disarm() stops the site calling probes and
 * unpatches it; sdt_reap(), once marker_mutex is dropped, unregisters the
 * kprobes of every site a change disarmed at once, or just waits for the
 * trampoline's running handlers: one grace period.
 *
 * Everything here runs under marker_mutex, but the handlers, sdt_reap()
 * and sdt_text_reserved().
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/debugfs.h>
#include <linux/hashtable.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <kunit/visibility.h>
#include <asm/sdt.h>

#include "internal.h"

/*
 * An armed SDT site: its mechanism, its decoded operand spec, and its
 * probes. A site whose arming failed keeps its state, with @error, until
 * its key loses its probes.
 */
struct sdt_site {
	struct marker_entry *entry;
	struct list_head dead;		/* in a marker_batch: reserved, disarmed */
	struct hlist_node hnode;	/* in sdt_calls, while call-armed */
	void *code;
	struct marker_probes __rcu *probes;
	bool called;			/* armed with a call */
	bool kprobe;			/* armed, or being armed, with kp */
	bool registered;		/* armed with kp */
	struct kprobe kp;
	int error;			/* arming failed: -errno */
	const char *why;		/* ... and why, if not prog.why */
	atomic_t faults;		/* memory operands that faulted */
	unsigned long __percpu *hits;
	struct sdt_prog prog;
};

/* Call-armed sites, by address, for the trampoline; under RCU. */
#define SDT_CALL_BITS	8
static DEFINE_HASHTABLE(sdt_calls, SDT_CALL_BITS);

/* See internal.h; set in debugfs. */
bool sdt_use_kprobes;
EXPORT_SYMBOL_IF_KUNIT(sdt_use_kprobes);

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
	this_cpu_inc(*ss->hits);
	faults = arch_sdt_fetch(&ss->prog, regs, args);
	if (unlikely(faults))
		atomic_add(faults, &ss->faults);
	for (i = 0; i < probes->nr; i++)
		probes->probe[i].sdt_func(probes->probe[i].data, args,
					  ss->prog.nargs);
}

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

static int sdt_kprobe_pre(struct kprobe *kp, struct pt_regs *regs)
{
	/* kprobe handlers run with preemption disabled. */
	sdt_hit(container_of(kp, struct sdt_site, kp), regs);
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

/* Is a kprobe registered at @addr, enabled or not? */
static bool sdt_kprobe_at(void *addr)
{
	bool ret;

	rcu_read_lock();
	ret = get_kprobe(addr);
	rcu_read_unlock();
	return ret;
}

/* Is @kp the kprobe of an SDT site armed with one? */
bool sdt_own_kprobe(const struct kprobe *kp)
{
	return kp->pre_handler == sdt_kprobe_pre;
}

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
 * @own: let through the site that starts at @start, if it is armed with
 *	 the registry's kprobe: that kprobe is being registered or optimized
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
bool sdt_text_reserved(unsigned long start, unsigned long end, bool own)
{
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
	free_percpu(ss->hits);
	kfree(ss);
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
	ss->hits = alloc_percpu_gfp(unsigned long, gfp);
	if (!ss->hits) {
		kfree(ss);
		return -ENOMEM;
	}
	list_add(&ss->dead, &b->spare_sdt);
	return 0;
}

/* Arm @ss with a kprobe; on failure, its error. */
static void sdt_arm_kprobe(struct sdt_site *ss)
{
	int ret;

	ss->kp.addr = ss->code;
	ss->kp.pre_handler = sdt_kprobe_pre;
	if (sdt_int3_only)
		ss->kp.post_handler = sdt_kprobe_post;
	/* Before registering: kprobes asks sdt_text_reserved() meanwhile. */
	WRITE_ONCE(ss->kprobe, true);
	ret = register_kprobe(&ss->kp);
	if (ret) {
		WRITE_ONCE(ss->kprobe, false);
		ss->error = ret;
		RCU_INIT_POINTER(ss->probes, NULL);
		marker_warn_site(ss->entry, "cannot register a kprobe: %d\n", ret);
		return;
	}
	ss->registered = true;
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
		ss->code = marker_site_code(site);
		WRITE_ONCE(e->sdt, ss);		/* sdt_kprobe_armed() reads it */
		ret = arch_sdt_parse(marker_site_format(site), &ss->prog,
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
	if (ss->called || ss->registered)
		return;
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
	hash_add_rcu(sdt_calls, &ss->hnode, (unsigned long)ss->code);
	marker_batch_patch(b, MARKER_INSN_SDT_CALL, ss->code, NULL);
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
void sdt_disarm(struct marker_entry *e, struct marker_batch *b)
{
	struct sdt_site *ss = e->sdt;

	lockdep_assert_held(&marker_mutex);
	if (!ss)
		return;
	RCU_INIT_POINTER(ss->probes, NULL);
	if (ss->called) {
		hash_del_rcu(&ss->hnode);
		if (!e->gone)
			marker_batch_patch(b, MARKER_INSN_SDT_NOP, ss->code, NULL);
		b->wait = true;
	}
	WRITE_ONCE(e->sdt, NULL);	/* freed after a grace period */
	list_add_tail(&ss->dead, &b->dead_sdt);
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
	} else if (!list_empty(&b->dead_sdt)) {
		/* Call-armed sites: wait for the trampoline's handlers. */
		synchronize_rcu();
		n = 1;
	}
	list_for_each_entry_safe(ss, tmp, &b->dead_sdt, dead)
		sdt_free(ss);
	sdt_unreserve(b);
	return n;
}

/* Free the reservations of @b that arming did not use. */
void sdt_unreserve(struct marker_batch *b)
{
	struct sdt_site *ss, *tmp;

	list_for_each_entry_safe(ss, tmp, &b->spare_sdt, dead)
		sdt_free(ss);
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
	if (ss->called)
		return SDT_CALL;
	if (!ss->registered)
		return SDT_DORMANT;
	return sdt_optimized(ss) ? SDT_OPTIMIZED : SDT_KPROBE;
}

/*
 * Why @e is in error, in one word: its operand spec did not decode (see
 * arch_sdt_parse()), or it is where kprobes may not go; or NULL.
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
unsigned long sdt_hits(const struct marker_entry *e)
{
	unsigned long n = 0;
	int cpu;

	if (!e->sdt)
		return 0;
	for_each_possible_cpu(cpu)
		n += *per_cpu_ptr(e->sdt->hits, cpu);
	return n;
}

/* --- /sys/kernel/debug/markers/sdt_mechanism -------------------------- */

static ssize_t sdt_mechanism_read(struct file *file, char __user *ubuf,
				  size_t len, loff_t *ppos)
{
	const char *m = READ_ONCE(sdt_use_kprobes) ? "kprobe\n" : "call\n";

	return simple_read_from_buffer(ubuf, len, ppos, m, strlen(m));
}

/*
 * "call" or "kprobe": how SDT sites are armed from now on. Sites armed
 * already keep their mechanism until disarmed.
 */
static ssize_t sdt_mechanism_write(struct file *file, const char __user *ubuf,
				   size_t len, loff_t *ppos)
{
	char buf[8] = "";

	if (len >= sizeof(buf) || copy_from_user(buf, ubuf, len))
		return -EINVAL;
	if (!strcmp(strim(buf), "call"))
		WRITE_ONCE(sdt_use_kprobes, false);
	else if (!strcmp(strim(buf), "kprobe"))
		WRITE_ONCE(sdt_use_kprobes, true);
	else
		return -EINVAL;
	return len;
}

static const struct file_operations sdt_mechanism_fops = {
	.read = sdt_mechanism_read,
	.write = sdt_mechanism_write,
};

static int __init sdt_debugfs_init(void)
{
	debugfs_create_file("sdt_mechanism", 0600, marker_debugfs_dir, NULL,
			    &sdt_mechanism_fops);
	return 0;
}
late_initcall(sdt_debugfs_init);
