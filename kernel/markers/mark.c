// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: MARK() and guard sites, armed and hit.
 *
 * A MARK() expansion (<linux/marker.h>) is, per copy of its site, a
 * jump-label NOP and, out of line, a CALL; one struct marker_desc is
 * shared by the copies. The registry patches both itself (the jump label's
 * key is never enabled), the sites of a change together
 * (marker_batch_patch()):
 *
 *	dormant		NOP; CALL __marker_slowpath
 *	direct		JMP; CALL probe, with desc->data its data
 *	multi		JMP; CALL __marker_iterate, with desc->data the
 *			probes, which it calls each with a va_list of its own
 *	slow		JMP; CALL __marker_slowpath, which finds desc by the
 *			CALL's address and calls every probe of desc->probes
 *
 * A name with one probe is direct; with more, multi; slow is the way
 * between. The site loads desc->data before its CALL, so the CALL may only
 * be patched to a probe or to the iterator once no CPU can still hold data
 * meant for another callee. Dormant to direct or multi needs nothing the
 * first time the site is armed (no task can be past its NOP, so its CALL
 * is written as unreached text); after that, a task preempted between the
 * site's jump and preempt_disable() before a disarm may still load the
 * data later, which no grace period covers, so the site goes slow first.
 * Slow to direct or multi happens after the change's grace period, as a
 * promotion (mark_promote_prepare(), mark_promote_finish()): the data is
 * stored while the CALL still goes to the slow path, and a load of older
 * data followed by the new CALL would span that grace period. Multi to
 * multi only stores the new probes as the data: a CPU that loaded the old
 * ones calls them under the change's grace period, as the slow path would.
 * Everything else is safe at once: the slow path ignores the data it is
 * passed.
 * MARK_ENABLED() and SDT_ENABLED() guards are the jump alone.
 */

#include <linux/delay.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <kunit/visibility.h>

#include "internal.h"

/* desc->state: the sites' mode, and a count of changes. */
#define MARK_MODE		3UL
#define MARK_DORMANT		0UL
#define MARK_DIRECT		1UL
#define MARK_SLOW		2UL
#define MARK_MULTI		3UL
#define MARK_GEN		4UL

static unsigned long mark_mode(const struct marker_desc *desc)
{
	return desc->state & MARK_MODE;
}

static void mark_set_mode(struct marker_desc *desc, unsigned long mode)
{
	desc->state = (desc->state & ~MARK_MODE) + MARK_GEN + mode;
}

/*
 * Queue the CALLs of @desc's sites in @obj, to @func; @unreached when no
 * task can be past their NOPs yet (see mark_update_desc()).
 */
static void mark_patch_calls(struct marker_object *obj,
			     struct marker_desc *desc, void *func,
			     bool unreached, struct marker_batch *b)
{
	struct marker_callsite *call;
	unsigned int n;

	for (call = marker_object_calls(obj, desc, &n); n--; call++)
		if (!call->gone)
			marker_batch_patch(b, MARKER_INSN_CALL, call->code,
					   func)->unreached = unreached;
}

/* Queue the jumps of @desc's sites in @obj, armed (JMP) or not (NOP). */
static void mark_patch_jumps(struct marker_object *obj,
			     struct marker_desc *desc, bool armed,
			     struct marker_batch *b)
{
	struct marker_entry *e;

	for (e = obj->entry; e < obj->entry + obj->nr; e++) {
		if (e->gone || e->site->kind == MARKER_KIND_SDT ||
		    marker_site_desc(e->site) != desc)
			continue;
		marker_batch_patch(b, armed ? MARKER_INSN_JUMP : MARKER_INSN_NOP,
				   marker_site_code(e->site),
				   marker_site_target(e->site));
	}
}

/*
 * A slow expansion with probes, to make direct or multi (see the top). In
 * its batch's list, and in mark_promotions until done or cancelled: its
 * object may go between the change and mark_promote_finish(), with
 * marker_mutex dropped, and takes its promotions with it
 * (mark_cancel_promotions()).
 */
struct mark_promotion {
	struct list_head list;
	struct list_head pending;	/* in mark_promotions */
	struct marker_object *obj;	/* NULL once cancelled */
	struct marker_desc *desc;
	unsigned long state;		/* desc->state when queued */
};

/* Every queued promotion, under marker_mutex. */
static LIST_HEAD(mark_promotions);

static void mark_queue_promotion(struct marker_object *obj,
				 struct marker_desc *desc,
				 struct marker_batch *b)
{
	struct mark_promotion *p;

