// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: raw BPF programs attached by marker name.
 *
 * BPF_RAW_TRACEPOINT_OPEN with a name that is no tracepoint's comes here
 * (bpf_raw_tp_link_attach()): a marker name, or an SDT "provider:name"; in
 * 6.12 BPF_LINK_CREATE names none. The program is a probe of the name,
 * through the registry, and gets the site's arguments as a raw tracepoint
 * program gets its tracepoint's: u64 values, in order, with no trace
 * record built. A MARK() argument is widened as its conversion says (%d
 * sign-extended, %u and %x zero-extended, %s and %p the pointer); an SDT
 * argument is already 64 bits, sign- or zero-extended by its N@.
 *
 * The arguments a program may read are those of the name's sites when it
 * is attached (the format of its MARK() sites, the spec of its first SDT
 * site; the name's trace event has the same): a program that reads past
 * them is refused with -EINVAL, as bpf_probe_register() refuses one that
 * reads past a tracepoint's. The probe is attached with that format (or
 * argument count), so a site of the name that a module brings later with
 * other arguments stays dormant (the listing says "mismatch") and the
 * program never reads what is not there.
 *
 * The link is a BPF_LINK_TYPE_RAW_TRACEPOINT link with operations of its
 * own: closing it detaches the probe (and returns once no CPU runs it).
 * It outlives the name's sites: a module that has them may go and come
 * back, and the program runs again on the new sites, as any probe would.
 * bpf_task_fd_query() does not know these links (-ENOTSUPP).
 *
 * A tracepoint of the same name is found first: a marker name that is
 * also a tracepoint's cannot be attached to this way (use its trace
 * event).
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/sdt-decode.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/uaccess.h>

#include "format.h"
#include "internal.h"

/* The most arguments a raw BPF program takes, as bpf_trace_run12(). */
#define MARKER_BPF_MAX_ARGS	12

/* How a MARK() argument becomes a u64. */
enum marker_bpf_kind {
	MARKER_BPF_S32,		/* an int: sign-extended */
	MARKER_BPF_U32,		/* an unsigned int: zero-extended */
	MARKER_BPF_64,		/* 8 bytes: a long, a pointer, a string */
};

struct marker_bpf_link {
	struct bpf_raw_tp_link raw;	/* its btp is NULL */
	void *probe;			/* the probe function attached */
	unsigned int nargs;
	u8 kind[MARKER_BPF_MAX_ARGS];	/* of a MARK() name's arguments */
	char key[];
};

static __always_inline u64 marker_bpf_arg(va_list *args, u8 kind)
{
	switch (kind) {
	case MARKER_BPF_S32:
		return (s64)va_arg(*args, int);
	case MARKER_BPF_U32:
		return va_arg(*args, unsigned int);
	default:
		return va_arg(*args, u64);
	}
}

/*
 * One probe per argument count, so that each reads its arguments in
 * order into registers and calls bpf_trace_runN() as a tracepoint's
 * __bpf_trace_*() does, with no loop on the hot path. A MARK() site's
 * probe reads its va_list, by the kind of each argument; an SDT site's
 * passes its u64 array on.
 */
#define MARKER_BPF_SDT_PROBE(n, call_args...)				\
static void marker_bpf_sdt_probe##n(void *data, const u64 *a,		\
				    unsigned int nargs)			\
{									\
	struct marker_bpf_link *ml = data;				\
									\
	bpf_trace_run##n(&ml->raw, call_args);				\
}

#define MARKER_BPF_PROBES(n, call_args...)				\
static void marker_bpf_mark_probe##n(void *data, const char *fmt,	\
				     va_list *args)			\
{									\
	struct marker_bpf_link *ml = data;				\
	u64 a[n] __uninitialized;					\
	unsigned int i;							\
									\
	for (i = 0; i < n; i++)						\
		a[i] = marker_bpf_arg(args, ml->kind[i]);		\
	bpf_trace_run##n(&ml->raw, call_args);				\
}									\
MARKER_BPF_SDT_PROBE(n, call_args)

/*
 * One argument, the common case, gets a MARK() probe per kind: with no
 * kind to look up, reading it costs little more than a tracepoint's
 * __bpf_trace_*() does.
 */
#define MARKER_BPF_PROBE1(name, kind)					\
static void marker_bpf_mark_probe1_##name(void *data, const char *fmt,	\
					  va_list *args)		\
{									\
	struct marker_bpf_link *ml = data;				\
									\
	bpf_trace_run1(&ml->raw, marker_bpf_arg(args, kind));		\
}

