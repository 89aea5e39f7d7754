// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: the thunks of SDT sites, for the SDT mechanism (sdt.c).
 *
 * A thunk is the code one call-armed SDT site calls (on arm64, branches
 * to), emitted by the arch (arch_sdt_thunk_emit()) when the site is armed:
 * it reads the site's operands and calls what sdt_thunk_make() tells it
 * to, the probe or sdt_thunk_iterate() over several.
 * This file says what it calls, where it lives (a slot of a pack of
 * executable memory, below), and when its memory may go: a thunk that
 * a change retires (sdt_thunk_retire()) stops calling probes before the
 * change's grace period and is freed after an RCU-tasks grace period
 * (sdt_thunks_kill()). And it knows where the thunks are: from before
 * its site can call it until no task can be in it, a thunk is text to
 * kernel_text_address() (is_sdt_thunk_address()), so that an unwinder
 * walks through it to the site's function and its callers, and a symbol
 * named after its site, sdt_thunk_<provider>_<name>, in /proc/kallsyms
 * (module "__builtin__markers", which is not a module, as kprobes' and
 * ftrace's), in %pS, and to perf (PERF_RECORD_KSYMBOL).
 */

#include <kunit/visibility.h>
#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/execmem.h>
#include <linux/kallsyms.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/rbtree_latch.h>
#include <linux/rcupdate.h>
#include <linux/sdt.h>
#include <linux/sdt-decode.h>
#include <linux/set_memory.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "internal.h"
#include "sdt.h"

/* Thunks retired by the change under way; under marker_mutex. */
static LIST_HEAD(sdt_thunks_retired);

/*
 * The thunks by address, for is_sdt_thunk_address() and
 * sdt_thunk_address_lookup(), which may run in any context, NMI
 * included: a latch tree (as modules' and BPF programs' are), and a list
 * for /proc/kallsyms, both read under RCU and written under
 * sdt_thunk_tree_lock (from sdt_thunk_make() under marker_mutex, and
 * from an RCU callback). A thunk erased from them is freed after a
 * normal grace period, so a reader that found it never reads freed
 * memory.
 */
static struct latch_tree_root sdt_thunk_tree;
static LIST_HEAD(sdt_thunk_list);
static DEFINE_SPINLOCK(sdt_thunk_tree_lock);

static __always_inline unsigned long sdt_thunk_start(struct latch_tree_node *n)
{
	return (unsigned long)container_of(n, struct sdt_thunk, lnode)->code;
}

static __always_inline bool sdt_thunk_less(struct latch_tree_node *a,
					   struct latch_tree_node *b)
{
	return sdt_thunk_start(a) < sdt_thunk_start(b);
}

static __always_inline int sdt_thunk_comp(void *key, struct latch_tree_node *n)
{
	unsigned long addr = (unsigned long)key, start = sdt_thunk_start(n);

	if (addr < start)
		return -1;
	if (addr >= start + container_of(n, struct sdt_thunk, lnode)->size)
		return 1;
	return 0;
}

static const struct latch_tree_ops sdt_thunk_tree_ops = {
	.less = sdt_thunk_less,
	.comp = sdt_thunk_comp,
};

static void sdt_thunk_tree_insert(struct sdt_thunk *th)
{
	unsigned long flags;

	spin_lock_irqsave(&sdt_thunk_tree_lock, flags);
	latch_tree_insert(&th->lnode, &sdt_thunk_tree, &sdt_thunk_tree_ops);
	list_add_tail_rcu(&th->list, &sdt_thunk_list);
	spin_unlock_irqrestore(&sdt_thunk_tree_lock, flags);
	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_OOL, (unsigned long)th->code,
			   th->size, false, th->name);
	/*
	 * And its bytes, for the decoders of traced code (Intel PT) that
	 * perf feeds with text pokes, as kprobes give an insn slot's:
	 * nothing was there before.
	 */
	perf_event_text_poke(th->code, NULL, 0, th->code, th->size);
}

static void sdt_thunk_tree_erase(struct sdt_thunk *th)
{
	unsigned long flags;

	spin_lock_irqsave(&sdt_thunk_tree_lock, flags);
	latch_tree_erase(&th->lnode, &sdt_thunk_tree, &sdt_thunk_tree_ops);
	list_del_rcu(&th->list);
	spin_unlock_irqrestore(&sdt_thunk_tree_lock, flags);
}

