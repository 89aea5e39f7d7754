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
 * SDT sites, SDT_PROBE(provider, name, args...) from <linux/sdt.h>, are the
 * other kind: one 5-byte NOP and nothing else in the code, a record of
 * where each argument lives, and a kprobe when armed:
 *
 *	sdt_set_probe("provider", "name", nargs, probe, data);
 *	sdt_disable_probe("provider", "name", probe, data);
 *
 * The probe receives the arguments decoded and extended to 64 bits.
 *
 * See Documentation/trace/markers.rst.
 */

#include <linux/compiler.h>
#include <linux/sdt.h>
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

/**
 * typedef sdt_probe_func - a probe attached to SDT sites
 * @probe_data: the data given to sdt_set_probe()
 * @args: the site's arguments, sign- or zero-extended to 64 bits
 * @nargs: how many
 *
 * Called from the site's kprobe, with preemption disabled; must not sleep.
 */
typedef void sdt_probe_func(void *probe_data, const u64 *args,
			    unsigned int nargs);

#ifdef CONFIG_MARKERS

#include <linux/jump_label.h>

struct marker_probes;

/*
 * One per MARK() or MARK_ENABLED() expansion, shared by the copies of the
 * site that the compiler makes. @key is the static key of those copies;
 * @probes is what the site calls, published under RCU by kernel/marker.c.
 */
struct marker_desc {
	struct static_key_false key;
	struct marker_probes __rcu *probes;
	unsigned long hits;		/* calls while armed (approximate) */
};

#define MARKER_DESC_INIT { .key = STATIC_KEY_FALSE_INIT, .probes = NULL }

/*
 * One per copy of a site, in section __markers, emitted by the arch's
 * arch_marker_branch(). Only offsets relative to the field itself, so a
 * record needs no relocation at boot (KASLR) or load time.
 */
struct marker_site {
	s32 code;	/* the site's NOP */
	s32 desc;	/* its struct marker_desc */
	s32 name;	/* "name" */
	s32 format;	/* "format", "" for MARKER_KIND_GUARD */
	u32 kind;	/* MARKER_KIND_* */
};

#include <asm/marker.h>

int marker_set_probe(const char *name, const char *format,
		     marker_probe_func *probe, void *probe_data);
int marker_disable_probe(const char *name, marker_probe_func *probe,
			 void *probe_data);
int sdt_set_probe(const char *provider, const char *name, int nargs,
		  sdt_probe_func *probe, void *probe_data);
int sdt_disable_probe(const char *provider, const char *name,
		      sdt_probe_func *probe, void *probe_data);

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

/*
 * SDT_ENABLED(provider, name): true while a probe is attached to the SDT
 * sites provider:name; a NOP while dormant. For guarding arguments that
 * are costly to compute (gen-provider's *_ENABLED() wrappers).
 */
#define SDT_ENABLED(provider, name)					\
({									\
	static struct marker_desc __sdt_desc_##provider##_##name =	\
		MARKER_DESC_INIT;					\
	unlikely(arch_marker_branch(&__sdt_desc_##provider##_##name,	\
				    #provider ":" #name, "",		\
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

static inline int sdt_set_probe(const char *provider, const char *name,
				int nargs, sdt_probe_func *probe,
				void *probe_data)
{
	return -EOPNOTSUPP;
}

static inline int sdt_disable_probe(const char *provider, const char *name,
				    sdt_probe_func *probe, void *probe_data)
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
#define SDT_ENABLED(...)	false

#endif /* CONFIG_MARKERS */

#endif /* _LINUX_MARKER_H */
