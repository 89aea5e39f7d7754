/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel markers' trace events, a dynamic event type: what its files
 * share. trace_markers.c makes, enables and removes the events,
 * trace_markers_format.c types their fields and reads their records,
 * trace_markers_record.c writes them. What they use of the markers
 * registry is its internal interface for its clients
 * (kernel/markers/internal.h), as the futex code uses the rtmutex's.
 */
#ifndef _TRACE_MARKERS_H
#define _TRACE_MARKERS_H

#include <linux/list.h>
#include <linux/rcupdate.h>
#include <linux/stdarg.h>
#include <linux/trace_events.h>
#include <linux/tracepoint-defs.h>

#include "trace_dynevent.h"

#define MARKER_EVENT_SYSTEM	"markers"
#define SDT_EVENT_PREFIX	"sdt_"
#define DYNDBG_EVENT_PREFIX	"dyndbg_"
/* The most bytes a %s field records, its NUL included. */
#define MARKER_EVENT_STR_MAX	256
/* The most bytes all the %s fields of a record take (perf's limit: 8 KiB). */
#define MARKER_EVENT_DATA_MAX	2048
/* The longest field name taken from a format. */
#define MARKER_FIELD_NAME_MAX	31

/* One field of an event's record. */
struct marker_event_field {
	char name[MARKER_FIELD_NAME_MAX + 1];
	const char *type;
	unsigned int offset;		/* in the record */
	u8 size;
	u8 cls;				/* enum marker_arg_class */
	bool is_signed;
};

/* An instance where the event is enabled. */
struct marker_event_link {
	struct list_head node;		/* in marker_event.files, RCU */
	struct rcu_head rcu;
	struct trace_event_file *file;
};

/*
 * A marker name's trace event. Locking: list, stale and the event's
 * existence are marker_events_mutex's (trace_markers.c); devent is on
 * dyn_event_list under event_mutex; used, attached, detach_queued, files
 * and perf_users change under event_mutex, which serializes the
 * registration callback, and the hit path reads files (RCU) and
 * perf_users (READ_ONCE) without it.
 */
struct marker_event {
	struct dyn_event devent;	/* first: a dynamic event of its type */
	struct list_head list;		/* in marker_events, unless user */
	struct trace_event_call call;
	struct trace_event_class class;
	struct tracepoint tp;		/* its name, for trace_event_name() */
	char *key;			/* the registry's key */
	char *format;			/* the sites' format, or SDT spec */
	char *name;
	bool sdt;
	bool user;			/* made through dynamic_events ("m:") */
	bool stale;			/* the name wants another, or none */
	bool used;			/* was ever enabled: keep its records */
	bool attached;			/* the registry holds its probe */
	bool detach_queued;		/* its probe goes at marker_events_release() */
	struct list_head files;		/* struct marker_event_link */
	unsigned int perf_users;
	unsigned long __percpu *hits;
	struct rcu_head rcu;
	unsigned int fixed_size;	/* the record without its strings */
	unsigned int nstrings;		/* %s fields */
	unsigned int nfields;
	struct marker_event_field field[] __counted_by(nfields);
};

/* trace_markers.c, for trace_markers_dyn.c */
struct marker_event *marker_event_make(const char *key, const char *group,
				       const char *user);
int marker_event_attach(struct marker_event *ev, bool on);
void marker_event_names(struct marker_event *ev, const char *key,
			const char *group, const char *user);
bool marker_event_in_use(struct marker_event *ev);
void marker_event_free_rcu(struct rcu_head *rcu);

/* trace_markers_dyn.c: the type of marker events */
extern struct dyn_event_operations marker_dyn_ops;

/* trace_markers_format.c */
int marker_event_fields(struct marker_event_field *field, const char *fmt,
			bool sdt);
unsigned int marker_fields_end(const struct marker_event *ev);
bool marker_event_whole(struct trace_array *tr, struct marker_event *ev);
int marker_event_print_fmt(struct marker_event *ev);
extern struct trace_event_fields marker_event_fields_array[];
extern struct trace_event_functions marker_event_funcs;

/* trace_markers_record.c: the probes an enabled event attaches to its name. */
void marker_event_mark_probe(void *data, const char *fmt, va_list *args);
void marker_event_sdt_probe(void *data, const u64 *args, unsigned int nargs);

#endif /* _TRACE_MARKERS_H */