/**
 * is_sdt_thunk_address - whether an address is in the thunk of an SDT site
 * @addr: the address
 *
 * For kernel_text_address(), in any context: a thunk is text from before
 * its site can call it until after no task can be running it.
 *
 * Return: true if @addr is in a thunk's memory.
 */
bool is_sdt_thunk_address(unsigned long addr)
{
	bool ret;

	rcu_read_lock();
	ret = latch_tree_find((void *)addr, &sdt_thunk_tree, &sdt_thunk_tree_ops);
	rcu_read_unlock();
	return ret;
}

/**
 * sdt_thunk_address_lookup - the symbol of an address in a thunk
 * @addr: the address
 * @size: set to the thunk's size, if not NULL
 * @off: set to @addr's offset in the thunk, if not NULL
 * @modname: set to NULL (the thunk is not in a module), if not NULL
 * @sym: set to the thunk's name, KSYM_NAME_LEN bytes
 *
 * For kallsyms_lookup() and %pS, in any context.
 *
 * Return: the length of the name, or 0 if @addr is in no thunk (and
 * nothing is set).
 */
int sdt_thunk_address_lookup(unsigned long addr, unsigned long *size,
			     unsigned long *off, char **modname, char *sym)
{
	struct latch_tree_node *n;
	struct sdt_thunk *th;
	int ret = 0;

	rcu_read_lock();
	n = latch_tree_find((void *)addr, &sdt_thunk_tree, &sdt_thunk_tree_ops);
	if (n) {
		th = container_of(n, struct sdt_thunk, lnode);
		if (size)
			*size = th->size;
		if (off)
			*off = addr - (unsigned long)th->code;
		if (modname)
			*modname = NULL;
		ret = strscpy(sym, th->name, KSYM_NAME_LEN);
		if (ret < 0)
			ret = KSYM_NAME_LEN - 1;
	}
	rcu_read_unlock();
	return ret;
}

/**
 * sdt_thunk_get_kallsym - a thunk's symbol, for /proc/kallsyms
 * @symnum: which thunk, from 0
 * @value: set to its address
 * @type: set to its type, 't'
 * @sym: set to its name, KSYM_NAME_LEN bytes
 *
 * Return: 0, or -ERANGE if there are no more than @symnum thunks (and
 * nothing is set).
 */
int sdt_thunk_get_kallsym(unsigned int symnum, unsigned long *value,
			  char *type, char *sym)
{
	struct sdt_thunk *th;
	int ret = -ERANGE;

	rcu_read_lock();
	list_for_each_entry_rcu(th, &sdt_thunk_list, list) {
		if (symnum--)
			continue;
		*value = (unsigned long)th->code;
		*type = 't';
		strscpy(sym, th->name, KSYM_NAME_LEN);
		ret = 0;
		break;
	}
	rcu_read_unlock();
	return ret;
}

/*
 * Packs. Thunks share pages of executable memory, as BPF programs share
 * bpf_prog_pack's and kprobes their instruction slots. A pack is a page
 * of the arch's memory for thunks (SDT_THUNK_EXECMEM), made read-only
 * and executable as soon as it is allocated and filled with the arch's
 * trapping instructions (arch_sdt_thunk_invalidate()); it is cut into
 * SDT_PACK_UNIT-byte units. A thunk being made is sized first (where it
 * runs does not change its length), takes the first free run of units
 * that holds it, and is emitted for that address; its bytes are written
 * as text is (arch_sdt_thunk_write()). Freed, after its grace
 * periods (sdt_thunks_kill()), its units are filled with traps again, so
 * that a stale jump into them traps, and a pack with no thunk left goes
 * back to execmem. Packs are taken and given back under sdt_pack_mutex
 * (thunks are made under marker_mutex and freed by a work item), and a
 * thunk is written without it: its slot is its own.
 */
#define SDT_PACK_SIZE		PAGE_SIZE
#define SDT_PACK_UNIT		16
#define SDT_PACK_UNITS		(SDT_PACK_SIZE / SDT_PACK_UNIT)

static_assert(SDT_THUNK_MAX <= SDT_PACK_SIZE);

struct sdt_pack {
	struct list_head list;		/* in sdt_packs */
	void *code;
	unsigned int used;		/* units taken */
	DECLARE_BITMAP(map, SDT_PACK_UNITS);
};

static LIST_HEAD(sdt_packs);
static DEFINE_MUTEX(sdt_pack_mutex);

/* The packs there are, for the KUnit suites. */
VISIBLE_IF_KUNIT unsigned int sdt_packs_nr;
EXPORT_SYMBOL_IF_KUNIT(sdt_packs_nr);

