/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_SDT_DECODE_H
#define _ASM_X86_SDT_DECODE_H

/*
 * Decoding the sized operand specs of SDT sites ("-4@%edi 8@16(%rsp)"),
 * for the markers registry; the sites themselves are <asm/sdt.h>'s.
 * arch_sdt_parse() turns a spec into a compact program once, when a site
 * is armed; arch_sdt_fetch() runs it at each hit, from the trampoline's
 * handler (or the site's kprobe, when that mechanism is selected).
 */

#include <linux/sdt.h>
#include <linux/types.h>

struct pt_regs;

enum sdt_arg_kind {
	SDT_ARG_REG = 1,	/* a register (of any width) */
	SDT_ARG_MEM,		/* [%gs:]disp(base, index, scale), symbols resolved */
	SDT_ARG_IMM,		/* $immediate */
};

#define SDT_NO_REG	0xff

/* One argument: where it is, and how wide it is. */
struct sdt_arg {
	u8 kind;		/* enum sdt_arg_kind */
	s8 size;		/* N of N@OP: 1, 2, 4, 8, negative when signed */
	u8 reg;			/* REG: pt_regs slot; MEM: base slot or SDT_NO_REG */
	u8 shift;		/* REG: 8 for %ah, %bh, %ch, %dh */
	u8 index;		/* MEM: index slot or SDT_NO_REG */
	u8 scale;		/* MEM: 1, 2, 4 or 8 */
	u8 gs;			/* MEM: %gs:, an address in this CPU's per-CPU area */
	u8 sym;			/* MEM: the displacement is (or has) a symbol */
	s64 val;		/* MEM: displacement (or address); IMM: value */
};

struct sdt_prog {
	unsigned int nargs;
	const char *why;	/* a parse that failed: why, in one word */
	struct sdt_arg arg[SDT_MAX_ARGS];
};

/*
 * Resolves a symbol of an operand for the site being parsed; returns 0
 * when the symbol is unknown or ambiguous.
 */
typedef unsigned long sdt_sym_resolver(void *ctx, const char *sym);

/*
 * The SDT trampoline (sdt_trampoline_64.S) and what it calls: the struct
 * pt_regs it builds lies SDT_TRAMPOLINE_FRAME bytes below the site's
 * stack pointer (the frame, the saved flags and the return address).
 */
#define SDT_TRAMPOLINE_FRAME	(sizeof(struct pt_regs) + 16)
void arch_sdt_trampoline(void);
void sdt_trampoline_handler(struct pt_regs *regs);

/* @v, of @size bytes (negative: signed), extended to 64 bits. */
static __always_inline u64 sdt_arg_extend(u64 v, s8 size)
{
	unsigned int bits = (size < 0 ? -size : size) * 8;

	if (bits == 64)
		return v;
	v &= (1ULL << bits) - 1;
	if (size < 0 && (v & (1ULL << (bits - 1))))
		v |= ~0ULL << bits;
	return v;
}

int arch_sdt_parse(const char *spec, struct sdt_prog *prog,
		   sdt_sym_resolver *resolve, void *ctx);
unsigned int arch_sdt_fetch(const struct sdt_prog *prog, struct pt_regs *regs,
			    u64 *args);

/*
 * Per-site thunks (sdt_thunk.c): what an armed site's thunk calls, and
 * with what. The call is func(data, args, nargs), as an sdt_probe_func.
 */
struct sdt_thunk_call {
	void *func;			/* the probe, or an iterator */
	void *data;			/* its first argument */
	const bool *live;		/* CONFIG_PREEMPTION: call while true */
	unsigned long __percpu *hits;	/* counted at each call */
};

const char *arch_sdt_thunk_why(const struct sdt_prog *prog);
void *arch_sdt_thunk_make(const struct sdt_prog *prog,
			  const struct sdt_thunk_call *call);
void arch_sdt_thunk_free(void *code);

#endif /* _ASM_X86_SDT_DECODE_H */
