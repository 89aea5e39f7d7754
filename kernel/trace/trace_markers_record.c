// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: a marker event's hit path.
 *
 * An enabled event's probe (attached by trace_markers.c) writes each hit as a
 * binary record, through ftrace's reserve and commit in every instance
 * where the event is enabled, and through perf (and so BPF) when perf
 * uses it. Nothing is formatted here (trace_markers_format.c reads records).
 */

#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/rculist.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/uaccess.h>

#include "../markers/internal.h"
#include "trace_markers.h"

/*
 * What a hit records besides a MARK() site's va_list: an SDT site's
 * values, and the strings. On the stack of every hit, and not zeroed
 * there (__uninitialized: with INIT_STACK_ALL_ZERO, clearing its 600
 * bytes would cost more than the rest of the hit): only the entries of
 * the event's fields are read, each written first.
 */
struct marker_event_hit {
	u64 val[MARKER_MAX_ARGS];
	const char *str[MARKER_MAX_ARGS];
	u16 len[MARKER_MAX_ARGS];	/* of a string, its NUL included */
	unsigned int dsize;		/* all the strings */
};

/* One argument of a MARK() site, as its field's class says. */
static __always_inline u64 marker_event_va_arg(const struct marker_event_field *f,
					       va_list *ap)
{
	switch (f->cls) {
	case MARKER_ARG_INT:
		return va_arg(*ap, int);
	case MARKER_ARG_LONG:
		return va_arg(*ap, long);
	default:	/* %p, and %s (whose string goes after the fields) */
		return (unsigned long)va_arg(*ap, const void *);
	}
}

/* Fixed field @f of a record at @rec: @v, stored at its size. */
static __always_inline void marker_event_put(const struct marker_event_field *f,
					     void *rec, u64 v)
{
	void *p = rec + f->offset;

	switch (f->size) {
	case 1:
		*(u8 *)p = v;
		break;
	case 2:
		*(u16 *)p = v;
		break;
	case 4:
		*(u32 *)p = v;
		break;
	default:
		*(u64 *)p = v;
		break;
	}
}

/* Write a record at @rec from @hit: the fixed fields, then the strings. */
static void marker_event_fill(const struct marker_event *ev, void *rec,
			      const struct marker_event_hit *hit)
{
	unsigned int i, doff = ev->fixed_size;

	for (i = 0; i < ev->nfields; i++) {
		const struct marker_event_field *f = &ev->field[i];

		if (f->cls != MARKER_ARG_STR) {
			marker_event_put(f, rec, hit->val[i]);
			continue;
		}
		/* A __data_loc: length in the high half, offset low. */
		*(u32 *)(rec + f->offset) = (u32)hit->len[i] << 16 | doff;
		/*
		 * Read again, without faulting: the string may have changed
		 * since it was measured. Whatever it holds, the field keeps
		 * its length, NUL-terminated.
		 */
		if (strncpy_from_kernel_nofault(rec + doff, hit->str[i],
						hit->len[i]) < 0)
			((char *)rec)[doff] = '\0';
		((char *)rec)[doff + hit->len[i] - 1] = '\0';
		doff += hit->len[i];
	}
}

/*
 * Record @hit in every instance where the event is enabled, and for perf.
 * Called as a probe, preemption disabled: the registry's grace period
 * covers the links (freed with kfree_rcu()).
 */
static void marker_event_record(struct marker_event *ev,
				const struct marker_event_hit *hit)
{
	struct trace_event_call *call = &ev->call;
	unsigned int size = ev->fixed_size + hit->dsize;
	struct marker_event_link *link;
	struct trace_event_buffer fbuffer;
	void *rec;

	this_cpu_inc(*ev->hits);
	list_for_each_entry_rcu(link, &ev->files, node, true) {
		if (trace_trigger_soft_disabled(link->file))
			continue;
		rec = trace_event_buffer_reserve(&fbuffer, link->file, size);
		if (!rec)
			continue;
		marker_event_fill(ev, rec, hit);
		trace_event_buffer_commit(&fbuffer);
	}
#ifdef CONFIG_PERF_EVENTS
	if (READ_ONCE(ev->perf_users)) {
		struct hlist_head *head = this_cpu_ptr(call->perf_events);
		struct pt_regs *regs;
		int rctx;

		if (!bpf_prog_array_valid(call) && hlist_empty(head))
			return;
		size = ALIGN(size + sizeof(u32), sizeof(u64)) - sizeof(u32);
		rec = perf_trace_buf_alloc(size, &regs, &rctx);
		if (!rec)
			return;
		perf_fetch_caller_regs(regs);
		marker_event_fill(ev, rec, hit);
		perf_trace_run_bpf_submit(rec, size, rctx, call, 1, regs, head,
					  NULL);
	}
#endif
}

/*
 * The common case of a MARK() event: no string, enabled in one instance,
 * not for perf. The site's arguments go from its va_list straight into
 * the record, read once.
 */
static __always_inline void marker_event_record_va(struct marker_event *ev,
						   struct trace_event_file *file,
						   va_list *args)
{
	struct trace_event_buffer fbuffer;
	unsigned int i;
	void *rec;

	this_cpu_inc(*ev->hits);
	if (trace_trigger_soft_disabled(file))
		return;
	rec = trace_event_buffer_reserve(&fbuffer, file, ev->fixed_size);
	if (!rec)
		return;
	for (i = 0; i < ev->nfields; i++)
		marker_event_put(&ev->field[i], rec,
				 marker_event_va_arg(&ev->field[i], args));
	trace_event_buffer_commit(&fbuffer);
}

