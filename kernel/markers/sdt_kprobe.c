// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: arming SDT sites with kprobes.
 *
 * The mechanism before the call trampoline, kept to compare and selected
 * with /sys/kernel/debug/markers/sdt_mechanism: a kprobe on the site's
 * NOP, which kprobes optimizes into a jump where it can. Its handler is
 * the trampoline's (sdt_hit()). A change's disarmed sites lose their
 * kprobes together, in sdt_reap(). See sdt.c.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/debugfs.h>
#include <linux/kprobes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <kunit/visibility.h>

#include "internal.h"
#include "sdt.h"

/*
 * How SDT sites are armed from now on (sdt_mechanism): a kprobe, or a
 * call where the arch has one (HAVE_ARCH_MARKERS_SDT_CALL).
 */
bool sdt_use_kprobes = !IS_ENABLED(CONFIG_HAVE_ARCH_MARKERS_SDT_CALL);
EXPORT_SYMBOL_IF_KUNIT(sdt_use_kprobes);

/* Else by a call: of a thunk where one can be made ("thunk"), or not. */
bool sdt_use_thunks = true;
EXPORT_SYMBOL_IF_KUNIT(sdt_use_thunks);

/*
 * Arm SDT sites with int3 kprobes only (a post_handler keeps kprobes from
 * optimizing them), for tests of that path.
 */
VISIBLE_IF_KUNIT bool sdt_int3_only;
EXPORT_SYMBOL_IF_KUNIT(sdt_int3_only);

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

/**
 * sdt_optimized - is a site's kprobe optimized into a jump?
 * @ss: the site
 *
 * kprobes wraps an optimized probe in an aggregate kprobe: ask the one
 * registered at the address.
 *
 * Return: true if it is.
 */
bool sdt_optimized(const struct sdt_site *ss)
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
 * sdt_kprobe_at - is a kprobe registered at an address, enabled or not?
 * @addr: the address
 *
 * Return: true if one is.
 */
bool sdt_kprobe_at(void *addr)
{
	bool ret;

	rcu_read_lock();
	ret = get_kprobe(addr);
	rcu_read_unlock();
	return ret;
}

/**
 * sdt_own_kprobe - is a kprobe the registry's, on an SDT site?
 * @kp: the kprobe
 *
 * Return: true if it is the kprobe of an SDT site armed with one.
 */
bool sdt_own_kprobe(const struct kprobe *kp)
{
	return kp->pre_handler == sdt_kprobe_pre;
}

/**
 * sdt_arm_kprobe - arm an SDT site with a kprobe
 * @ss: the site, its spec decoded
 *
 * Under marker_mutex. On failure the site keeps the error, shown in the
 * listing, and stays dormant.
 */
void sdt_arm_kprobe(struct sdt_site *ss)
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
 * sdt_unregister_kprobes - unregister the kprobes of disarmed sites
 * @list: the sites, in a change's batch
 * @n: how many of them are armed with a kprobe
 *
 * In one unregister_kprobes(), which waits for one grace period. An
 * optimized kprobe outlives its unregistering: kprobes' optimizer, a
 * delayed work, puts the int3 back and only then takes it out of the
 * table, so get_kprobe() still finds it meanwhile. Arming the site again
 * by a call right after (sdt_arm()) would see "a kprobe is on the site"
 * and refuse it with -EBUSY: wait for the optimizer, so that a disarmed
 * site leaves nothing behind.
 *
 * Called from sdt_reap(), without marker_mutex: the optimizer's work takes
 * text_mutex and cpus_read_lock(), which nest inside marker_mutex.
 */
void sdt_unregister_kprobes(struct list_head *list, unsigned int n)
{
	struct sdt_site *ss;
	struct kprobe **kps;

	lockdep_assert_not_held(&marker_mutex);
	kps = kmalloc_array(n, sizeof(*kps), GFP_KERNEL | __GFP_NOFAIL);
	n = 0;
	list_for_each_entry(ss, list, dead)
		if (ss->registered)
			kps[n++] = &ss->kp;
	unregister_kprobes(kps, n);
	kfree(kps);
	wait_for_kprobe_optimizer();
}

/* --- /sys/kernel/debug/markers/sdt_mechanism -------------------------- */

static ssize_t sdt_mechanism_read(struct file *file, char __user *ubuf,
				  size_t len, loff_t *ppos)
{
	const char *m = READ_ONCE(sdt_use_kprobes) ? "kprobe\n" :
			READ_ONCE(sdt_use_thunks) ? "thunk\n" : "call\n";

	return simple_read_from_buffer(ubuf, len, ppos, m, strlen(m));
}

/*
 * "thunk", "call" or "kprobe": how SDT sites are armed from now on (see
 * sdt.c); -EOPNOTSUPP for the first two where the arch has no call, and
 * for "call" where it has no trampoline. Sites armed already keep their
 * mechanism until disarmed, but for one: a thunk-armed site whose probes
 * change under "call" gets the trampoline, as a site armed then would.
 */
static ssize_t sdt_mechanism_write(struct file *file, const char __user *ubuf,
				   size_t len, loff_t *ppos)
{
	char buf[8] = "";

	if (len >= sizeof(buf) || copy_from_user(buf, ubuf, len))
		return -EINVAL;
	if (!IS_ENABLED(CONFIG_HAVE_ARCH_MARKERS_SDT_CALL) &&
	    !strcmp(strim(buf), "thunk")) {
		/* No call on this arch: kprobes arm every site. */
		return -EOPNOTSUPP;
	} else if (!IS_ENABLED(CONFIG_HAVE_ARCH_MARKERS_SDT_TRAMPOLINE) &&
		   !strcmp(strim(buf), "call")) {
		/* No trampoline: thunks or kprobes. */
		return -EOPNOTSUPP;
	} else if (!strcmp(strim(buf), "thunk")) {
		WRITE_ONCE(sdt_use_kprobes, false);
		WRITE_ONCE(sdt_use_thunks, true);
	} else if (!strcmp(strim(buf), "call")) {
		WRITE_ONCE(sdt_use_kprobes, false);
		WRITE_ONCE(sdt_use_thunks, false);
	} else if (!strcmp(strim(buf), "kprobe")) {
		WRITE_ONCE(sdt_use_kprobes, true);
	} else {
		return -EINVAL;
	}
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