static struct sdt_pack *sdt_pack_new(void)
{
	struct sdt_pack *p;

	lockdep_assert_held(&sdt_pack_mutex);
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return NULL;
	p->code = execmem_alloc(SDT_THUNK_EXECMEM, SDT_PACK_SIZE);
	if (!p->code)
		goto out;
	/*
	 * Freeing resets its permissions, whatever they became
	 * (VM_FLUSH_RESET_PERMS).
	 */
	if (set_memory_rox((unsigned long)p->code, SDT_PACK_SIZE >> PAGE_SHIFT)) {
		execmem_free(p->code);
		goto out;
	}
	arch_sdt_thunk_invalidate(p->code, SDT_PACK_SIZE);
	list_add_tail(&p->list, &sdt_packs);
	sdt_packs_nr++;
	return p;
out:
	kfree(p);
	return NULL;
}

/*
 * A slot of @len bytes (at most SDT_THUNK_MAX), of traps, for a thunk
 * being made; NULL without memory.
 */
VISIBLE_IF_KUNIT void *sdt_pack_alloc(unsigned int len)
{
	unsigned int n = DIV_ROUND_UP(len, SDT_PACK_UNIT);
	unsigned long pos = 0;
	struct sdt_pack *p;

	if (WARN_ON_ONCE(!len || len > SDT_THUNK_MAX))
		return NULL;
	mutex_lock(&sdt_pack_mutex);
	list_for_each_entry(p, &sdt_packs, list) {
		pos = bitmap_find_next_zero_area(p->map, SDT_PACK_UNITS, 0, n, 0);
		if (pos < SDT_PACK_UNITS)
			goto found;
	}
	p = sdt_pack_new();
	if (!p) {
		mutex_unlock(&sdt_pack_mutex);
		return NULL;
	}
	pos = 0;
found:
	bitmap_set(p->map, pos, n);
	p->used += n;
	mutex_unlock(&sdt_pack_mutex);
	return p->code + pos * SDT_PACK_UNIT;
}
EXPORT_SYMBOL_IF_KUNIT(sdt_pack_alloc);

/*
 * Give back the slot of @len bytes at @at that sdt_pack_alloc() gave:
 * traps in it first if @written (a thunk's bytes are there, and a task
 * may have run them), and the pack freed if it holds no thunk any more.
 * In process context.
 */
VISIBLE_IF_KUNIT void sdt_pack_free(void *at, unsigned int len, bool written)
{
	unsigned int n = DIV_ROUND_UP(len, SDT_PACK_UNIT);
	struct sdt_pack *p;

	if (!n)
		return;
	mutex_lock(&sdt_pack_mutex);
	list_for_each_entry(p, &sdt_packs, list) {
		if (at < p->code || at >= p->code + SDT_PACK_SIZE)
			continue;
		if (written)
			arch_sdt_thunk_invalidate(at, n * SDT_PACK_UNIT);
		bitmap_clear(p->map, (at - p->code) / SDT_PACK_UNIT, n);
		p->used -= n;
		if (!p->used) {
			list_del(&p->list);
			sdt_packs_nr--;
			execmem_free(p->code);
			kfree(p);
		}
		mutex_unlock(&sdt_pack_mutex);
		return;
	}
	mutex_unlock(&sdt_pack_mutex);
	WARN_ONCE(1, "markers: no thunk pack holds %p\n", at);
}
EXPORT_SYMBOL_IF_KUNIT(sdt_pack_free);

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

/**
 * sdt_thunk_gate - call a thunk's probe, unless the thunk is retired
 * @call: the thunk's call
 * @args: the site's operands, which the thunk read
 *
 * The rule of every thunk, called by those that keep it in C (arm64's);
 * x86's thunks do the same in their own code. With the preempt count
 * raised, as for the whole call, and before touching anything the
 * registry may free once the thunk is retired (the probe, its data, the
 * site's hit counter): test *@call->live, which the registry clears before
 * the normal grace period that lets those go (sdt_thunks_kill()); then
 * count the hit and call the probe. preempt_enable_notrace() after.
 */
notrace void sdt_thunk_gate(const struct sdt_thunk_call *call, const u64 *args)
{
	sdt_probe_func *func = call->func;

	preempt_disable_notrace();
	if (likely(READ_ONCE(*call->live))) {
		/* One add, atomic against interrupts: preemption is off. */
		local_inc(this_cpu_ptr(call->hits));
		func(call->data, args, call->nargs);
	}
	preempt_enable_notrace();
}

