/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel markers: what the control file uses of the trace events (its "to
 * trace" enables a name's event, its listing shows their hits). The
 * events are a dynamic event type of the tracing code, in
 * kernel/trace/trace_markers.c.
 */
#ifndef _KERNEL_MARKERS_EVENTS_H
#define _KERNEL_MARKERS_EVENTS_H

#include <linux/errno.h>
#include <linux/types.h>

#ifdef CONFIG_MARKERS_EVENTS
void marker_events_hold(void);
void marker_events_release(void);
int marker_event_set(const char *key, bool on);
bool marker_event_enabled(const char *key);
unsigned long marker_event_hits(const char *key);
#else
static inline void marker_events_hold(void)
{
}

static inline void marker_events_release(void)
{
}

static inline int marker_event_set(const char *key, bool on)
{
	return -EOPNOTSUPP;
}

static inline bool marker_event_enabled(const char *key)
{
	return false;
}

static inline unsigned long marker_event_hits(const char *key)
{
	return 0;
}
#endif

#endif /* _KERNEL_MARKERS_EVENTS_H */