#ifdef CONFIG_PERF_EVENTS
/*
 * The common case under perf and BPF: no string, enabled for perf alone.
 * The site's arguments go from its va_list straight into perf's record,
 * read once, as a TRACE_EVENT's perf_trace_<call>() writes its own. Out
 * of line: inlined, its registers would cost the ftrace case a push and
 * pop each.
 */
static noinline void marker_event_perf_va(struct marker_event *ev,
					  va_list *args)
{
	struct trace_event_call *call = &ev->call;
	struct hlist_head *head;
	struct pt_regs *regs;
	unsigned int i, size;
	void *rec;
	int rctx;

	this_cpu_inc(*ev->hits);
	head = this_cpu_ptr(call->perf_events);
	if (!bpf_prog_array_valid(call) && hlist_empty(head))
		return;
	size = ALIGN(ev->fixed_size + sizeof(u32), sizeof(u64)) - sizeof(u32);
	rec = perf_trace_buf_alloc(size, &regs, &rctx);
	if (!rec)
		return;
	perf_fetch_caller_regs(regs);
	for (i = 0; i < ev->nfields; i++)
		marker_event_put(&ev->field[i], rec,
				 marker_event_va_arg(&ev->field[i], args));
	perf_trace_run_bpf_submit(rec, size, rctx, call, 1, regs, head, NULL);
}
#endif

/*
 * The length of string @s, at most @max, read without faulting: -EFAULT
 * where it cannot be read. Page by page, so that a string that ends
 * before an unmapped page is read whole.
 */
static long marker_strnlen_nofault(const char *s, long max)
{
	char buf[32];
	const char *nul;
	long n = 0, chunk;

	while (n < max) {
		chunk = min3((long)sizeof(buf), max - n,
			     (long)(PAGE_SIZE - offset_in_page(s + n)));
		if (copy_from_kernel_nofault(buf, s + n, chunk))
			return -EFAULT;
		nul = memchr(buf, '\0', chunk);
		if (nul)
			return n + (nul - buf);
		n += chunk;
	}
	return max;
}

/*
 * Note string @i of @hit, as vsnprintf() would print it: "(null)" for
 * NULL, "(efault)" for a pointer it cannot read. Cut at
 * MARKER_EVENT_STR_MAX, and at MARKER_EVENT_DATA_MAX for all: the
 * strings past that are empty (one byte each, so @hit->dsize may pass
 * the cap by a byte per string, never more).
 */
static void marker_event_str(struct marker_event_hit *hit, unsigned int i,
			     const char *s)
{
	unsigned int room = hit->dsize < MARKER_EVENT_DATA_MAX ?
			    MARKER_EVENT_DATA_MAX - hit->dsize : 0;
	long len;

	if (!s)
		s = "(null)";
	len = marker_strnlen_nofault(s, MARKER_EVENT_STR_MAX - 1);
	if (len < 0) {
		s = "(efault)";
		len = strlen(s);
	}
	hit->str[i] = s;
	hit->len[i] = min_t(unsigned int, len + 1, room);
	if (hit->len[i] < 1) {	/* no room left: an empty string */
		hit->str[i] = "";
		hit->len[i] = 1;
	}
	hit->dsize += hit->len[i];
}

/* Read a MARK() site's @args into @hit: every value, and the strings. */
static noinline void marker_event_read_args(const struct marker_event *ev,
					    struct marker_event_hit *hit,
					    va_list *args)
{
	unsigned int i;

	hit->dsize = 0;
	for (i = 0; i < ev->nfields; i++) {
		hit->val[i] = marker_event_va_arg(&ev->field[i], args);
		if (ev->field[i].cls == MARKER_ARG_STR)
			marker_event_str(hit, i, (const char *)(unsigned long)hit->val[i]);
	}
}

/*
 * The probe of a MARK() event: @args as its own format says (the registry
 * checked the site's against it), read once.
 */
void marker_event_mark_probe(void *data, const char *fmt, va_list *args)
{
	struct marker_event *ev = data;
	struct marker_event_hit hit __uninitialized;
	struct marker_event_link *link;

	link = list_first_or_null_rcu(&ev->files, struct marker_event_link,
				      node);
	if (likely(link && !ev->nstrings && !READ_ONCE(ev->perf_users) &&
		   READ_ONCE(link->node.next) == &ev->files)) {
		marker_event_record_va(ev, link->file, args);
		return;
	}
#ifdef CONFIG_PERF_EVENTS
	if (!link && !ev->nstrings && READ_ONCE(ev->perf_users)) {
		marker_event_perf_va(ev, args);
		return;
	}
#endif
	marker_event_read_args(ev, &hit, args);
	marker_event_record(ev, &hit);
}

/* The probe of an SDT event. */
void marker_event_sdt_probe(void *data, const u64 *args, unsigned int nargs)
{
	struct marker_event *ev = data;
	struct marker_event_hit hit __uninitialized;
	unsigned int i;

	hit.dsize = 0;
	for (i = 0; i < ev->nfields; i++)
		hit.val[i] = i < nargs ? args[i] : 0;
	marker_event_record(ev, &hit);
}
