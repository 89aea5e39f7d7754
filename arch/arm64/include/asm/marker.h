/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_ARM64_MARKER_H
#define _ASM_ARM64_MARKER_H

/*
 * arm64 marker sites.
 *
 * A site is a jump label (NOP, patched to a B to the out-of-line code)
 * plus a struct marker_site record in __markers, both emitted by the same
 * asm so that every copy of the site the compiler makes carries its own
 * record. The record uses only PC-relative offsets, as __jump_table does,
 * so it adds no relocation to a relocatable (KASLR) kernel.
 *
 * The out-of-line code of a MARK() site (arch_marker_call()) hands the
 * probe a va_list built in place: AAPCS64's va_list is a struct, and with
 * both register offsets at 0 (no argument register left) va_arg() reads
 * every argument from its stack pointer, 8 bytes each, in order; so the
 * site stores its promoted arguments in an array and points a va_list at
 * it, with no register save area to fill. Then one BL, which the registry
 * patches to the probe itself when the name has one probe, with its data
 * in x0, to __marker_iterate() with the probes in x0 when it has several,
 * and to __marker_slowpath() on the way between, which finds the site's
 * descriptor from the BL's return address.
 */

#include <linux/jump_label.h>
#include <linux/marker-defs.h>

/* The size of the out-of-line call: one BL. */
#define MARKER_CALL_SIZE	AARCH64_INSN_SIZE

/*
 * Operand 0 is the key of the __jump_table entry, as arch_static_branch()
 * has it (the key is never enabled: see struct marker_desc).
 */
static __always_inline bool arch_marker_branch(struct marker_desc *desc,
					       const char *name,
					       const char *fmt,
					       const u32 kind)
{
	asm goto("1:	nop\n\t"
		 ".pushsection __jump_table, \"aw\"\n\t"
		 ".align 3\n\t"
		 ".long 1b - ., %l[l_yes] - .\n\t"
		 ".quad %c0 - .\n\t"
		 ".popsection\n\t"
		 ".pushsection __markers, \"a\"\n\t"
		 ".balign 4\n\t"
		 ".long 1b - .\n\t"		/* code */
		 ".long %c1 - .\n\t"		/* desc */
		 ".long %c2 - .\n\t"		/* name */
		 ".long %c3 - .\n\t"		/* format */
		 ".long %c4\n\t"		/* kind */
		 ".long %l[l_yes] - .\n\t"	/* target */
		 ".popsection\n\t"
		 : : "i" (&desc->key), "i" (desc), "i" (name), "i" (fmt),
		     "i" (kind) : : l_yes);

	return false;
l_yes:
	return true;
}

/* AAPCS64's va_list, over arguments stored in memory. */
struct __marker_va_list {
	void *stack;		/* the arguments, 8 bytes each */
	void *gr_top;		/* never read: gr_offs is 0 */
	void *vr_top;		/* never read: vr_offs is 0 */
	int gr_offs;
	int vr_offs;
};

/*
 * The registers a called function may change, besides x0-x2 and x30: x18
 * too, unless the shadow call stack reserves it.
 */
#ifdef CONFIG_SHADOW_CALL_STACK
#define __MARKER_X18
#else
#define __MARKER_X18	"x18",
#endif

/*
 * The call of an armed MARK() site, with preemption disabled: @args is an
 * array of the promoted arguments. See the comment at the top.
 *
 * The register variables are bound last, right before the asm: a local
 * register variable holds its value only as an asm operand, and any call
 * between its assignment and the asm may change it, such as those a
 * sanitizer adds for the stores that fill the va_list (KCSAN's
 * __tsan_write8(), KASAN's outline checks).
 */
#define arch_marker_call(desc, fmt, args)				\
do {									\
	struct __marker_va_list __marker_va __uninitialized;		\
	void *__marker_data = READ_ONCE((desc)->data);			\
	const char *__marker_fmt = (fmt);				\
									\
	__marker_va.stack = (args);					\
	__marker_va.gr_offs = 0;					\
	__marker_va.vr_offs = 0;					\
	{								\
		register void *__marker_x0 asm("x0") = __marker_data;	\
		register const char *__marker_x1 asm("x1") = __marker_fmt; \
		register void *__marker_x2 asm("x2") = &__marker_va;	\
									\
		asm volatile("1:	bl	__marker_slowpath\n\t"	\
			     ".pushsection __marker_calls, \"a\"\n\t"	\
			     ".balign 4\n\t"				\
			     ".long 1b - .\n\t"				\
			     ".long %c[d] - .\n\t"			\
			     ".popsection"				\
			     : "+r" (__marker_x0), "+r" (__marker_x1),	\
			       "+r" (__marker_x2)			\
			     : [d] "i" (desc)				\
			     : "x3", "x4", "x5", "x6", "x7", "x8", "x9",	\
			       "x10", "x11", "x12", "x13", "x14", "x15",	\
			       "x16", "x17", __MARKER_X18 "x30", "memory",	\
			       "cc");					\
	}								\
} while (0)

#endif /* _ASM_ARM64_MARKER_H */
