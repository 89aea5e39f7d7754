// SPDX-License-Identifier: GPL-2.0
/*
 * provider-example.c: a module built from a header that
 * scripts/markers/gen-provider generates from provider-example.provider.
 * Opening /proc/provider-example fires PROVIDER_EXAMPLE_OPEN(); reading it
 * fires PROVIDER_EXAMPLE_READ(), and PROVIDER_EXAMPLE_TICK() only when a
 * probe is attached to it (PROVIDER_EXAMPLE_TICK_ENABLED()).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/module.h>
#include <linux/proc_fs.h>

#include "provider-example.h"

static struct proc_dir_entry *pentry;

static int provider_example_open(struct inode *inode, struct file *file)
{
	PROVIDER_EXAMPLE_OPEN(file, file->f_flags);
	return 0;
}

static ssize_t provider_example_read(struct file *file, char __user *buf,
				     size_t count, loff_t *ppos)
{
	PROVIDER_EXAMPLE_READ(count, *ppos);
	if (PROVIDER_EXAMPLE_TICK_ENABLED())
		PROVIDER_EXAMPLE_TICK();
	return 0;
}

static const struct proc_ops provider_example_ops = {
	.proc_open = provider_example_open,
	.proc_read = provider_example_read,
	.proc_lseek = noop_llseek,
};

static int __init provider_example_init(void)
{
	pentry = proc_create("provider-example", 0444, NULL, &provider_example_ops);
	if (!pentry) {
		pr_err("cannot create /proc/provider-example\n");
		return -ENOMEM;
	}
	return 0;
}

static void __exit provider_example_exit(void)
{
	proc_remove(pentry);
}

module_init(provider_example_init);
module_exit(provider_example_exit);
MODULE_DESCRIPTION("Kernel markers example: SDT sites from a provider file");
MODULE_LICENSE("GPL");