NOKPROBE_SYMBOL(sdt_thunk_gate);

/*
 * What @ss's thunk @th calls for @probes: the one probe directly, or the
 * iterator over several. @probes may be NULL: a thunk is sized before its
 * probes are known, and what it calls changes none of its lengths.
 */
static void sdt_thunk_call_init(struct sdt_thunk_call *call,
				struct sdt_thunk *th, struct sdt_site *ss,
				struct marker_probes *probes)
{
	*call = (struct sdt_thunk_call) {
		.live = &th->live,
		.hits = ss->hits,
		.faults = &ss->faults,
		.site = ss->code,
		.nargs = ss->prog.nargs,
	};
	if (probes && probes->nr == 1) {
		call->func = probes->probe[0].sdt_func;
		call->data = probes->probe[0].data;
	} else {
		call->func = sdt_thunk_iterate;
		call->data = probes;
	}
}

/**
 * sdt_thunk_discard - free a thunk that no site ever called
 * @th: the thunk, made by sdt_thunk_reserve(), or whose making failed
 *
 * Its slot holds traps still, or bytes no CPU ran: no grace period.
 */
void sdt_thunk_discard(struct sdt_thunk *th)
{
	if (th->slot)
		sdt_pack_free(th->slot, th->len, false);
	kfree(th->buf);
	kfree(th->name);
	kfree(th);
}

/**
 * sdt_thunk_reserve - reserve the memory of a thunk for an SDT site
 * @ss: the site, its spec decoded
 * @gfp: how to allocate
 *
 * The thunk, its name, its slot in a pack, and a buffer to emit it into:
 * what sdt_thunk_make() needs, so that a change can reserve the new
 * thunk of a site before it publishes anything. The thunk is sized at
 * its site's address, then emitted once at its slot, which checks that
 * the slot is in reach of everything the thunk branches to; since what a
 * thunk calls changes none of its lengths, emitting it again for its
 * probes cannot fail. Under marker_mutex.
 *
 * Return: the thunk, not yet written; or -ENOMEM, or the arch's error
 * (-ERANGE: its slot is out of the site's reach). Nothing is left
 * allocated on error.
 */
struct sdt_thunk *sdt_thunk_reserve(struct sdt_site *ss, gfp_t gfp)
{
	struct sdt_thunk_image img = {};
	struct sdt_thunk_call call;
	struct sdt_thunk *th;
	int err = -ENOMEM;

	lockdep_assert_held(&marker_mutex);
	th = kzalloc(sizeof(*th), gfp);
	if (!th)
		return ERR_PTR(-ENOMEM);
	/* Its symbol: the key, "provider:name", as sdt_thunk_provider_name. */
	th->name = kasprintf(gfp, "sdt_thunk_%s", ss->entry->mn->key);
	th->buf = kzalloc(SDT_THUNK_MAX, gfp);
	if (!th->name || !th->buf)
		goto out;
	strreplace(th->name, ':', '_');
	/*
	 * Its length: emitted as if at its site, in reach of everything
	 * the thunk branches to.
	 */
	sdt_thunk_call_init(&call, th, ss, NULL);
	img.buf = th->buf;
	img.at = (unsigned long)ss->code;
	err = arch_sdt_thunk_emit(&ss->prog, &call, &img);
	if (err)
		goto out;
	th->slot = sdt_pack_alloc(img.len);
	if (!th->slot) {
		err = -ENOMEM;
		goto out;
	}
	th->len = img.len;
	memset(img.buf, 0, SDT_THUNK_MAX);
	img.at = (unsigned long)th->slot;
	err = arch_sdt_thunk_emit(&ss->prog, &call, &img);
	if (!err && WARN_ON_ONCE(img.len != th->len))
		err = -E2BIG;
	if (err)
		goto out;
	return th;
out:
	sdt_thunk_discard(th);
	return ERR_PTR(err);
}

/**
 * sdt_thunk_make - make the thunk of an SDT site
 * @ss: the site, its spec decoded
 * @probes: its probes
 *
 * Under marker_mutex. The thunk serves @probes: it calls the one probe
 * directly, or the iterator over several, and a change of the probes
 * makes the site a new one. It is made in @ss's spare, the thunk a change
 * reserved for it (sdt_thunk_reserve()), or else anew; the spare is used
 * up either way. A spare is reserved for a site armed with a thunk
 * already, which keeps its mechanism whatever sdt_mechanism says now.
 *
 * Return: the thunk, text to unwinders already; or -EOPNOTSUPP (no
 * thunks wanted, or none the arch can make for these operands), -ENOMEM,
 * -E2BIG (a bug: see arch_sdt_thunk_emit()), or the arch's error
 * (-ERANGE: out of reach).
 */
