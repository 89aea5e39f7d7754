// SPDX-License-Identifier: GPL-2.0
/*
 * markers_churn: a small module with MARK() and SDT sites, in its init
 * function and out of it, for a test that loads and unloads it a
 * thousand times with probes on its names, pending or armed, and under
 * fault injection.
 */

#include <linux/marker.h>
#include <linux/module.h>
#include <linux/sdt.h>

static int churn_value;

static noinline void churn_sites(int v)
{
	MARK(churn_mark, "value %d", v);
	/* Another format than markers_fixture's site of that name. */
	MARK(fixture_layout, "s %s", "churn");
	SDT_PROBE(churn, sdt, v);
	/*
	 * Names no test enables but guest/42-fault-injection's load by load
	 * part: their events are made anew at each load (an event once
	 * enabled stays when its sites go).
	 */
	MARK(fresh_mark, "value %d", v);
	SDT_PROBE(fresh, sdt, v);
	if (MARK_ENABLED(churn_guard))
		churn_value++;
}

static int __init churn_init(void)
{
	MARK(churn_init, "value %d", churn_value);
	SDT_PROBE(churn, init, churn_value);
	churn_sites(churn_value);
	return 0;
}

static void __exit churn_exit(void)
{
	churn_sites(churn_value);
}

module_init(churn_init);
module_exit(churn_exit);
MODULE_DESCRIPTION("Kernel markers: a module to load and unload");
MODULE_LICENSE("GPL");
