// SPDX-License-Identifier: GPL-2.0
/*
 * sdt-example: SDT sites behind /proc/sdt-example.
 *
 * Reading the file fires, from C, sdt_example:read (the reader's pid and
 * comm, the count and position of the read, a negative int) and
 * sdt_example:types (one argument of each integer width, signed and not);
 * from inside an inline asm, sdt_example:in_asm; and, from the .S file
 * sdt-example-asm.S, sdt_example:from_asm.
 *
 * readelf -n sdt-example.ko lists them. See sdt-probe-example.c and
 * Documentation/trace/markers.rst.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/sdt.h>

#include "sdt-example.h"

/* The instruction of the asm block below: out = in + 1. */
#ifdef CONFIG_ARM64
#define SDT_EXAMPLE_ADD1	"add %[out], %[in], 1"
#else
#define SDT_EXAMPLE_ADD1	"lea 1(%[in]), %[out]"
#endif

static struct proc_dir_entry *pentry;
static int reads;

/* Not static: with all its callers known, GCC would fold the constants in. */
noinline void sdt_example_types(s8 a, u8 b, s16 c, u16 d, s32 e, u32 f,
				s64 g, u64 h)
{
	SDT_PROBE(sdt_example, types, a, b, c, d, e, f, g, h);
}

static ssize_t sdt_example_read(struct file *file, char __user *buf,
				size_t count, loff_t *ppos)
{
	long r;

	reads++;
	SDT_PROBE(sdt_example, read, current->pid, current->comm, count,
		  *ppos, -reads);
	sdt_example_types(-1, 255, -2, 65535, -3, 0xfffffffeU, -4, ~0ULL);

	/* A site inside an asm block, with the value the asm computed. */
	asm volatile(SDT_EXAMPLE_ADD1 "\n\t"
		     SDT_PROBE_ASM(sdt_example, in_asm, "-8@%[out] -4@%[__sdt_a1]")
		     : [out] "=&r" (r)
		     : [in] "r" ((long)reads), SDT_ASM_OPERANDS(reads));
	sdt_example_asm(r, 42);
	return 0;
}

static const struct proc_ops sdt_example_ops = {
	.proc_read = sdt_example_read,
	.proc_lseek = noop_llseek,
};

static int __init sdt_example_init(void)
{
	pentry = proc_create("sdt-example", 0444, NULL, &sdt_example_ops);
	if (!pentry) {
		pr_err("cannot create /proc/sdt-example\n");
		return -ENOMEM;
	}
	return 0;
}

static void __exit sdt_example_exit(void)
{
	proc_remove(pentry);
}

module_init(sdt_example_init);
module_exit(sdt_example_exit);
MODULE_DESCRIPTION("Kernel markers example: SDT sites behind /proc/sdt-example");
MODULE_LICENSE("GPL");
