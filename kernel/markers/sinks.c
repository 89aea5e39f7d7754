// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: the built-in probes of the control file.
 *
 * Attached by control.c with a struct marker_builtin as their data:
 * "printk" writes a rate-limited pr_info() (10 lines per 5 seconds). A
 * MARK() hit is formatted with the site's own format, "name: ...", an SDT
 * hit as "provider:name arg0=... arg1=...", in decimal, but for kernel
 * pointers, hashed. The "trace" sink is no probe of its own: it enables
 * the name's trace event (kernel/trace/trace_markers.c), which records
 * binary fields and formats them when the trace is read.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>
#include <linux/seq_buf.h>

#include "control.h"

/* The longest line a built-in probe writes. */
#define MARKER_HIT_TEXT		256

static DEFINE_RATELIMIT_STATE(marker_printk_rs, 5 * HZ, 10);

/* A MARK() hit as text, "name: formatted", into @s. */
static void marker_hit_text(struct seq_buf *s, const char *key,
			    const char *fmt, va_list *args)
{
	struct va_format vaf = { .fmt = fmt, .va = args };

	seq_buf_printf(s, "%s: %pV", key, &vaf);
}

/*
 * Does @v point into the kernel: its image, the direct map, vmalloc or
 * module space? An SDT argument has no type; one that does is printed as
 * a pointer, hashed as %p hashes them (unless booted with
 * no_hash_pointers), like any address printk gives to dmesg readers.
 * Small negative numbers are none of those.
 */
static bool sdt_arg_is_kernel_pointer(u64 v)
{
	void *p = (void *)(unsigned long)v;

	return virt_addr_valid(p) || is_vmalloc_or_module_addr(p);
}

/* An SDT hit as text, "provider:name arg0=... arg1=...", into @s. */
static void sdt_hit_text(struct seq_buf *s, const char *key,
			 const u64 *args, unsigned int nargs)
{
	unsigned int i;

	seq_buf_puts(s, key);
	for (i = 0; i < nargs; i++) {
		if (sdt_arg_is_kernel_pointer(args[i]))
			seq_buf_printf(s, " arg%u=%p", i,
				       (void *)(unsigned long)args[i]);
		else
			seq_buf_printf(s, " arg%u=%lld", i, (long long)args[i]);
	}
}

static void marker_printk_probe(void *data, const char *fmt, va_list *args)
{
	struct marker_builtin *b = data;
	DECLARE_SEQ_BUF(s, MARKER_HIT_TEXT);

	this_cpu_inc(*b->hits);
	if (!__ratelimit(&marker_printk_rs))
		return;
	marker_hit_text(&s, b->key, fmt, args);
	pr_info("%s\n", seq_buf_str(&s));
}

static void sdt_printk_probe(void *data, const u64 *args, unsigned int nargs)
{
	struct marker_builtin *b = data;
	DECLARE_SEQ_BUF(s, MARKER_HIT_TEXT);

	this_cpu_inc(*b->hits);
	if (!__ratelimit(&marker_printk_rs))
		return;
	sdt_hit_text(&s, b->key, args, nargs);
	pr_info("%s\n", seq_buf_str(&s));
}

/* See control.h. */
const void *marker_builtin_func(bool sdt, enum marker_sink sink)
{
	if (sink != MARKER_SINK_PRINTK)
		return NULL;	/* "trace" is the name's trace event */
	return sdt ? (void *)sdt_printk_probe : (void *)marker_printk_probe;
}
