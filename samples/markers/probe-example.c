// SPDX-License-Identifier: GPL-2.0
/*
 * probe-example.c
 *
 * Attach a probe to a marker by name and print each hit with pr_info:
 *
 *	insmod probe-example.ko name=subsys_read format="count %zu pos %lld"
 *
 * format= (empty) accepts any site of that name. A format that does not
 * match the site makes the load fail with the registration error (-EPERM).
 *
 * See Documentation/trace/markers.rst and marker-example.c.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/sprintf.h>

static char *name = "subsys_open";
module_param(name, charp, 0444);
MODULE_PARM_DESC(name, "marker name to attach to");

static char *format = "pid %d comm %s";
module_param(format, charp, 0444);
MODULE_PARM_DESC(format, "format the probe expects; empty for any");

static void probe_example(void *probe_data, const char *fmt, va_list *args)
{
	struct va_format vaf = { .fmt = fmt, .va = args };

	pr_info("%s: %pV\n", name, &vaf);
}

static int __init probe_example_init(void)
{
	int ret;

	ret = marker_set_probe(name, *format ? format : NULL, probe_example,
			       NULL);
	if (ret < 0) {
		pr_err("marker_set_probe(%s) failed: %pe\n", name, ERR_PTR(ret));
		return ret;
	}
	pr_info("probe attached to %s\n", name);
	return 0;
}

static void __exit probe_example_exit(void)
{
	marker_disable_probe(name, probe_example, NULL);
	pr_info("probe detached from %s\n", name);
}

module_init(probe_example_init);
module_exit(probe_example_exit);
MODULE_DESCRIPTION("Kernel markers example: a probe attached by name");
MODULE_LICENSE("GPL");
