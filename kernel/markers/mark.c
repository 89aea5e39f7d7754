// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: MARK() and guard sites, armed and hit.
 *
 * A MARK() expansion (<linux/marker.h>) is a jump label per copy of its
 * site and one struct marker_desc shared by the copies. Arming points the
 * descriptor at the key's probe array and enables its static key, which
 * patches every copy from NOP to a jump to the out-of-line call of
 * __marker_call(); that calls the probes. MARK_ENABLED() and SDT_ENABLED()
 * guards are the same jump label with no call behind it.
 */

#include <linux/jump_label.h>
#include <linux/marker.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>

#include "internal.h"

/**
 * mark_update_desc - point a MARK() or guard expansion at probes
 * @desc: the expansion's descriptor, shared by the copies of its site
 * @probes: the probes to call, or NULL for none
 *
 * Publish @probes to the expansion's sites and set their static key to
 * match: enabled with probes, a NOP again without. Called by the registry
 * under marker_mutex; the caller waits for a grace period before freeing
 * an array it unpublished.
 */
void mark_update_desc(struct marker_desc *desc, struct marker_probes *probes)
{
	struct marker_probes *cur;

	cur = rcu_dereference_protected(desc->probes,
					lockdep_is_held(&marker_mutex));
	if (cur == probes)
		return;
	if (probes) {
		rcu_assign_pointer(desc->probes, probes);
		static_branch_enable(&desc->key);
	} else {
		static_branch_disable(&desc->key);
		RCU_INIT_POINTER(desc->probes, NULL);
	}
}

/**
 * __marker_call - call the probes of an armed site
 * @desc: the site's descriptor
 * @fmt: the site's format
 *
 * Called by MARK() from the out-of-line side of an enabled site, never
 * directly. Each probe gets its own va_list of the site's arguments.
 */
notrace void __marker_call(struct marker_desc *desc, const char *fmt, ...)
{
	struct marker_probes *probes;
	unsigned int i;
	va_list args;

	/*
	 * Sites in idle or early entry code: RCU would not wait for them.
	 * Checked under lockdep, as tracepoints do.
	 */
	if (IS_ENABLED(CONFIG_LOCKDEP) &&
	    WARN_ONCE(!rcu_is_watching(), "marker site where RCU is not watching"))
		return;

	preempt_disable_notrace();
	/*
	 * Raw: preemption is disabled (the RCU read side of this pointer),
	 * and the lockdep check of rcu_dereference_sched() would double the
	 * cost of a hit (tracepoints use the raw form for the same reason).
	 */
	probes = rcu_dereference_raw(desc->probes);
	if (probes) {
		/* Approximate under concurrent hits; no atomic on the hit path. */
		WRITE_ONCE(desc->hits, READ_ONCE(desc->hits) + 1);
		for (i = 0; i < probes->nr; i++) {
			va_start(args, fmt);
			probes->probe[i].func(probes->probe[i].data, fmt, &args);
			va_end(args);
		}
	}
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(__marker_call);