MARKER_BPF_PROBE1(s32, MARKER_BPF_S32)
MARKER_BPF_PROBE1(u32, MARKER_BPF_U32)
MARKER_BPF_PROBE1(64, MARKER_BPF_64)
MARKER_BPF_SDT_PROBE(1, a[0])
MARKER_BPF_PROBES(2, a[0], a[1])
MARKER_BPF_PROBES(3, a[0], a[1], a[2])
MARKER_BPF_PROBES(4, a[0], a[1], a[2], a[3])
MARKER_BPF_PROBES(5, a[0], a[1], a[2], a[3], a[4])
MARKER_BPF_PROBES(6, a[0], a[1], a[2], a[3], a[4], a[5])
MARKER_BPF_PROBES(7, a[0], a[1], a[2], a[3], a[4], a[5], a[6])
MARKER_BPF_PROBES(8, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7])
MARKER_BPF_PROBES(9, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8])
MARKER_BPF_PROBES(10, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8],
		  a[9])
MARKER_BPF_PROBES(11, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8],
		  a[9], a[10])
MARKER_BPF_PROBES(12, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8],
		  a[9], a[10], a[11])

static marker_probe_func * const marker_bpf_mark_probes1[] = {
	[MARKER_BPF_S32] = marker_bpf_mark_probe1_s32,
	[MARKER_BPF_U32] = marker_bpf_mark_probe1_u32,
	[MARKER_BPF_64] = marker_bpf_mark_probe1_64,
};

/* A site with no argument: the program's context is one u64, zero. */
static void marker_bpf_mark_probe0(void *data, const char *fmt, va_list *args)
{
	struct marker_bpf_link *ml = data;

	bpf_trace_run1(&ml->raw, 0);
}

static void marker_bpf_sdt_probe0(void *data, const u64 *a, unsigned int nargs)
{
	struct marker_bpf_link *ml = data;

	bpf_trace_run1(&ml->raw, 0);
}

static marker_probe_func * const marker_bpf_mark_probes[] = {
	marker_bpf_mark_probe0, NULL,	/* marker_bpf_mark_probes1[] */
	marker_bpf_mark_probe2, marker_bpf_mark_probe3,
	marker_bpf_mark_probe4, marker_bpf_mark_probe5,
	marker_bpf_mark_probe6, marker_bpf_mark_probe7,
	marker_bpf_mark_probe8, marker_bpf_mark_probe9,
	marker_bpf_mark_probe10, marker_bpf_mark_probe11,
	marker_bpf_mark_probe12,
};

static sdt_probe_func * const marker_bpf_sdt_probes[] = {
	marker_bpf_sdt_probe0, marker_bpf_sdt_probe1,
	marker_bpf_sdt_probe2, marker_bpf_sdt_probe3,
	marker_bpf_sdt_probe4, marker_bpf_sdt_probe5,
	marker_bpf_sdt_probe6, marker_bpf_sdt_probe7,
	marker_bpf_sdt_probe8, marker_bpf_sdt_probe9,
	marker_bpf_sdt_probe10, marker_bpf_sdt_probe11,
	marker_bpf_sdt_probe12,
};

/* --- The link --------------------------------------------------------- */

static struct marker_bpf_link *marker_bpf_link(const struct bpf_link *link)
{
	return container_of(link, struct marker_bpf_link, raw.link);
}

static void marker_bpf_link_release(struct bpf_link *link)
{
	struct marker_bpf_link *ml = marker_bpf_link(link);

	/* Does not fail for an attached probe; returns once none runs it. */
	WARN_ON_ONCE(marker_remove_probe(ml->key, ml->probe, ml));
}

static void marker_bpf_link_dealloc(struct bpf_link *link)
{
	kfree(marker_bpf_link(link));
}

static void marker_bpf_link_show_fdinfo(const struct bpf_link *link,
					struct seq_file *seq)
{
	seq_printf(seq, "tp_name:\t%s\n", marker_bpf_link(link)->key);
}

/* As bpf_raw_tp_link_fill_link_info(): the name, cut short with -ENOSPC. */
static int marker_bpf_link_fill_link_info(const struct bpf_link *link,
					  struct bpf_link_info *info)
{
	const char *key = marker_bpf_link(link)->key;
	char __user *ubuf = u64_to_user_ptr(info->raw_tracepoint.tp_name);
	u32 ulen = info->raw_tracepoint.tp_name_len;
	size_t len = strlen(key);

	if (!ulen ^ !ubuf)
		return -EINVAL;
	info->raw_tracepoint.tp_name_len = len + 1;
	if (!ubuf)
		return 0;
	if (ulen >= len + 1)
		return copy_to_user(ubuf, key, len + 1) ? -EFAULT : 0;
	if (copy_to_user(ubuf, key, ulen - 1) || put_user('\0', ubuf + ulen - 1))
		return -EFAULT;
	return -ENOSPC;
}

static const struct bpf_link_ops marker_bpf_link_lops = {
	.release = marker_bpf_link_release,
	.dealloc_deferred = marker_bpf_link_dealloc,
	.show_fdinfo = marker_bpf_link_show_fdinfo,
	.fill_link_info = marker_bpf_link_fill_link_info,
};

/* --- Attaching -------------------------------------------------------- */

