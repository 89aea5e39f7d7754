// SPDX-License-Identifier: GPL-2.0
/*
 * markers_delay: while loaded, a change of the registry that queued
 * promotions (a MARK() name left with one of two probes) sleeps for
 * delay_ms between its grace period and the promotions, so that the
 * promotion-race guest test can unload the module with the sites in
 * that window; its parameter "cancelled" counts the promotions that a
 * module going in the window cancelled.
 */

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sysfs.h>

#include "internal.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static unsigned int delay_ms = 2000;
module_param(delay_ms, uint, 0444);
MODULE_PARM_DESC(delay_ms, "how long a change waits before its promotions");

static int cancelled_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(mark_promotions_cancelled));
}

static const struct kernel_param_ops cancelled_ops = {
	.get = cancelled_get,
};

module_param_cb(cancelled, &cancelled_ops, NULL, 0444);
MODULE_PARM_DESC(cancelled, "promotions cancelled by a module going in the window");

static int __init delay_init(void)
{
	WRITE_ONCE(mark_promote_delay_ms, delay_ms);
	return 0;
}

static void __exit delay_exit(void)
{
	WRITE_ONCE(mark_promote_delay_ms, 0);
}

module_init(delay_init);
module_exit(delay_exit);
MODULE_DESCRIPTION("Kernel markers: widen a window for a guest test");
MODULE_LICENSE("GPL");
