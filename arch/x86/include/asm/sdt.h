/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_SDT_H
#define _ASM_X86_SDT_H

/*
 * The x86 side of an SDT site (<linux/sdt.h>): its 5-byte NOP, the width
 * of an address in its .note.stapsdt note, and how an argument is written
 * in its spec: "N@OP", OP in AT&T syntax, as sys/sdt.h writes it on
 * x86-64. Included by <linux/sdt.h> only.
 */

#ifdef __ASSEMBLY__

#define ARCH_SDT_NOP		.byte 0x0f, 0x1f, 0x44, 0x00, 0x00
#define ARCH_SDT_ADDR		.8byte

#else /* !__ASSEMBLY__ */

#define ARCH_SDT_NOP		".byte 0x0f, 0x1f, 0x44, 0x00, 0x00"
#define ARCH_SDT_ADDR		".8byte"

/*
 * An argument's operand: "nor", an immediate, an offsettable memory
 * reference or a register, as sys/sdt.h asks, so that GCC names a value
 * where it already is. clang (14 at least) takes the memory alternative
 * whenever one is allowed, and would spill live registers to the stack
 * at every site: it gets "nr", an immediate or a register.
 */
#ifdef CONFIG_CC_IS_CLANG
#define ARCH_SDT_ARG_CONSTRAINT	"nr"
#else
#define ARCH_SDT_ARG_CONSTRAINT	"nor"
#endif

/*
 * The spec of argument @i, from the asm operands [__sdt_s<i>] (its size,
 * negative when signed) and [__sdt_a<i>] (the operand): %c prints the
 * size without its '$', %[] the operand as AT&T syntax has it.
 */
#define ARCH_SDT_ARG_TMPL(i)	"%c[__sdt_s" #i "]@%[__sdt_a" #i "]"

#endif /* __ASSEMBLY__ */

#endif /* _ASM_X86_SDT_H */