	/* Optional: without memory, the expansion stays slow, and correct. */
	p = kmalloc(sizeof(*p), GFP_KERNEL | __GFP_NOWARN);
	if (!p)
		return;
	p->obj = obj;
	p->desc = desc;
	p->state = desc->state;
	list_add_tail(&p->list, marker_batch_list(b, MARKER_KIND_MARK));
	list_add_tail(&p->pending, &mark_promotions);
}

/*
 * Promotions cancelled since boot, for the tests of that window: written
 * under marker_mutex, read without it.
 */
VISIBLE_IF_KUNIT unsigned int mark_promotions_cancelled;
EXPORT_SYMBOL_IF_KUNIT(mark_promotions_cancelled);

/**
 * mark_cancel_promotions - forget the queued promotions of an object
 * @obj: the object, which is going
 *
 * Under marker_mutex. Its expansions stay slow, which is correct: their
 * text is about to go, and with it the descriptors they point to.
 */
static void mark_cancel_promotions(struct marker_object *obj)
{
	struct mark_promotion *p, *tmp;

	lockdep_assert_held(&marker_mutex);
	list_for_each_entry_safe(p, tmp, &mark_promotions, pending) {
		if (p->obj != obj)
			continue;
		p->obj = NULL;
		list_del_init(&p->pending);
		WRITE_ONCE(mark_promotions_cancelled, mark_promotions_cancelled + 1);
	}
}

/* What the CALLs of an expansion with @probes go to, but the slow path. */
static void *mark_callee(struct marker_probes *probes)
{
	return probes->nr == 1 ? (void *)probes->probe[0].func :
				 (void *)__marker_iterate;
}

/* ... and the data they pass it. */
static void *mark_callee_data(struct marker_probes *probes)
{
	return probes->nr == 1 ? probes->probe[0].data : probes;
}

/*
 * Patch the CALLs of @desc to the callee of @probes, once no CPU can hold
 * data for another: direct with one probe, multi with more. Only a site
 * never armed gets here, with its CALLs unreached.
 */
static void mark_call_callee(struct marker_object *obj,
			     struct marker_desc *desc,
			     struct marker_probes *probes,
			     struct marker_batch *b)
{
	/* Published: the data may be the probes, which it reads. */
	smp_store_release(&desc->data, mark_callee_data(probes));
	mark_patch_calls(obj, desc, mark_callee(probes), true, b);
	mark_set_mode(desc, probes->nr == 1 ? MARK_DIRECT : MARK_MULTI);
}

/**
 * mark_update_desc - point a MARK() or guard expansion at probes
 * @obj: the object the expansion is in
 * @desc: the expansion's descriptor, shared by the copies of its site
 * @guard: a MARK_ENABLED() or SDT_ENABLED() guard, which calls nothing
 * @probes: the probes to call, or NULL for none
 * @b: the batch of the change
 *
 * Publish @probes to the expansion's sites and queue the patching of their
 * jumps and calls to match. Called under marker_mutex, for each site of
 * the expansion: once the descriptor is up to date, it does nothing.
 */
static void mark_update_desc(struct marker_object *obj,
			     struct marker_desc *desc, bool guard,
			     struct marker_probes *probes,
			     struct marker_batch *b)
{
	struct marker_probes *cur;
	unsigned long mode;

	lockdep_assert_held(&marker_mutex);
	cur = rcu_dereference_protected(desc->probes,
					lockdep_is_held(&marker_mutex));
	if (cur == probes)
		return;
	mode = mark_mode(desc);
	rcu_assign_pointer(desc->probes, probes);
	if (!probes) {
		mark_patch_jumps(obj, desc, false, b);
		if (mode == MARK_DIRECT || mode == MARK_MULTI)
			mark_patch_calls(obj, desc, __marker_slowpath, false, b);
		mark_set_mode(desc, MARK_DORMANT);
		return;
	}
	if (mode == MARK_DORMANT) {
		/*
		 * Direct or multi at once only if never armed (no change
		 * counted in its state): no task can be past its jump.
		 * Otherwise one preempted between the jump and
		 * preempt_disable() before it was disarmed may read the old
		 * data right before the CALL is patched to the new callee:
		 * go slow, and promote once a grace period covers that read.
		 * Never armed, its CALLs are unreached too: no task can run
		 * them before the jumps of this change are written. They are
		 * queued first, as they are written: the batch then needs no
		 * merge (marker_batch_sort()).
		 */
		if (!guard && !desc->state) {
			mark_call_callee(obj, desc, probes, b);
			mark_patch_jumps(obj, desc, true, b);
			return;
		}
		mark_patch_jumps(obj, desc, true, b);
		mark_set_mode(desc, MARK_SLOW);
		if (!guard)
			mark_queue_promotion(obj, desc, b);
		return;
	}
	if (mode == MARK_MULTI && probes->nr > 1) {
		/* 2 -> 3, 3 -> 2 probes: new data, the same callee. */
		smp_store_release(&desc->data, probes);
		mark_set_mode(desc, MARK_MULTI);
		return;
	}
	if (mode == MARK_DIRECT || mode == MARK_MULTI)
		mark_patch_calls(obj, desc, __marker_slowpath, false, b);
	mark_set_mode(desc, MARK_SLOW);
	/* Direct or multi once data meant for the old callee is gone. */
	if (!guard)
		mark_queue_promotion(obj, desc, b);
}

