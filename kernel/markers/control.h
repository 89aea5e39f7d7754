/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel markers: the control file's grammar (control_parse.c), shared by
 * control.c and its KUnit suite (tests/markers_control_kunit.c), and its
 * built-in probes (sinks.c).
 */
#ifndef _KERNEL_MARKERS_CONTROL_H
#define _KERNEL_MARKERS_CONTROL_H

#include <linux/list.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

/* The largest write the control file takes, in bytes. */
#define MARKER_CONTROL_MAX	4096
/* The most commands in one write. */
#define MARKER_CONTROL_CMDS	64
/* The most names one write may touch, summed over its commands. */
#define MARKER_CONTROL_KEYS	1024
/* The longest glob. */
#define MARKER_GLOB_MAX		128

enum marker_sink {
	MARKER_SINK_TRACE,	/* the ftrace ring buffer */
	MARKER_SINK_PRINTK,	/* a rate-limited pr_info() */
};

/* One parsed command; the strings point into the written buffer. */
struct marker_cmd {
	bool enable;		/* enable, or disable */
	const char *name;	/* glob on names and provider:name */
	const char *module;	/* only sites of this module ("vmlinux") */
	const char *provider;	/* only SDT sites of such providers */
	const char *file;	/* only sites in such files */
	unsigned int first, last;	/* only sites on these lines; 0: any */
	enum marker_sink sink;
	bool has_sink;		/* "to" was given */
	bool any_sink;		/* disable without "to": every sink */
};

/* One attached built-in probe (sinks.c): its data is this struct. */
struct marker_builtin {
	struct hlist_node hnode;	/* in control.c's table, by key; RCU */
	struct rcu_head rcu;
	unsigned long __percpu *hits;	/* calls of this probe */
	unsigned long base;		/* "trace": its event's hits before */
	enum marker_sink sink;
	bool sdt;
	char key[];			/* name, or provider:name */
};

/* The built-in probe function of a sink, for MARK() or SDT sites. */
const void *marker_builtin_func(bool sdt, enum marker_sink sink);

/* control_parse.c: the grammar. */
int marker_control_parse(char *buf, struct marker_cmd *cmds, unsigned int max);
int marker_boot_parse(char *s, struct marker_cmd *cmd);
/* A glob: 1..MARKER_GLOB_MAX of [A-Za-z0-9_:*?!-] and balanced [...]. */
bool marker_glob_valid(const char *g);

#endif /* _KERNEL_MARKERS_CONTROL_H */
