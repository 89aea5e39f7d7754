/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_ARM64_SDT_DECODE_H
#define _ASM_ARM64_SDT_DECODE_H

/*
 * Decoding the sized operand specs of arm64 SDT sites ("-4@w0 8@[sp, 16]
 * 4@5"), for the markers registry; the sites themselves are <asm/sdt.h>'s.
 * arch_sdt_parse() turns a spec into a compact program once, when a site
 * is armed; arch_sdt_fetch() runs it at each hit, from the site's kprobe.
 *
 * arm64 arms SDT sites by kprobes only: no trampoline and no thunk (see
 * arch/arm64/kernel/marker.c), so the thunk interface below refuses.
 */

#include <linux/err.h>
#include <linux/sdt.h>
#include <linux/types.h>

struct pt_regs;

enum sdt_arg_kind {
	SDT_ARG_REG = 1,	/* xN or wN, or sp */
	SDT_ARG_MEM,		/* [base, disp] or a symbol's address + disp */
	SDT_ARG_IMM,		/* an immediate */
};

#define SDT_NO_REG	0xff
#define SDT_REG_SP	31	/* in a register's slot: sp */

/* One argument: where it is, and how wide it is. */
struct sdt_arg {
	u8 kind;		/* enum sdt_arg_kind */
	s8 size;		/* N of N@OP: 1, 2, 4, 8, negative when signed */
	u8 reg;			/* REG: 0-30 or SDT_REG_SP; MEM: base or SDT_NO_REG */
	u8 sym;			/* MEM: the displacement is (or has) a symbol */
	s64 val;		/* MEM: displacement (or address); IMM: value */
};

struct sdt_prog {
	unsigned int nargs;
	const char *why;	/* a parse that failed: why, in a few words */
	struct sdt_arg arg[SDT_MAX_ARGS];
};

/*
 * Resolves a symbol of an operand for the site being parsed; returns 0
 * when the symbol is unknown or ambiguous.
 */
typedef unsigned long sdt_sym_resolver(void *ctx, const char *sym);

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

/* Per-site thunks: none on arm64 (see the top). */
struct sdt_thunk_call {
	void *func;
	void *data;
	const bool *live;
	unsigned long __percpu *hits;
};

static inline const char *arch_sdt_thunk_why(const struct sdt_prog *prog)
{
	return "no thunks on arm64";
}

static inline void *arch_sdt_thunk_make(const struct sdt_prog *prog,
					const struct sdt_thunk_call *call)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static inline void arch_sdt_thunk_free(void *code)
{
}

#endif /* _ASM_ARM64_SDT_DECODE_H */
