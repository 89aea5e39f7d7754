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
#include <linux/marker-defs.h>
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

#include <linux/args.h>
#include <linux/preempt.h>
#include <asm/marker.h>

int marker_set_probe(const char *name, const char *format,
		     marker_probe_func *probe, void *probe_data);
int marker_disable_probe(const char *name, marker_probe_func *probe,
			 void *probe_data);

/* vmlinux's init memory is about to be freed: its init sites go. */
void marker_free_init_mem(void);

/*
 * The out-of-line side of an armed MARK() site. Up to
 * 12 arguments, the site calls its probe directly (arch_marker_call());
 * with more, it calls __marker_call(), a variadic function.
 */
void __marker_slowpath(void *data, const char *fmt, va_list *args);
__printf(2, 3)
void __marker_call(struct marker_desc *desc, const char *fmt, ...);
#ifdef CONFIG_LOCKDEP
void __marker_check_rcu(void);
#else
static inline void __marker_check_rcu(void)
{
}
#endif

static inline void __printf(1, 2) __marker_check_format(const char *fmt, ...)
{
}

/*
 * Store argument @a as the caller of a variadic function passes it, in
 * slot @i of @v: promoted ((a) + 0: int for anything smaller, a pointer for
 * an array), and no wider than that (va_arg() reads an int's 4 bytes).
 */
#define __MARKER_S(v, i, a)	(*(__typeof__((a) + 0) *)&(v)[i] = (a))
#define __MARKER_STORE_1(v, a1)	\
	(__MARKER_S(v, 0, a1))
#define __MARKER_STORE_2(v, a1, a2)	\
	(__MARKER_S(v, 0, a1), __MARKER_S(v, 1, a2))
#define __MARKER_STORE_3(v, a1, a2, a3)	\
	(__MARKER_S(v, 0, a1), __MARKER_S(v, 1, a2), __MARKER_S(v, 2, a3))
#define __MARKER_STORE_4(v, a1, a2, a3, a4)	\
	(__MARKER_S(v, 0, a1), __MARKER_S(v, 1, a2), __MARKER_S(v, 2, a3), \
	 __MARKER_S(v, 3, a4))
#define __MARKER_STORE_5(v, a1, a2, a3, a4, a5)	\
	(__MARKER_S(v, 0, a1), __MARKER_S(v, 1, a2), __MARKER_S(v, 2, a3), \
	 __MARKER_S(v, 3, a4), __MARKER_S(v, 4, a5))
#define __MARKER_STORE_6(v, a1, a2, a3, a4, a5, a6)	\
	(__MARKER_S(v, 0, a1), __MARKER_S(v, 1, a2), __MARKER_S(v, 2, a3), \
	 __MARKER_S(v, 3, a4), __MARKER_S(v, 4, a5), __MARKER_S(v, 5, a6))
#define __MARKER_STORE_7(v, a1, a2, a3, a4, a5, a6, a7)	\
	(__MARKER_S(v, 0, a1), __MARKER_S(v, 1, a2), __MARKER_S(v, 2, a3), \
	 __MARKER_S(v, 3, a4), __MARKER_S(v, 4, a5), __MARKER_S(v, 5, a6), \
	 __MARKER_S(v, 6, a7))
#define __MARKER_STORE_8(v, a1, a2, a3, a4, a5, a6, a7, a8)	\
	(__MARKER_S(v, 0, a1), __MARKER_S(v, 1, a2), __MARKER_S(v, 2, a3), \
	 __MARKER_S(v, 3, a4), __MARKER_S(v, 4, a5), __MARKER_S(v, 5, a6), \
	 __MARKER_S(v, 6, a7), __MARKER_S(v, 7, a8))
#define __MARKER_STORE_9(v, a1, a2, a3, a4, a5, a6, a7, a8, a9)	\
	(__MARKER_S(v, 0, a1), __MARKER_S(v, 1, a2), __MARKER_S(v, 2, a3), \
	 __MARKER_S(v, 3, a4), __MARKER_S(v, 4, a5), __MARKER_S(v, 5, a6), \
	 __MARKER_S(v, 6, a7), __MARKER_S(v, 7, a8), __MARKER_S(v, 8, a9))
