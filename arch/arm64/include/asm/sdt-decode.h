/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_ARM64_SDT_DECODE_H
#define _ASM_ARM64_SDT_DECODE_H

/*
 * arm64's part of decoding SDT operand specs ("-4@w0 8@[sp, 16] 4@5"):
 * what an operand decodes to (arch/arm64/kernel/sdt.c), and how a hit
 * reads it, from the site's thunk (arch/arm64/kernel/sdt_thunk.c) or
 * kprobe. Included by <linux/sdt-decode.h>, which has the rest.
 */

#include <asm/ptrace.h>

#define SDT_REG_SP	31	/* in a register's slot: sp */

/* One argument: where it is, and how wide it is. */
struct sdt_arg {
	u8 kind;		/* enum sdt_arg_kind */
	s8 size;		/* N of N@OP: 1, 2, 4, 8, negative when signed */
	u8 reg;			/* REG: 0-30 or SDT_REG_SP; MEM: base or SDT_NO_REG */
	u8 sym;			/* MEM: the displacement is (or has) a symbol */
	s64 val;		/* MEM: displacement (or address); IMM: value */
};

/* The value of register @reg: x0-x30, or sp. */
static __always_inline unsigned long __arch_sdt_reg(const struct pt_regs *regs,
						    u8 reg)
{
	return reg == SDT_REG_SP ? regs->sp : regs->regs[reg];
}

/* The value of a register argument. */
static __always_inline unsigned long arch_sdt_reg(const struct pt_regs *regs,
						  const struct sdt_arg *a)
{
	return __arch_sdt_reg(regs, a->reg);
}

/* The address of a memory argument. */
static __always_inline unsigned long arch_sdt_addr(const struct pt_regs *regs,
						   const struct sdt_arg *a)
{
	return a->val + (a->reg == SDT_NO_REG ? 0 : __arch_sdt_reg(regs, a->reg));
}

/*
 * A thunk (sdt_thunk.c): at most this long, its data and its code with 12
 * operands of the longest form; where module text goes, in reach of a B.
 */
#define SDT_THUNK_MAX		1024
#define SDT_THUNK_EXECMEM	EXECMEM_MODULE_TEXT

#endif /* _ASM_ARM64_SDT_DECODE_H */