/* Is @p still what it was queued for: @desc slow, with those probes? */
static struct marker_probes *mark_promotion_valid(struct mark_promotion *p)
{
	struct marker_probes *probes;

	if (!p->obj)		/* cancelled: its object went */
		return NULL;
	probes = rcu_dereference_protected(p->desc->probes,
					   lockdep_is_held(&marker_mutex));
	if (p->desc->state != p->state || !probes)
		return NULL;
	return probes;
}

/**
 * mark_promote_prepare - the first step of making slow expansions direct
 * @b: the batch of the change that left them with one probe
 *
 * Under marker_mutex, once the change's patches are written: the sites'
 * CALLs go to the slow path, which ignores the data passed to it, so the
 * probe's data can be stored. The batch then waits for a grace period,
 * after which no CPU holds older data, and mark_promote_finish() patches
 * the CALLs to the probe.
 */
static void mark_promote_prepare(struct marker_batch *b)
{
	struct marker_probes *probes;
	struct mark_promotion *p;

	lockdep_assert_held(&marker_mutex);
	list_for_each_entry(p, marker_batch_list(b, MARKER_KIND_MARK), list) {
		probes = mark_promotion_valid(p);
		if (probes) {
			/* Published: the data may be the probes, which it reads. */
			smp_store_release(&p->desc->data, mark_callee_data(probes));
		}
		b->wait = true;
	}
}

/*
 * For a test of the window between a change's grace period and its
 * promotions: mark_promote_finish() sleeps this long first (a test
 * module sets it). Kernels with CONFIG_MARKERS_KUNIT_TEST only.
 */
VISIBLE_IF_KUNIT unsigned int mark_promote_delay_ms;
EXPORT_SYMBOL_IF_KUNIT(mark_promote_delay_ms);

/**
 * mark_promote_finish - the last step of making slow expansions direct
 * @b: the batch, after its grace period, marker_mutex not held
 *
 * Patch the CALLs of the expansions that did not change meanwhile to
 * their probe, in a change of their own.
 */
static void mark_promote_finish(struct marker_batch *b)
{
	struct mark_promotion *p, *tmp;
	struct marker_probes *probes;
	struct marker_batch pb;

	if (list_empty(marker_batch_list(b, MARKER_KIND_MARK)))
		return;
	if (IS_ENABLED(CONFIG_MARKERS_KUNIT_TEST) && READ_ONCE(mark_promote_delay_ms))
		msleep(READ_ONCE(mark_promote_delay_ms));
	marker_batch_init(&pb);
	mutex_lock(&marker_mutex);
	list_for_each_entry_safe(p, tmp, marker_batch_list(b, MARKER_KIND_MARK), list) {
		probes = mark_promotion_valid(p);
		if (probes) {
			mark_patch_calls(p->obj, p->desc, mark_callee(probes),
					 false, &pb);
			mark_set_mode(p->desc, probes->nr == 1 ? MARK_DIRECT : MARK_MULTI);
		}
		list_del(&p->list);
		list_del(&p->pending);	/* self-linked once cancelled */
		kfree(p);
	}
	marker_batch_apply(&pb);
	mutex_unlock(&marker_mutex);
	marker_batch_finish(&pb);
}

/* The init text of @obj is freed: so are the CALLs in it. */
static void mark_init_gone(struct marker_object *obj, struct marker_batch *b)
{
	unsigned int i;

	lockdep_assert_held(&marker_mutex);
	for (i = 0; i < obj->ncalls; i++)
		if (obj->calls[i].init)
			WRITE_ONCE(obj->calls[i].gone, true);	/* see mark_text_reserved() */
}

/**
 * mark_desc_callee - where an expansion's CALLs go
 * @desc: the expansion's descriptor
 *
 * Under marker_mutex; for the consistency check of the KUnit suites.
 *
 * Return: its probe (direct), __marker_iterate() (multi), or
 * __marker_slowpath() (dormant or slow).
 */
