// SPDX-License-Identifier: GPL-2.0
/*
 * sdt-probe-example.c
 *
 * Attach a probe to SDT sites by provider and name and print each hit's
 * arguments with pr_info:
 *
 *	insmod sdt-probe-example.ko provider=sdt_example name=read nargs=5
 *
 * nargs=-1 (the default) accepts any site. A count that does not match the
 * site makes the load fail with the registration error (-EPERM).
 *
 * See Documentation/trace/markers.rst and sdt-example-c.c.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/module.h>
#include <linux/sdt.h>
#include <linux/sprintf.h>

static char *provider = "sdt_example";
module_param(provider, charp, 0444);
MODULE_PARM_DESC(provider, "SDT provider to attach to");

static char *name = "read";
module_param(name, charp, 0444);
MODULE_PARM_DESC(name, "SDT name to attach to");

static int nargs = -1;
module_param(nargs, int, 0444);
MODULE_PARM_DESC(nargs, "number of arguments expected, -1 for any");

static void sdt_probe_example(void *data, const u64 *args, unsigned int n)
{
	char buf[256];
	int len = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n; i++)
		len += scnprintf(buf + len, sizeof(buf) - len, " arg%u=%lld",
				 i, (long long)args[i]);
	pr_info("%s:%s%s\n", provider, name, buf);
}

static int __init sdt_probe_example_init(void)
{
	int ret;

	ret = sdt_set_probe(provider, name, nargs, sdt_probe_example, NULL);
	if (ret < 0) {
		pr_err("sdt_set_probe(%s:%s) failed: %pe\n", provider, name,
		       ERR_PTR(ret));
		return ret;
	}
	pr_info("probe attached to %s:%s\n", provider, name);
	return 0;
}

static void __exit sdt_probe_example_exit(void)
{
	sdt_disable_probe(provider, name, sdt_probe_example, NULL);
	pr_info("probe detached from %s:%s\n", provider, name);
}

module_init(sdt_probe_example_init);
module_exit(sdt_probe_example_exit);
MODULE_DESCRIPTION("Kernel markers example: a probe on SDT sites");
MODULE_LICENSE("GPL");
