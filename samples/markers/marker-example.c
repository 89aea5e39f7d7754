// SPDX-License-Identifier: GPL-2.0
/*
 * marker-example.c
 *
 * Markers behind /proc/marker-example: opening the file fires
 * subsys_open, subsys_loop (three times) and subsys_file; reading it fires
 * subsys_read and, when a probe is attached, subsys_expensive.
 *
 * Its pr_debug()s are marker sites too, with CONFIG_MARKERS_DYNDBG:
 * marker_example.marker_example_open and .marker_example_open.2, and
 * marker_example.marker_example_read.
 *
 * See Documentation/trace/markers.rst and probe-example.c.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/sprintf.h>

static struct proc_dir_entry *pentry;

static int marker_example_open(struct inode *inode, struct file *file)
{
	int i;

	MARK(subsys_open, "pid %d comm %s", current->pid, current->comm);
	for (i = 0; i < 3; i++)
		MARK(subsys_loop, "iteration %d of %u", i, 3U);
	MARK(subsys_file, "file %p flags %#x size %lld", file, file->f_flags,
	     (long long)i_size_read(inode));
	pr_debug("open pid %d comm %s\n", current->pid, current->comm);
	pr_debug("open flags %#x\n", file->f_flags);
	return 0;
}

static ssize_t marker_example_read(struct file *file, char __user *buf,
				   size_t count, loff_t *ppos)
{
	char desc[64];

	MARK(subsys_read, "count %zu pos %lld", count, *ppos);
	pr_debug("read count %zu pos %lld comm %s pid %d mode %u ino %llx file %p\n",
		 count, *ppos, current->comm, task_pid_nr(current),
		 file_inode(file)->i_mode, (u64)file_inode(file)->i_ino, file);
	/* Only worth computing when someone listens. */
	if (MARK_ENABLED(subsys_expensive)) {
		snprintf(desc, sizeof(desc), "%s/%d", current->comm,
			 task_pid_nr(current));
		MARK(subsys_expensive, "reader %s", desc);
	}
	return 0;
}

static const struct proc_ops marker_example_ops = {
	.proc_open = marker_example_open,
	.proc_read = marker_example_read,
	.proc_lseek = noop_llseek,
};

static int __init marker_example_init(void)
{
	pentry = proc_create("marker-example", 0444, NULL, &marker_example_ops);
	if (!pentry) {
		pr_err("cannot create /proc/marker-example\n");
		return -ENOMEM;
	}
	return 0;
}

static void __exit marker_example_exit(void)
{
	proc_remove(pentry);
}

module_init(marker_example_init);
module_exit(marker_example_exit);
MODULE_DESCRIPTION("Kernel markers example: sites behind /proc/marker-example");
MODULE_LICENSE("GPL");
