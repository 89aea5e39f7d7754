/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_MARKER_H
#define _ASM_X86_MARKER_H

/*
 * x86 marker sites.
 *
 * A site is a jump label (NOP, patched to a jump to the out-of-line code)
 * plus a struct marker_site record in __markers, both emitted by the same
 * asm so that every copy of the site the compiler makes carries its own
 * record. The record uses only PC-relative offsets, as __jump_table does,
 * so it adds no relocation to a relocatable (KASLR) kernel.
 *
 * The out-of-line code of a MARK() site (arch_marker_call()) hands the
 * probe a va_list built in place: the x86-64 ABI's va_list is a struct
 * whose overflow area is simply the arguments, promoted and 8 bytes each,
 * in order, so the site stores them in an array and points a va_list at
 * it, with no register save area left to read. Then one CALL, which the
 * registry patches to the probe itself when the name has one probe, with
 * its data in %rdi, to __marker_iterate() with the probes in %rdi when it
 * has several, and to __marker_slowpath() on the way between, which finds
 * the site's descriptor from the CALL's return address.
 */

#include <linux/jump_label.h>
#include <linux/marker-defs.h>
#include <asm/asm.h>

/* The size of the out-of-line call, and of an armed SDT site: a CALL. */
#define MARKER_CALL_SIZE	5

#define __MARKER_RECORD(kind)					\
	".pushsection __markers, \"a\"\n\t"			\
	".balign 4\n\t"						\
	".long 1b - .\n\t"		/* code */		\
	".long %c2 - .\n\t"		/* desc */		\
	".long %c3 - .\n\t"		/* name */		\
	".long %c4 - .\n\t"		/* format */		\
	".long " kind "\n\t"		/* kind */		\
	".long %l[l_yes] - .\n\t"	/* target */		\
	".popsection\n\t"

/*
 * Operands 0 and 1 are those JUMP_TABLE_ENTRY expects: the key and the
 * branch bits (2 tells objtool to NOP the jmp, as arch_static_branch does).
 */
#ifdef CONFIG_HAVE_JUMP_LABEL_HACK
#define __MARKER_NOP	"jmp %l[l_yes] # objtool NOPs this\n\t"
#define __MARKER_BRANCH	2
#else
#define __MARKER_NOP	".byte " __stringify(BYTES_NOP5) "\n\t"
#define __MARKER_BRANCH	0
#endif

static __always_inline bool arch_marker_branch(struct marker_desc *desc,
					       const char *name,
					       const char *fmt,
					       const u32 kind)
{
	asm goto("1:"
		 __MARKER_NOP
		 JUMP_TABLE_ENTRY
		 __MARKER_RECORD("%c5")
		 : : "i" (&desc->key), "i" (__MARKER_BRANCH), "i" (desc),
		     "i" (name), "i" (fmt), "i" (kind) : : l_yes);

	return false;
l_yes:
	return true;
}

/* The x86-64 ABI's va_list, over arguments stored in memory. */
struct __marker_va_list {
	unsigned int gp_offset;		/* 48: no argument register left */
	unsigned int fp_offset;		/* 304: no vector register left */
	void *overflow_arg_area;	/* the arguments, 8 bytes each */
	void *reg_save_area;
};

/*
 * The call of an armed MARK() site, with preemption disabled: @args is an
 * array of the promoted arguments. See the comment at the top.
 */
#define arch_marker_call(desc, fmt, args)				\
do {									\
	struct __marker_va_list __marker_va __uninitialized;		\
	void *__marker_di = READ_ONCE((desc)->data);			\
	const char *__marker_si = (fmt);				\
	void *__marker_dx = &__marker_va;				\
									\
	/* reg_save_area: never read, with gp_offset at its end. */	\
	__marker_va.gp_offset = 48;					\
	__marker_va.fp_offset = 304;					\
	__marker_va.overflow_arg_area = (args);				\
	asm volatile("1:\tcall __marker_slowpath\n\t"			\
		     ".pushsection __marker_calls, \"a\"\n\t"		\
		     ".balign 4\n\t"					\
		     ".long 1b - .\n\t"					\
		     ".long %c[d] - .\n\t"				\
		     ".popsection"					\
		     : "+D" (__marker_di), "+S" (__marker_si),		\
		       "+d" (__marker_dx), ASM_CALL_CONSTRAINT		\
		     : [d] "i" (desc)					\
		     : "rax", "rcx", "r8", "r9", "r10", "r11", "memory", "cc"); \
} while (0)

#endif /* _ASM_X86_MARKER_H */
