// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: what a marker event's record is, and how it reads.
 *
 * The fields of a MARK() event are typed from its format by the format
 * grammar (marker_format_next()) and named after the identifier before
 * each conversion, those of an SDT event from its spec; the print fmt is
 * the site's own format over them; and a record reads back as the site's
 * format would have printed it. See trace_markers.c.
 */

#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/sdt-decode.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/trace_seq.h>

#include "../markers/internal.h"
#include "trace_markers.h"

static bool marker_field_name_ok(const char *name)
{
	size_t i;

	if (!*name || isdigit(*name) || !strncmp(name, "common_", 7))
		return false;
	/* argN is ours. */
	if (!strncmp(name, "arg", 3) && name[3]) {
		for (i = 3; isdigit(name[i]); i++)
			;
		if (!name[i])
			return false;
	}
	return true;
}

/*
 * The identifier just before @conv in the literal text [@text, @conv), or
 * "" (then argN).
 */
static void marker_field_name(char *buf, const char *text, const char *conv)
{
	const char *end = conv, *p;

	while (end > text && strchr(" =:\t", end[-1]))
		end--;
	for (p = end; p > text && (isalnum(p[-1]) || p[-1] == '_'); p--)
		;
	buf[0] = '\0';
	if (end - p > MARKER_FIELD_NAME_MAX)
		return;
	memcpy(buf, p, end - p);
	buf[end - p] = '\0';
	if (!marker_field_name_ok(buf))
		buf[0] = '\0';
}

/* Lay out field @f at *@off, naturally aligned. */
static void marker_field_place(struct marker_event_field *f, unsigned int *off)
{
	*off = ALIGN(*off, f->size);
	f->offset = *off;
	*off += f->size;
}

static void marker_field_int(struct marker_event_field *f)
{
	f->cls = MARKER_ARG_INT;
	f->size = sizeof(int);
	f->is_signed = true;
	f->type = "int";
}

/* The fields of a MARK() event of format @fmt; the number, or -EINVAL. */
static int marker_fields_mark(struct marker_event_field *field,
			      const char *fmt)
{
	unsigned int n = 0, i, j, off = sizeof(struct trace_entry);
	bool dup[MARKER_MAX_ARGS] = {};
	const char *p = fmt, *text = fmt;
	struct marker_conv c;
	int ret;

	while ((ret = marker_format_next(&p, &c)) > 0) {
		if (n + c.nstars + 1 > MARKER_MAX_ARGS)
			return -EINVAL;
		for (i = 0; i < c.nstars; i++)
			marker_field_int(&field[n++]);
		field[n].cls = c.cls;
		field[n].size = c.size;
		field[n].is_signed = c.is_signed;
		field[n].type = c.type;
		marker_field_name(field[n].name, text, c.start);
		n++;
		text = p;
	}
	if (ret < 0)
		return ret;
	/* A name twice is no name: each of its fields is argN. */
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (field[i].name[0] && !strcmp(field[i].name, field[j].name)) {
				dup[i] = true;
				dup[j] = true;
			}
	for (i = 0; i < n; i++) {
		if (dup[i] || !field[i].name[0])
			snprintf(field[i].name, sizeof(field[i].name), "arg%u", i);
		marker_field_place(&field[i], &off);
	}
	return n;
}

/* The fields of an SDT event of spec @spec: the number, or -EINVAL. */
static int marker_fields_sdt(struct marker_event_field *field,
			     const char *spec)
{
	unsigned int n = 0, off = sizeof(struct trace_entry);
	const char *end;

	while ((spec = sdt_spec_next(spec, &end))) {
		if (n >= SDT_MAX_ARGS)
			return -EINVAL;
		field[n].cls = MARKER_ARG_LONG;
		field[n].size = sizeof(u64);
		field[n].is_signed = *spec == '-';
		field[n].type = field[n].is_signed ? "s64" : "u64";
		snprintf(field[n].name, sizeof(field[n].name), "arg%u", n);
		marker_field_place(&field[n], &off);
		n++;
		spec = end;
	}
	return n;
}

/* The fields of an event of format or spec @fmt: their number, or -EINVAL. */
int marker_event_fields(struct marker_event_field *field, const char *fmt,
			bool sdt)
{
	return sdt ? marker_fields_sdt(field, fmt) : marker_fields_mark(field, fmt);
}

/* The end of @ev's fixed fields: where its strings go. */
unsigned int marker_fields_end(const struct marker_event *ev)
{
	const struct marker_event_field *f;

	if (!ev->nfields)
		return sizeof(struct trace_entry);
	f = &ev->field[ev->nfields - 1];
	return f->offset + f->size;
}

