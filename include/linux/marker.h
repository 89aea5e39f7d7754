/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MARKER_H
#define _LINUX_MARKER_H

/*
 * Kernel markers: static instrumentation sites with a printf format.
 *
 * A marker is placed in code with one line:
 *
 *	MARK(subsys_event, "pid %d comm %s", p->pid, p->comm);
 *
 * The name is a bare identifier, the format a printf format that the
 * compiler checks against the arguments. Each expansion leaves a record
 * (name, format, location) in the __markers section; code the compiler
 * duplicates (inlining, loop unrolling) carries its own copy of the record,
 * so every copy of a site is known and armed.
 *
 * A dormant site is one NOP in the hot path (a jump label). The arguments
 * and the call sit out of line and are not evaluated while the site is
 * dormant. For an argument that is expensive to compute, guard it:
 *
 *	if (MARK_ENABLED(subsys_event))
 *		MARK(subsys_event, "%s", expensive_string(p));
 *
 * MARK_ENABLED() is a NOP as well while no probe is attached to the name.
 *
 * Probes attach by name, from the kernel or from a module:
 *
 *	marker_set_probe("subsys_event", "pid %d comm %s", probe, data);
 *	marker_disable_probe("subsys_event", probe, data);
 *
 * A probe is called with the site's format and a va_list of its arguments,
 * with preemption disabled; it must not sleep. The probe's format is checked
 * against each site's by argument types (see marker_set_probe()); NULL
 * accepts any site. A name may have probes before any site with that name
 * exists (a module not loaded yet): the probe is then pending and is armed
 * when such a module arrives. marker_disable_probe() returns only once no
 * CPU can still be running the probe, so a probe module may unload right
 * after it.
 *
 * Attached sites are patched from NOP to jump (static keys); a name left
 * with no probe goes back to NOPs. /sys/kernel/debug/markers/list lists
 * every site, its state and its number of probes.
 *
 * With CONFIG_MARKERS=n, MARK() compiles to nothing; its arguments are
 * still type-checked against the format, and never evaluated.
 *
 * SDT sites, the other kind of site (a NOP and the operands' locations,
 * nothing else), are in <linux/sdt.h>. The record both kinds leave in the
 * __markers section is in <linux/marker_site.h>.
 *
 * See Documentation/trace/markers.rst.
 */

#include <linux/compiler.h>
#include <linux/marker_site.h>
#include <linux/stdarg.h>
#include <linux/types.h>

/**
 * typedef marker_probe_func - a probe attached to a marker name
 * @probe_data: the data given to marker_set_probe()
 * @fmt: the format of the site that fired
 * @args: the site's arguments; read them with va_arg(*args, type)
 *
 * Called with preemption disabled; must not sleep.
 */
typedef void marker_probe_func(void *probe_data, const char *fmt,
			       va_list *args);

/* The format of a marker that has no arguments. */
#define MARK_NOARGS " "

#ifdef CONFIG_MARKERS

#include <asm/marker.h>

int marker_set_probe(const char *name, const char *format,
		     marker_probe_func *probe, void *probe_data);
int marker_disable_probe(const char *name, marker_probe_func *probe,
			 void *probe_data);

__printf(2, 3)
void __marker_call(struct marker_desc *desc, const char *fmt, ...);

/* The format: the first of MARK()'s variable arguments. */
#define __MARKER_FMT(format, ...)	format

/* MARK(name, format, args...) */
#define MARK(name, ...)							\
do {									\
	static struct marker_desc __marker_desc_##name = MARKER_DESC_INIT; \
	if (unlikely(arch_marker_branch(&__marker_desc_##name, #name,	\
					__MARKER_FMT(__VA_ARGS__, 0),	\
					MARKER_KIND_MARK)))		\
		__marker_call(&__marker_desc_##name, __VA_ARGS__);	\
} while (0)

#define MARK_ENABLED(name)						\
({									\
	static struct marker_desc __marker_desc_##name = MARKER_DESC_INIT; \
	unlikely(arch_marker_branch(&__marker_desc_##name, #name, "",	\
				    MARKER_KIND_GUARD));		\
})

#else /* !CONFIG_MARKERS */

#include <linux/errno.h>

static inline int marker_set_probe(const char *name, const char *format,
				   marker_probe_func *probe, void *probe_data)
{
	return -EOPNOTSUPP;
}

static inline int marker_disable_probe(const char *name,
				       marker_probe_func *probe,
				       void *probe_data)
{
	return -EOPNOTSUPP;
}

static inline __printf(1, 2)
void __marker_check_format(const char *fmt, ...)
{
}

#define MARK(name, ...)							\
do {									\
	(void)#name;							\
	if (0)								\
		__marker_check_format(__VA_ARGS__);			\
} while (0)

#define MARK_ENABLED(name)	((void)#name, false)

#endif /* CONFIG_MARKERS */

#endif /* _LINUX_MARKER_H */
