/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_ARM64_SDT_H
#define _ASM_ARM64_SDT_H

/*
 * The arm64 side of an SDT site (<linux/sdt.h>): its NOP, the width of an
 * address in its .note.stapsdt note, and how an argument is written in
 * its spec: "N@OP", OP as sys/sdt.h writes it on aarch64: "x0", "w1",
 * "[sp, 16]", "[x2]", "5". Included by <linux/sdt.h> only.
 */

#ifdef __ASSEMBLY__

#define ARCH_SDT_NOP		nop
#define ARCH_SDT_ADDR		.8byte

#else /* !__ASSEMBLY__ */

#define ARCH_SDT_NOP		"nop"
#define ARCH_SDT_ADDR		".8byte"

/*
 * An argument's operand: "nr", an immediate or a register. sys/sdt.h
 * asks for "nor", but GCC writes a global in memory as the low bits of
 * a section anchor, "[x23, #:lo12:.LANCHOR2]", whose symbol no symbol
 * table holds: the site could not be decoded. A global is loaded into a
 * register instead, one instruction at the site.
 */
#define ARCH_SDT_ARG_CONSTRAINT	"nr"

/*
 * The spec of argument @i, from the asm operands [__sdt_s<i>] (its size,
 * negative when signed) and [__sdt_a<i>] (the operand): aarch64 prints an
 * immediate without '#', a register by the width of its value.
 */
#define ARCH_SDT_ARG_TMPL(i)	"%c[__sdt_s" #i "]@%[__sdt_a" #i "]"

#endif /* __ASSEMBLY__ */

#endif /* _ASM_ARM64_SDT_H */
