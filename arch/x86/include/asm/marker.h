/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_MARKER_H
#define _ASM_X86_MARKER_H

/*
 * x86 marker sites: a jump label (NOP, patched to a jump to the out-of-line
 * call) plus a struct marker_site record in __markers, both emitted by the
 * same asm so that every copy of the site the compiler makes carries its
 * own record. The record uses only PC-relative offsets, as __jump_table
 * does, so it adds no relocation to a relocatable (KASLR) kernel.
 */

#include <linux/marker_site.h>
#include <asm/jump_label.h>

#define __MARKER_RECORD(kind)					\
	".pushsection __markers, \"a\"\n\t"			\
	".balign 4\n\t"						\
	".long 1b - .\n\t"		/* code */		\
	".long %c2 - .\n\t"		/* desc */		\
	".long %c3 - .\n\t"		/* name */		\
	".long %c4 - .\n\t"		/* format */		\
	".long " kind "\n\t"					\
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

/*
 * Is the site at @code patched into its jump (JMP rel8 or rel32), rather
 * than its NOP? For the registry's consistency checks.
 */
static inline bool arch_marker_site_jumps(const void *code)
{
	u8 op = *(const u8 *)code;

	return op == 0xe9 || op == 0xeb;
}

#endif /* _ASM_X86_MARKER_H */