void *mark_desc_callee(const struct marker_desc *desc)
{
	struct marker_probes *probes;

	probes = rcu_dereference_protected(desc->probes,
					   lockdep_is_held(&marker_mutex));
	if (mark_mode(desc) == MARK_DIRECT || mark_mode(desc) == MARK_MULTI)
		return mark_callee(probes);
	return __marker_slowpath;
}

/* --- The CALLs of MARK() sites, by object and by address ------------ */

/**
 * marker_object_calls - the CALLs of an expansion's sites in an object
 * @obj: the object
 * @desc: the expansion's descriptor
 * @n: set to how many there are
 *
 * Return: the first of them, in @obj's calls sorted by descriptor.
 */
struct marker_callsite *marker_object_calls(struct marker_object *obj,
					    struct marker_desc *desc,
					    unsigned int *n)
{
	unsigned int lo = 0, hi = obj->ncalls, first;

	while (lo < hi) {
		first = lo + (hi - lo) / 2;
		if (obj->calls[first].desc < desc)
			lo = first + 1;
		else
			hi = first;
	}
	for (first = lo; lo < obj->ncalls && obj->calls[lo].desc == desc; lo++)
		;
	*n = lo - first;
	return obj->calls + first;
}

static int mark_callsite_cmp(const void *a, const void *b)
{
	const struct marker_callsite *x = a, *y = b;

	if (x->desc != y->desc)
		return x->desc < y->desc ? -1 : 1;
	return x->code < y->code ? -1 : x->code > y->code;
}

/*
 * Index the CALLs of @obj's MARK() sites, sorted by descriptor, before
 * @obj is in the registry: 0 or -ENOMEM.
 */
static int mark_object_init(struct marker_object *obj)
{
	const struct marker_call *start = __start___marker_calls;
	unsigned int i, n = __stop___marker_calls - __start___marker_calls;
	struct marker_callsite *c;

	if (obj->mod) {
		start = obj->mod->marker_calls;
		n = obj->mod->num_marker_calls;
	}
	if (!n)
		return 0;
	c = kvcalloc(n, sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		c[i].code = marker_call_code(&start[i]);
		c[i].desc = marker_call_desc(&start[i]);
		c[i].init = marker_code_in_init(c[i].code, obj->mod);
	}
	sort(c, n, sizeof(*c), mark_callsite_cmp, NULL);
	obj->calls = c;
	obj->ncalls = n;
	return 0;
}

/* @obj is in the registry: hash its CALLs for __marker_slowpath(). */
static void mark_object_add(struct marker_object *obj)
{
	lockdep_assert_held(&marker_mutex);
	mark_hash_calls(obj, true);
}

/*
 * @obj leaves the registry: unhash its CALLs and drop its promotions. Its
 * MARK() sites need no disarming: if it is a module, they and their
 * descriptors go with its text.
 */
static void mark_object_del(struct marker_object *obj, struct marker_batch *b)
{
	lockdep_assert_held(&marker_mutex);
	mark_hash_calls(obj, false);
	mark_cancel_promotions(obj);
}

/* After a grace period: nothing reads @obj's CALLs any more. */
static void mark_object_free(struct marker_object *obj)
{
	kvfree(obj->calls);
}

/*
 * Does [@start, @end] overlap a MARK() CALL of a coming module, by its
 * records? The registry indexes a module's CALLs from its module
 * notifier, but one that runs before it may put a kprobe there already,
 * whose int3 arming the site would write over. Jump labels guard a
 * coming module's entries the same way (__jump_label_mod_text_reserved()).
 */
static bool mark_coming_reserved(unsigned long start, unsigned long end)
{
	const struct marker_call *calls;
	struct module *mod;
	unsigned long c;
	unsigned int i;
	bool ret = false;

	preempt_disable();
	mod = __module_text_address(start);
	if (mod && READ_ONCE(mod->state) == MODULE_STATE_COMING) {
		calls = mod->marker_calls;
		for (i = 0; i < mod->num_marker_calls && !ret; i++) {
			c = (unsigned long)marker_call_code(&calls[i]);
			ret = c <= end && start < c + MARKER_CALL_SIZE;
		}
	}
	preempt_enable();
	return ret;
}

/*
 * Does [@start, @end] overlap the CALL of a MARK() site? Those are patched
 * at any time; the jumps are jump-label entries, which kprobes keeps off
 * already. Under RCU: an object is freed after a grace period.
 */