#define __MARKER_STORE_10(v, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)	\
	(__MARKER_S(v, 0, a1), __MARKER_S(v, 1, a2), __MARKER_S(v, 2, a3), \
	 __MARKER_S(v, 3, a4), __MARKER_S(v, 4, a5), __MARKER_S(v, 5, a6), \
	 __MARKER_S(v, 6, a7), __MARKER_S(v, 7, a8), __MARKER_S(v, 8, a9), \
	 __MARKER_S(v, 9, a10))
#define __MARKER_STORE_11(v, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)	\
	(__MARKER_S(v, 0, a1), __MARKER_S(v, 1, a2), __MARKER_S(v, 2, a3), \
	 __MARKER_S(v, 3, a4), __MARKER_S(v, 4, a5), __MARKER_S(v, 5, a6), \
	 __MARKER_S(v, 6, a7), __MARKER_S(v, 7, a8), __MARKER_S(v, 8, a9), \
	 __MARKER_S(v, 9, a10), __MARKER_S(v, 10, a11))
#define __MARKER_STORE_12(v, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)	\
	(__MARKER_S(v, 0, a1), __MARKER_S(v, 1, a2), __MARKER_S(v, 2, a3), \
	 __MARKER_S(v, 3, a4), __MARKER_S(v, 4, a5), __MARKER_S(v, 5, a6), \
	 __MARKER_S(v, 6, a7), __MARKER_S(v, 7, a8), __MARKER_S(v, 8, a9), \
	 __MARKER_S(v, 9, a10), __MARKER_S(v, 10, a11), __MARKER_S(v, 11, a12))

#define __MARKER_NARGS_(_0, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10, \
			_11, _12, _13, _14, _15, _16, _17, _18, _19, _20, _21, _22, _23, \
			_24, _25, _26, _27, _28, _29, _30, _31, _32, n, ...) n
#define __MARKER_NARGS(args...)						\
	__MARKER_NARGS_(, ##args, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, \
			21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, \
			2, 1, 0)

