/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_SDT_DECODE_H
#define _ASM_X86_SDT_DECODE_H

/*
 * x86-64's part of decoding SDT operand specs ("-4@%edi 8@16(%rsp)"):
 * what an AT&T operand decodes to (arch/x86/kernel/sdt.c), and how a hit
 * reads it. Included by <linux/sdt-decode.h>, which has the rest.
 */

#include <linux/percpu.h>
#include <linux/processor.h>
#include <asm/ptrace.h>

/* One argument: where it is, and how wide it is. */
struct sdt_arg {
	u8 kind;		/* enum sdt_arg_kind */
	s8 size;		/* N of N@OP: 1, 2, 4, 8, negative when signed */
	u8 reg;			/* REG: pt_regs slot; MEM: base slot or SDT_NO_REG */
	u8 shift;		/* REG: 8 for %ah, %bh, %ch, %dh */
	u8 index;		/* MEM: index slot or SDT_NO_REG */
	u8 scale;		/* MEM: 1, 2, 4 or 8 */
	u8 gs;			/* MEM: %gs:, on SMP this CPU's per-CPU area */
	u8 sym;			/* MEM: the displacement is (or has) a symbol */
	s64 val;		/* MEM: displacement (or address); IMM: value */
};

/* The value of a register argument: a pt_regs slot, maybe its high byte. */
static __always_inline unsigned long arch_sdt_reg(const struct pt_regs *regs,
						  const struct sdt_arg *a)
{
	return ((const unsigned long *)regs)[a->reg] >> a->shift;
}

/*
 * The base of %gs: in the kernel. On SMP, this CPU's per-CPU offset. On UP
 * per-CPU variables are plain addresses and %gs: is not their segment:
 * it holds fixed_percpu_data (the stack protector's canary), as on SMP,
 * where that lies at offset 0 of the per-CPU area.
 */
static __always_inline unsigned long arch_sdt_gs_base(void)
{
#ifdef CONFIG_SMP
	return raw_cpu_read(this_cpu_off);
#else
	return cpu_kernelmode_gs_base(0);
#endif
}

/* The address of a memory argument. */
static __always_inline unsigned long arch_sdt_addr(const struct pt_regs *regs,
						   const struct sdt_arg *a)
{
	const unsigned long *r = (const unsigned long *)regs;
	unsigned long addr = a->val;

	if (a->reg != SDT_NO_REG)
		addr += r[a->reg];
	if (a->index != SDT_NO_REG)
		addr += r[a->index] * a->scale;
	if (a->gs)
		addr += arch_sdt_gs_base();
	return addr;
}

#ifdef CONFIG_HAVE_ARCH_MARKERS_SDT_CALL
/*
 * A thunk (sdt_thunk.c): at most this long, with every option on and 12
 * operands of the longest form; in the memory kprobes' slots take.
 */
#define SDT_THUNK_MAX		464
#define SDT_THUNK_EXECMEM	EXECMEM_KPROBES
#endif

/*
 * The SDT trampoline (sdt_trampoline_64.S) and what it calls: the struct
 * pt_regs it builds lies SDT_TRAMPOLINE_FRAME bytes below the site's
 * stack pointer (the frame, the saved flags and the return address).
 */
#define SDT_TRAMPOLINE_FRAME	(sizeof(struct pt_regs) + 16)
void arch_sdt_trampoline(void);
void sdt_trampoline_handler(struct pt_regs *regs);

#endif /* _ASM_X86_SDT_DECODE_H */