static bool mark_text_reserved(unsigned long start, unsigned long end,
			       const struct kprobe *kp)
{
	struct marker_callsite *call;
	struct marker_object *obj;
	unsigned long c;
	bool ret = false;

	rcu_read_lock();
	list_for_each_entry_rcu(obj, &marker_objects, list) {
		for (call = obj->calls; call < obj->calls + obj->ncalls && !ret; call++) {
			/* Freed init text may hold anything now. */
			if (READ_ONCE(call->gone))
				continue;
			c = (unsigned long)call->code;
			ret = c <= end && start < c + MARKER_CALL_SIZE;
		}
		if (ret)
			break;
	}
	rcu_read_unlock();
	return ret || mark_coming_reserved(start, end);
}

/* --- The mechanism of MARK() and guard sites -------------------------- */

/*
 * The last answer of mark_accepts(), by the text of the formats it was
 * for (an address may be another format's once a module is gone), under
 * marker_mutex: the copies of a site share their format, and a change asks
 * about each copy up to three times (adding the probe, reserving, arming).
 * Formats longer than its buffers are parsed each time.
 */
static struct {
	char fmt[64];
	char probe_fmt[64];
	bool any;		/* a probe that takes any format */
	bool valid, ok;
} mark_accepts_memo;

static bool mark_accepts(const struct marker_site *site,
			 const struct marker_probe *p)
{
	const char *fmt = marker_site_format(site);
	const char *pfmt = p->format ?: "";
	bool ok;

	lockdep_assert_held(&marker_mutex);
	if (mark_accepts_memo.valid && mark_accepts_memo.any == !p->format &&
	    !strcmp(mark_accepts_memo.fmt, fmt) &&
	    !strcmp(mark_accepts_memo.probe_fmt, pfmt))
		return mark_accepts_memo.ok;
	/*
	 * A site whose format vsnprintf() cannot print takes no probe at
	 * all: a generic probe would hand it to vsnprintf().
	 */
	ok = marker_parse_format(fmt, NULL, 0) >= 0 &&
	     (!p->format || marker_format_match(p->format, fmt));
	mark_accepts_memo.valid =
		strscpy(mark_accepts_memo.fmt, fmt, sizeof(mark_accepts_memo.fmt)) >= 0 &&
		strscpy(mark_accepts_memo.probe_fmt, pfmt,
			sizeof(mark_accepts_memo.probe_fmt)) >= 0;
	mark_accepts_memo.any = !p->format;
	mark_accepts_memo.ok = ok;
	return ok;
}

/* MARK_ENABLED() and SDT_ENABLED() guards take any probe. */
static bool mark_guard_accepts(const struct marker_site *site,
			       const struct marker_probe *p)
{
	return true;
}

static void mark_update(struct marker_entry *e, struct marker_probes *probes,
			struct marker_batch *b)
{
	mark_update_desc(e->obj, marker_site_desc(e->site),
			 e->site->kind == MARKER_KIND_GUARD, probes, b);
}

static bool mark_armed(const struct marker_entry *e)
{
	return rcu_access_pointer(marker_site_desc(e->site)->probes);
}

/*
 * A MARK() site's trace event takes its format, which must be printable,
 * and which every site of its name must share.
 */
static const char *mark_event_why(const char *first, const char *fmt)
{
	if (!first)
		return marker_parse_format(fmt, NULL, 0) < 0 ?
		       "format_not_printable" : NULL;
	return strcmp(first, fmt) ? "sites_disagree_on_format" : NULL;
}

static void mark_show(struct seq_file *m, const struct marker_entry *e)
{
	if (mark_armed(e))
		seq_puts(m, "armed");
	else
		seq_puts(m, e->mn->probes ? "mismatch" : "dormant");
}

/* The object and batch ops serve both kinds: they are in mark_ops only. */
static const struct marker_kind_ops mark_ops = {
	.name		= "mark",
	.client_hits	= true,
	.accepts	= mark_accepts,
	.update		= mark_update,
	.armed		= mark_armed,
	.event_why	= mark_event_why,
	.object_init	= mark_object_init,
	.object_add	= mark_object_add,
	.object_del	= mark_object_del,
	.object_free	= mark_object_free,
	.init_gone	= mark_init_gone,
	.after_patch	= mark_promote_prepare,
	.finish		= mark_promote_finish,
	.show		= mark_show,
	.text_reserved	= mark_text_reserved,
};

static const struct marker_kind_ops mark_guard_ops = {
	.name		= "guard",
	.accepts	= mark_guard_accepts,
	.update		= mark_update,
	.armed		= mark_armed,
	.show		= mark_show,
};

/* Before marker_init(): mark.o links before objects.o. */
static int __init mark_init(void)
{
	marker_register_kind(MARKER_KIND_MARK, &mark_ops);
	marker_register_kind(MARKER_KIND_GUARD, &mark_guard_ops);
	return 0;
}
early_initcall(mark_init);