#define __MARK_HIT_0(desc, fmt)						\
do {									\
	unsigned long __marker_args[1] __uninitialized;	\
									\
	arch_marker_call(desc, fmt, __marker_args);			\
} while (0)
#define __MARK_HIT_1(desc, fmt, args...)				\
do {									\
	unsigned long __marker_args[1] __uninitialized;	\
									\
	__MARKER_STORE_1(__marker_args, args);				\
	arch_marker_call(desc, fmt, __marker_args);			\
} while (0)
#define __MARK_HIT_2(desc, fmt, args...)				\
do {									\
	unsigned long __marker_args[2] __uninitialized;	\
									\
	__MARKER_STORE_2(__marker_args, args);				\
	arch_marker_call(desc, fmt, __marker_args);			\
} while (0)
#define __MARK_HIT_3(desc, fmt, args...)				\
do {									\
	unsigned long __marker_args[3] __uninitialized;	\
									\
	__MARKER_STORE_3(__marker_args, args);				\
	arch_marker_call(desc, fmt, __marker_args);			\
} while (0)
#define __MARK_HIT_4(desc, fmt, args...)				\
do {									\
	unsigned long __marker_args[4] __uninitialized;	\
									\
	__MARKER_STORE_4(__marker_args, args);				\
	arch_marker_call(desc, fmt, __marker_args);			\
} while (0)
#define __MARK_HIT_5(desc, fmt, args...)				\
do {									\
	unsigned long __marker_args[5] __uninitialized;	\
									\
	__MARKER_STORE_5(__marker_args, args);				\
	arch_marker_call(desc, fmt, __marker_args);			\
} while (0)
#define __MARK_HIT_6(desc, fmt, args...)				\
do {									\
	unsigned long __marker_args[6] __uninitialized;	\
									\
	__MARKER_STORE_6(__marker_args, args);				\
	arch_marker_call(desc, fmt, __marker_args);			\
} while (0)
#define __MARK_HIT_7(desc, fmt, args...)				\
do {									\
	unsigned long __marker_args[7] __uninitialized;	\
									\
	__MARKER_STORE_7(__marker_args, args);				\
	arch_marker_call(desc, fmt, __marker_args);			\
} while (0)
#define __MARK_HIT_8(desc, fmt, args...)				\
do {									\
	unsigned long __marker_args[8] __uninitialized;	\
									\
	__MARKER_STORE_8(__marker_args, args);				\
	arch_marker_call(desc, fmt, __marker_args);			\
} while (0)
#define __MARK_HIT_9(desc, fmt, args...)				\
do {									\
	unsigned long __marker_args[9] __uninitialized;	\
									\
	__MARKER_STORE_9(__marker_args, args);				\
	arch_marker_call(desc, fmt, __marker_args);			\
} while (0)
#define __MARK_HIT_10(desc, fmt, args...)				\
do {									\
	unsigned long __marker_args[10] __uninitialized;	\
									\
	__MARKER_STORE_10(__marker_args, args);				\
	arch_marker_call(desc, fmt, __marker_args);			\
} while (0)
#define __MARK_HIT_11(desc, fmt, args...)				\
do {									\
	unsigned long __marker_args[11] __uninitialized;	\
									\
	__MARKER_STORE_11(__marker_args, args);				\
	arch_marker_call(desc, fmt, __marker_args);			\
} while (0)
#define __MARK_HIT_12(desc, fmt, args...)				\
do {									\
	unsigned long __marker_args[12] __uninitialized;	\
									\
	__MARKER_STORE_12(__marker_args, args);				\
	arch_marker_call(desc, fmt, __marker_args);			\
} while (0)
#define __MARK_HIT_13		__marker_call
#define __MARK_HIT_14		__marker_call
#define __MARK_HIT_15		__marker_call
#define __MARK_HIT_16		__marker_call
#define __MARK_HIT_17		__marker_call
#define __MARK_HIT_18		__marker_call
#define __MARK_HIT_19		__marker_call
#define __MARK_HIT_20		__marker_call
#define __MARK_HIT_21		__marker_call
#define __MARK_HIT_22		__marker_call
#define __MARK_HIT_23		__marker_call
#define __MARK_HIT_24		__marker_call
#define __MARK_HIT_25		__marker_call
#define __MARK_HIT_26		__marker_call
#define __MARK_HIT_27		__marker_call
#define __MARK_HIT_28		__marker_call
#define __MARK_HIT_29		__marker_call
#define __MARK_HIT_30		__marker_call
#define __MARK_HIT_31		__marker_call
#define __MARK_HIT_32		__marker_call

/* The format: the first of MARK()'s variable arguments. */
#define __MARKER_FMT(format, ...)	format

/*
 * MARK(name, format, args...)
 *
 * The descriptor's alignment is its type's: a compiler may otherwise give
 * a static object of its size a cache line (GCC does on x86-64), 24 bytes
 * a site for nothing.
 */
#define MARK(name, ...)							\
do {									\
	static struct marker_desc __marker_desc_##name __aligned(8) =	\
		MARKER_DESC_INIT;					\
	if (unlikely(arch_marker_branch(&__marker_desc_##name, #name,	\
					__MARKER_FMT(__VA_ARGS__, 0),	\
					MARKER_KIND_MARK))) {		\
		if (0)							\
			__marker_check_format(__VA_ARGS__);		\
		__marker_check_rcu();					\
		preempt_disable_notrace();				\
		__MARK_HIT(&__marker_desc_##name, __VA_ARGS__);		\
		preempt_enable_notrace();				\
	}								\
} while (0)

#define __MARK_HIT(desc, fmt, args...)					\
	CONCATENATE(__MARK_HIT_, __MARKER_NARGS(args))(desc, fmt, ##args)

#define MARK_ENABLED(name)						\
({									\
	static struct marker_desc __marker_desc_##name __aligned(8) =	\
		MARKER_DESC_INIT;					\
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

static inline void marker_free_init_mem(void)
{
}

static inline void __printf(1, 2) __marker_check_format(const char *fmt, ...)
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