/*
 * The kinds of the arguments of MARK() format @fmt into @ml.
 * Return: 0, or -E2BIG for more than MARKER_BPF_MAX_ARGS of them.
 */
static int marker_bpf_mark_kinds(struct marker_bpf_link *ml, const char *fmt)
{
	struct marker_conv c;
	unsigned int n = 0, i;
	int ret;

	while ((ret = marker_format_next(&fmt, &c)) > 0) {
		if (n + c.nstars + 1 > MARKER_BPF_MAX_ARGS)
			return -E2BIG;
		for (i = 0; i < c.nstars; i++)
			ml->kind[n++] = MARKER_BPF_S32;
		if (c.cls != MARKER_ARG_INT)
			ml->kind[n++] = MARKER_BPF_64;
		else
			ml->kind[n++] = c.is_signed ? MARKER_BPF_S32 :
						      MARKER_BPF_U32;
	}
	ml->nargs = n;
	/* The sites' format was parsed when they were indexed. */
	return WARN_ON_ONCE(ret < 0) ? ret : 0;
}

/*
 * Fill @np, @ml's probe, from what @key's sites take now; @fmt gets a copy
 * of their format, for the registry to check later sites against.
 */
static int marker_bpf_prepare(struct marker_bpf_link *ml,
			      struct marker_probe *np, char **fmt)
{
	int n;

	*fmt = marker_key_event_format(ml->key);
	if (IS_ERR(*fmt)) {
		n = PTR_ERR(*fmt);
		*fmt = NULL;
		return n;
	}
	if (marker_key_is_sdt(ml->key)) {
		n = sdt_spec_nargs(*fmt);
		if (n > MARKER_BPF_MAX_ARGS)
			return -E2BIG;
		ml->nargs = n;
		np->nargs = n;
		return 0;
	}
	np->format = *fmt;
	np->nargs = -1;
	return marker_bpf_mark_kinds(ml, *fmt);
}

/**
 * marker_bpf_attach - attach a raw BPF program to a marker name
 * @prog: a BPF_PROG_TYPE_RAW_TRACEPOINT program
 * @key: a marker name, or an SDT "provider:name"
 * @cookie: the link's BPF cookie (bpf_get_attach_cookie())
 *
 * For bpf_raw_tp_link_attach(), when @key names no tracepoint: make a
 * link that runs @prog at every hit of @key's sites, now and in modules
 * loaded later, until it is closed. See the top of this file.
 *
 * Return: the link's file descriptor; -ENOENT when @prog is of another
 * type or @key has no site with arguments (no MARK() or SDT site by that
 * name, or only MARK_ENABLED() guards); -EPERM when its sites disagree on
 * their arguments or cannot be printed (the listing says why), or
 * another probe of @key expects other arguments; -E2BIG when they are
 * more than 12; -EINVAL when @prog reads past them or writes its
 * context; -ENOMEM, or what allocating the link's file returned. Nothing
 * changes on error.
 */
int marker_bpf_attach(struct bpf_prog *prog, const char *key, u64 cookie)
{
	struct bpf_link_primer primer;
	struct marker_probe np = {};
	struct marker_bpf_link *ml;
	size_t len = strlen(key) + 1;
	char *fmt = NULL;
	int ret;

	if (prog->type != BPF_PROG_TYPE_RAW_TRACEPOINT || len > MARKER_KEY_MAX + 1)
		return -ENOENT;
	ml = kzalloc(struct_size(ml, key, len), GFP_USER);
	if (!ml)
		return -ENOMEM;
	memcpy(ml->key, key, len);
	ret = marker_bpf_prepare(ml, &np, &fmt);
	if (ret)
		goto out_free;
	ret = -EINVAL;
	if (prog->aux->max_ctx_offset > ml->nargs * sizeof(u64) ||
	    prog->aux->max_tp_access)
		goto out_free;
	if (np.format) {
		ml->probe = ml->nargs == 1 ? marker_bpf_mark_probes1[ml->kind[0]] :
					     marker_bpf_mark_probes[ml->nargs];
		np.func = ml->probe;
	} else {
		ml->probe = marker_bpf_sdt_probes[ml->nargs];
		np.sdt_func = ml->probe;
	}
	np.data = ml;

	bpf_link_init(&ml->raw.link, BPF_LINK_TYPE_RAW_TRACEPOINT,
		      &marker_bpf_link_lops, prog);
	ml->raw.cookie = cookie;
	ret = bpf_link_prime(&ml->raw.link, &primer);
	if (ret)
		goto out_free;
	ret = marker_add_probe(ml->key, &np);
	kfree(fmt);
	if (ret) {
		/* Frees @ml, without releasing it: no probe to detach. */
		bpf_link_cleanup(&primer);
		return ret;
	}
	return bpf_link_settle(&primer);

out_free:
	kfree(fmt);
	kfree(ml);
	return ret;
}
