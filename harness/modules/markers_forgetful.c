// SPDX-License-Identifier: GPL-2.0
/*
 * markers_forgetful: a probe module whose exit forgets to detach, for the
 * integration tests of kernel markers. It attaches a MARK() probe to the
 * name in "mark" and an SDT probe to "provider":"name", counts their hits,
 * and unloads still attached: the registry must detach both when the
 * module goes, rather than leave the sites calling freed text.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/sdt.h>

static char *mark = "subsys_open";
module_param(mark, charp, 0444);
MODULE_PARM_DESC(mark, "marker name to attach to");

static char *provider = "sdt_example";
module_param(provider, charp, 0444);
MODULE_PARM_DESC(provider, "SDT provider to attach to");

static char *name = "read";
module_param(name, charp, 0444);
MODULE_PARM_DESC(name, "SDT name to attach to");

static atomic_t hits;

static void forgetful_probe(void *data, const char *fmt, va_list *args)
{
	atomic_inc(&hits);
}

static void forgetful_sdt_probe(void *data, const u64 *args, unsigned int n)
{
	atomic_inc(&hits);
}

static int __init forgetful_init(void)
{
	int ret;

	ret = marker_set_probe(mark, NULL, forgetful_probe, &hits);
	if (ret)
		return ret;
	ret = sdt_set_probe(provider, name, -1, forgetful_sdt_probe, &hits);
	if (ret)
		marker_disable_probe(mark, forgetful_probe, &hits);
	return ret;
}

/* The bug under test: no marker_disable_probe(), no sdt_disable_probe(). */
static void __exit forgetful_exit(void)
{
	pr_info("unloading after %d hits, probes still attached\n",
		atomic_read(&hits));
}

module_init(forgetful_init);
module_exit(forgetful_exit);
MODULE_DESCRIPTION("Kernel markers: a probe module that forgets to detach");
MODULE_LICENSE("GPL");