struct sdt_thunk *sdt_thunk_make(struct sdt_site *ss,
				 struct marker_probes *probes)
{
	struct sdt_thunk_image img = {};
	struct sdt_thunk_call call;
	struct sdt_thunk *th;
	int err;

	lockdep_assert_held(&marker_mutex);
	th = ss->spare;
	ss->spare = NULL;
	if (!th) {
		if (!sdt_use_thunks || arch_sdt_thunk_why(&ss->prog))
			return ERR_PTR(-EOPNOTSUPP);
		th = sdt_thunk_reserve(ss, GFP_KERNEL);
		if (IS_ERR(th))
			return th;
	}
	th->live = true;
	sdt_thunk_call_init(&call, th, ss, probes);
	memset(th->buf, 0, SDT_THUNK_MAX);
	img.buf = th->buf;
	img.at = (unsigned long)th->slot;
	err = arch_sdt_thunk_emit(&ss->prog, &call, &img);
	if (!err && WARN_ON_ONCE(img.len != th->len || img.entry >= img.len))
		err = -E2BIG;
	if (err) {
		sdt_thunk_discard(th);
		return ERR_PTR(err);
	}
	arch_sdt_thunk_write(th->slot, img.buf, th->len);
	kfree(th->buf);
	th->buf = NULL;
	th->code = th->slot + img.entry;
	th->size = th->len - img.entry;
	/* Text for unwinders before its site can call it. */
	sdt_thunk_tree_insert(th);
	return th;
}

/* Thunks killed and not yet freed, for the KUnit suites. */
VISIBLE_IF_KUNIT atomic_t sdt_thunks_dying = ATOMIC_INIT(0);
EXPORT_SYMBOL_IF_KUNIT(sdt_thunks_dying);

static void sdt_thunk_free_work(struct work_struct *work)
{
	struct sdt_thunk *th = container_of(work, struct sdt_thunk, free_work);

	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_OOL, (unsigned long)th->code,
			   th->size, true, th->name);
	perf_event_text_poke(th->code, th->code, th->size, NULL, 0);
	sdt_pack_free(th->slot, th->len, true);
	kfree(th->name);
	kfree(th);
	atomic_dec(&sdt_thunks_dying);
}

/*
 * A normal grace period after the thunk left the tree: no reader of the
 * tree holds it. Freeing executable memory resets its permissions: in
 * process context.
 */
static void sdt_thunk_free_rcu(struct rcu_head *rcu)
{
	struct sdt_thunk *th = container_of(rcu, struct sdt_thunk, rcu);

	INIT_WORK(&th->free_work, sdt_thunk_free_work);
	schedule_work(&th->free_work);
}

/*
 * An RCU-tasks grace period after its site stopped calling it: no task
 * is in the thunk, and no unwinder needs it to be text any more.
 */
static void sdt_thunk_dead_rcu(struct rcu_head *rcu)
{
	struct sdt_thunk *th = container_of(rcu, struct sdt_thunk, rcu);

	sdt_thunk_tree_erase(th);
	call_rcu(&th->rcu, sdt_thunk_free_rcu);
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
 * idle tasks, whose preempt count is never zero; it leaves the tree of
 * is_sdt_thunk_address() then, and its memory goes a normal grace period
 * later. CONFIG_MARKERS selects TASKS_RCU wherever the preempt count
 * exists; without it, the tick ends no grace period in kernel code, a
 * thunk is an RCU read side throughout, and call_rcu_tasks() is
 * call_rcu().
 */
void sdt_thunks_kill(struct marker_batch *b)
{
	struct sdt_thunk *th, *tmp;

	lockdep_assert_held(&marker_mutex);
	list_for_each_entry_safe(th, tmp, &sdt_thunks_retired, retired) {
		WRITE_ONCE(th->live, false);
		list_del(&th->retired);
		atomic_inc(&sdt_thunks_dying);
		call_rcu_tasks(&th->rcu, sdt_thunk_dead_rcu);
	}
}

/* The thunk the SDT site @e calls, or NULL. */
void *sdt_thunk_code(const struct marker_entry *e)
{
	lockdep_assert_held(&marker_mutex);
	return e->sdt && e->sdt->thunk ? e->sdt->thunk->code : NULL;
}
