// SPDX-License-Identifier: GPL-2.0
/*
 * markers_kprobe_coming: a kprobe on the CALL of the first MARK() site of
 * a module as it comes, for the integration tests. Its module notifier
 * runs before the registry's, which has not indexed the module yet: the
 * kprobe must be refused all the same, since arming the site would write
 * its CALL over the kprobe's int3 and leave the kprobe a stale copy.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/marker-defs.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/string.h>

static char *target = "markers_fixture";
module_param(target, charp, 0444);
MODULE_PARM_DESC(target, "the module whose first MARK() CALL to probe as it comes");

static struct kprobe coming_kp;
static bool coming_registered;

static int coming_pre(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

static int coming_notify(struct notifier_block *nb, unsigned long val,
			 void *data)
{
	struct module *mod = data;
	int ret;

	if (strcmp(mod->name, target))
		return NOTIFY_DONE;
	if (val == MODULE_STATE_COMING && mod->num_marker_calls &&
	    !coming_registered) {
		memset(&coming_kp, 0, sizeof(coming_kp));
		coming_kp.addr = marker_call_code(&mod->marker_calls[0]);
		coming_kp.pre_handler = coming_pre;
		ret = register_kprobe(&coming_kp);
		coming_registered = !ret;
		pr_info("kprobe on the CALL of %pS as %s comes: %d\n",
			coming_kp.addr, mod->name, ret);
	} else if (val == MODULE_STATE_GOING && coming_registered) {
		unregister_kprobe(&coming_kp);
		coming_registered = false;
	}
	return NOTIFY_DONE;
}

static struct notifier_block coming_nb = {
	.notifier_call = coming_notify,
	/* Before jump_label's (1) and the markers registry's (0). */
	.priority = 2,
};

static int __init coming_init(void)
{
	return register_module_notifier(&coming_nb);
}
module_init(coming_init);

static void __exit coming_exit(void)
{
	unregister_module_notifier(&coming_nb);
	if (coming_registered)
		unregister_kprobe(&coming_kp);
}
module_exit(coming_exit);

MODULE_DESCRIPTION("A kprobe on a MARK() CALL of a coming module");
MODULE_LICENSE("GPL");
