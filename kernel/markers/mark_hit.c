// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: the hit side of MARK() sites.
 *
 * What the CALL of an armed MARK() site goes to when it does not go to
 * its name's one probe (mark.c patches it, and says when): the probes'
 * iterator, given the probes as the data the site loads, or the slow
 * path, which finds the site's descriptor by the CALL's address in a
 * table of every CALL; and what a site with more arguments than it stores
 * in place calls. All of it runs with preemption disabled, the RCU-sched
 * read side of the probes it reads.
 */

#include <linux/hashtable.h>
#include <linux/marker.h>
#include <linux/rcupdate.h>
#include <kunit/visibility.h>

#include "internal.h"

/* Every CALL, by its address, for __marker_slowpath(). */
#define MARK_CALL_HASH_BITS	10
static DEFINE_HASHTABLE(mark_call_table, MARK_CALL_HASH_BITS);

/**
 * mark_hash_calls - add an object's MARK() CALLs to the table, or remove them
 * @obj: the object, coming into the registry or leaving it
 * @add: true to add them, false to remove them
 *
 * Under marker_mutex (mark.c); the slow path reads the table under
 * RCU-sched, and a removed CALL's record lives until a grace period.
 */
void mark_hash_calls(struct marker_object *obj, bool add)
{
	unsigned int i;

	for (i = 0; i < obj->ncalls; i++) {
		if (add)
			hash_add_rcu(mark_call_table, &obj->calls[i].hnode,
				     (unsigned long)obj->calls[i].code);
		else
			hash_del_rcu(&obj->calls[i].hnode);
	}
}

/* The descriptor of the MARK() CALL at @code, or NULL; under RCU-sched. */
static notrace struct marker_desc *marker_call_desc_of(unsigned long code)
{
	struct marker_callsite *c;

	hash_for_each_possible_rcu_notrace(mark_call_table, c, hnode, code)
		if ((unsigned long)c->code == code)
			return c->desc;
	return NULL;
}

/* Call the probes of @desc, each with its own va_list. */
static notrace void mark_call_probes(struct marker_desc *desc,
				     const char *fmt, va_list *args)
{
	struct marker_probes *probes;

	/*
	 * Raw: preemption is disabled (the RCU read side of this pointer),
	 * and the lockdep check of rcu_dereference_sched() would double the
	 * cost of a hit (tracepoints use the raw form for the same reason).
	 */
	probes = rcu_dereference_raw(desc->probes);
	if (probes)
		__marker_iterate(probes, fmt, args);
}

/**
 * __marker_slowpath - call the probes of an armed site
 * @data: ignored: the data of the probe a direct site would call
 * @fmt: the site's format
 * @args: the site's arguments
 *
 * Called by MARK() from the out-of-line side of an armed site whose name
 * has no single probe, with preemption disabled; never directly. The site
 * is found by the address its CALL returns to.
 */
notrace void __marker_slowpath(void *data, const char *fmt, va_list *args)
{
	struct marker_desc *desc = marker_call_desc_of(_RET_IP_ - MARKER_CALL_SIZE);

	if (desc)
		mark_call_probes(desc, fmt, args);
}
EXPORT_SYMBOL_GPL(__marker_slowpath);

/**
 * __marker_iterate - call the probes of an armed site, given them
 * @data: the site's probes (struct marker_probes), which the site loaded
 * @fmt: the site's format
 * @args: the site's arguments
 *
 * What the CALLs of a name with several probes go to (see the top), with
 * preemption disabled; never called directly. No lookup: the probes come
 * as the data a direct site passes its probe.
 */
notrace void __marker_iterate(void *data, const char *fmt, va_list *args)
{
	const struct marker_probes *probes = data;
	const struct marker_probe *p = probes->probe, *last;
	/* va_copy() writes it whole before each use: no zeroing first. */
	va_list copy __uninitialized;

	if (unlikely(!probes->nr))
		return;
	/* Read once: the array cannot change, but the compiler cannot know. */
	last = p + probes->nr - 1;
	for (; p < last; p++) {
		va_copy(copy, *args);
		p->func(p->data, fmt, &copy);
		va_end(copy);
	}
	/* The last takes the site's own: nobody reads it after. */
	last->func(last->data, fmt, args);
}
EXPORT_SYMBOL_IF_KUNIT(__marker_iterate);

/**
 * __marker_call - call the probes of an armed site with many arguments
 * @desc: the site's descriptor
 * @fmt: the site's format
 *
 * Called by MARK() sites with more arguments than they store in place,
 * with preemption disabled; never directly. Always the slow path: the
 * registry patches no call of these.
 */
notrace void __marker_call(struct marker_desc *desc, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	mark_call_probes(desc, fmt, &args);
	va_end(args);
}
EXPORT_SYMBOL_GPL(__marker_call);

#ifdef CONFIG_LOCKDEP
/*
 * Sites in idle or early entry code: RCU would not wait for them. Checked
 * under lockdep, as tracepoints do.
 */
notrace void __marker_check_rcu(void)
{
	WARN_ONCE(!rcu_is_watching(), "marker site where RCU is not watching");
}
EXPORT_SYMBOL_GPL(__marker_check_rcu);
#endif