static int marker_event_define_fields(struct trace_event_call *call)
{
	struct marker_event *ev = call->data;
	unsigned int i;
	int ret;

	for (i = 0; i < ev->nfields; i++) {
		const struct marker_event_field *f = &ev->field[i];

		ret = trace_define_field(call, f->type, f->name, f->offset,
					 f->size, f->is_signed,
					 f->cls == MARKER_ARG_STR ?
					 FILTER_DYN_STRING : FILTER_OTHER);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Has @ev, just added to ftrace, all it should have in @tr? Its file; with
 * tracefs, the file's directory and every field, which are made with the
 * directory. trace_add_event_call() goes on without each when an
 * allocation fails. Called under event_mutex.
 */
bool marker_event_whole(struct trace_array *tr, struct marker_event *ev)
{
	struct trace_event_file *file;

	lockdep_assert_held(&event_mutex);
	file = find_event_file(tr, ev->class.system, ev->name);
	if (!file)
		return false;
	return !tr->event_dir || (file->ei &&
		list_count_nodes(trace_get_fields(&ev->call)) == ev->nfields);
}

struct trace_event_fields marker_event_fields_array[] = {
	{ .type = TRACE_FUNCTION_TYPE,
	  .define_fields = marker_event_define_fields },
	{}
};

/* Append @s to @buf (of @size) escaped for a C string literal. */
static void marker_print_fmt_escape(struct seq_buf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			seq_buf_printf(sb, "\\%c", *s);
		else if (*s == '\n')
			seq_buf_puts(sb, "\\n");
		else if (*s == '\t')
			seq_buf_puts(sb, "\\t");
		else if (isprint(*s))
			seq_buf_putc(sb, *s);
		else
			seq_buf_printf(sb, "\\%03o", (unsigned char)*s);
	}
}

/*
 * The print fmt: the site's own format over the fields ("\"pid %d comm
 * %s\", REC->pid, __get_str(comm)"), or an SDT event's "provider:name
 * arg0=%lld ...". Returns 0 or -ENOMEM.
 */
int marker_event_print_fmt(struct marker_event *ev)
{
	unsigned int i, len = 256 + 4 * strlen(ev->format) + strlen(ev->key) +
		ev->nfields * (MARKER_FIELD_NAME_MAX + 24);
	struct seq_buf sb;
	char *buf;

	buf = kmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	seq_buf_init(&sb, buf, len);
	seq_buf_putc(&sb, '"');
	if (ev->sdt) {
		seq_buf_puts(&sb, ev->key);
		for (i = 0; i < ev->nfields; i++)
			seq_buf_printf(&sb, " %s=%s", ev->field[i].name,
				       ev->field[i].is_signed ? "%lld" : "%llu");
	} else {
		marker_print_fmt_escape(&sb, ev->format);
	}
	seq_buf_putc(&sb, '"');
	for (i = 0; i < ev->nfields; i++) {
		if (ev->field[i].cls == MARKER_ARG_STR)
			seq_buf_printf(&sb, ", __get_str(%s)", ev->field[i].name);
		else
			seq_buf_printf(&sb, ", REC->%s", ev->field[i].name);
	}
	if (seq_buf_has_overflowed(&sb)) {
		kfree(buf);
		return -E2BIG;
	}
	seq_buf_str(&sb);
	ev->call.print_fmt = buf;
	return 0;
}

/* --- Reading a record ------------------------------------------------ */

/* Literal format text [@p, @end), with "%%" as '%'. */
static void marker_event_put_text(struct trace_seq *s, const char *p,
				  const char *end)
{
	const char *q;

	while (p < end) {
		q = strnchr(p, end - p, '%');
		if (!q) {
			trace_seq_putmem(s, p, end - p);
			return;
		}
		trace_seq_putmem(s, p, q - p + 1);
		p = q + 2;	/* past "%%" */
	}
}

/* The string of field @f of @rec, bounded by the record. */
static const char *marker_event_rec_str(const struct marker_event_field *f,
					void *rec, int rec_size)
{
	u32 loc = *(u32 *)(rec + f->offset);
	unsigned int off = loc & 0xffff, len = loc >> 16;

	if (!len || off + len > rec_size || ((char *)rec)[off + len - 1])
		return "(bad)";
	return rec + off;
}

/* Field @i of @rec as a long: sign- or zero-extended by its type. */
static long marker_event_rec_val(const struct marker_event_field *f, void *rec)
{
	void *p = rec + f->offset;

	switch (f->size) {
	case 1:
		return f->is_signed ? *(s8 *)p : *(u8 *)p;
	case 2:
		return f->is_signed ? *(s16 *)p : *(u16 *)p;
	case 4:
		return f->is_signed ? *(s32 *)p : *(u32 *)p;
	default:
		return *(s64 *)p;
	}
}

/*
 * One conversion @conv (with up to two '*' values in @star) of field @f.
 * The conversion is the site's own, checked by the format grammar; %p
 * extensions that would read memory at the pointer (all but symbols, %px
 * and %pK) print as a plain %p, since what it pointed at may be long gone
 * when the record is read.
 */
static void marker_event_put_conv(struct trace_seq *s, const char *conv,
				  unsigned int len,
				  const struct marker_event_field *f,
				  void *rec, int rec_size,
				  const int *star, unsigned int nstars)
{
	const char *ext;
	char spec[24];
	long v = 0;
	const void *arg;

	if (f->cls == MARKER_ARG_PTR) {
		/* Past the 'p': its extension, if any. */
		ext = strnchr(conv, len, 'p') + 1;
		if (ext < conv + len && !strchr("SsBxK", *ext))
			len = ext - conv;
	}
	if (len >= sizeof(spec)) {
		len = 0;
		nstars = 0;
	}
	if (len) {
		memcpy(spec, conv, len);
		spec[len] = '\0';
	} else {	/* too long a conversion: the plain one of its class */
		strscpy(spec, f->cls == MARKER_ARG_PTR ? "%p" :
			      f->cls == MARKER_ARG_STR ? "%s" :
			      f->cls == MARKER_ARG_INT ? "%d" : "%ld");
	}
	if (f->cls == MARKER_ARG_STR) {
		arg = marker_event_rec_str(f, rec, rec_size);
	} else {
		v = marker_event_rec_val(f, rec);
		arg = (const void *)v;
	}
	/* The format is the site's, its types checked by the grammar. */
	switch (f->cls) {
	case MARKER_ARG_INT:
		if (nstars == 2)
			trace_seq_printf(s, spec, star[0], star[1], (int)v);
		else if (nstars == 1)
			trace_seq_printf(s, spec, star[0], (int)v);
		else
			trace_seq_printf(s, spec, (int)v);
		break;
	case MARKER_ARG_LONG:
		if (nstars == 2)
			trace_seq_printf(s, spec, star[0], star[1], v);
		else if (nstars == 1)
			trace_seq_printf(s, spec, star[0], v);
		else
			trace_seq_printf(s, spec, v);
		break;
	default:
		if (nstars == 2)
			trace_seq_printf(s, spec, star[0], star[1], arg);
		else if (nstars == 1)
			trace_seq_printf(s, spec, star[0], arg);
		else
			trace_seq_printf(s, spec, arg);
		break;
	}
}

static enum print_line_t marker_event_output(struct trace_iterator *iter,
					     int flags,
					     struct trace_event *event)
{
	struct marker_event *ev = container_of(event, struct marker_event,
					       call.event);
	struct trace_seq *s = &iter->seq;
	void *rec = iter->ent;
	const char *p = ev->format, *prev;
	struct marker_conv c;
	unsigned int i = 0, k;
	int star[2];
	int ret;

	ret = trace_raw_output_prep(iter, event);
	if (ret != TRACE_TYPE_HANDLED)
		return ret;
	/* Never read past the record, whatever it holds. */
	if (iter->ent_size < (int)ev->fixed_size) {
		trace_seq_printf(s, "(record of %d bytes, not %u)\n",
				 iter->ent_size, ev->fixed_size);
		return trace_handle_return(s);
	}
	if (ev->sdt) {
		trace_seq_puts(s, ev->key);
		for (i = 0; i < ev->nfields; i++)
			trace_seq_printf(s, ev->field[i].is_signed ?
					 " %s=%lld" : " %s=%llu",
					 ev->field[i].name,
					 *(u64 *)(rec + ev->field[i].offset));
		trace_seq_putc(s, '\n');
		return trace_handle_return(s);
	}
	prev = p;
	while (marker_format_next(&p, &c) > 0 && i + c.nstars < ev->nfields) {
		marker_event_put_text(s, prev, c.start);
		for (k = 0; k < c.nstars; k++)
			star[k] = marker_event_rec_val(&ev->field[i++], rec);
		marker_event_put_conv(s, c.start, c.len, &ev->field[i++], rec,
				      iter->ent_size, star, c.nstars);
		prev = p;
	}
	/* A format's own last '\n' ends the line, as in printk. */
	p = prev + strlen(prev);
	marker_event_put_text(s, prev, p > prev && p[-1] == '\n' ? p - 1 : p);
	trace_seq_putc(s, '\n');
	return trace_handle_return(s);
}

struct trace_event_functions marker_event_funcs = {
	.trace = marker_event_output,
};
