/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SDT_DECODE_H
#define _LINUX_SDT_DECODE_H

/*
 * Decoding the sized operand specs of SDT sites ("N@OP N@OP ..."), for the
 * markers registry; the sites themselves are <linux/sdt.h>'s.
 *
 * sdt_parse() (kernel/markers/sdt_decode.c) turns a spec into a compact
 * program once, when a site is armed: it splits the spec, checks each
 * size and leaves each operand to the arch's arch_sdt_parse_op(), which
 * fills a struct sdt_arg of its own (<asm/sdt-decode.h>). sdt_fetch()
 * runs the program at each hit, from the site's thunk, trampoline or
 * kprobe, with the arch's arch_sdt_reg() and arch_sdt_addr().
 */

#include <linux/err.h>
#include <linux/sdt.h>
#include <linux/types.h>
#include <asm/local.h>

struct pt_regs;

enum sdt_arg_kind {
	SDT_ARG_REG = 1,	/* a register */
	SDT_ARG_MEM,		/* memory at an address, symbols resolved */
	SDT_ARG_IMM,		/* an immediate */
};

/* In a register slot of struct sdt_arg: no register. */
#define SDT_NO_REG	0xff

/*
 * struct sdt_arg, arch_sdt_reg() and arch_sdt_addr(). An arch's struct
 * sdt_arg has at least kind, size, sym and val, which the code here uses.
 */
#include <asm/sdt-decode.h>

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

const char *sdt_spec_next(const char *p, const char **end);
int sdt_spec_nargs(const char *spec);
int sdt_parse(const char *spec, struct sdt_prog *prog,
	      sdt_sym_resolver *resolve, void *ctx);
unsigned int sdt_fetch(const struct sdt_prog *prog, struct pt_regs *regs,
		       u64 *args);

/*
 * For the arch's operand parser: fail the parse of @prog saying why, read
 * a number in C notation, resolve a symbol plus or minus a number.
 */
int sdt_refuse(struct sdt_prog *prog, const char *why);
int sdt_parse_num(const char *p, size_t len, s64 *val);
int sdt_parse_sym(const char *p, size_t len, size_t n, struct sdt_arg *a,
		  struct sdt_prog *prog, sdt_sym_resolver *resolve, void *ctx);

/*
 * arch_sdt_parse_op - parse one operand, @len bytes at @p, into @a
 *
 * Returns 0, or sdt_refuse()'s -EINVAL with the reason.
 */
int arch_sdt_parse_op(const char *p, size_t len, struct sdt_arg *a,
		      struct sdt_prog *prog, sdt_sym_resolver *resolve,
		      void *ctx);

/*
 * Per-site thunks, on an arch that arms SDT sites with a call: what an
 * armed site's thunk calls, and with what. The call is
 * func(data, args, nargs), as an sdt_probe_func.
 */
struct sdt_thunk_call {
	void *func;			/* the probe, or an iterator */
	void *data;			/* its first argument */
	const bool *live;		/* CONFIG_PREEMPT_COUNT: call while true */
	local_t __percpu *hits;		/* counted at each call */
	atomic_t *faults;		/* memory operands that faulted */
	void *site;			/* the site: where a branch returns */
	unsigned int nargs;		/* the site's operands */
};

/*
 * The gate of every thunk: what a thunk does around its call, in C, for
 * the arch whose thunk calls it; one that does the same in its own code
 * follows the rule its kernel-doc states.
 */
void sdt_thunk_gate(const struct sdt_thunk_call *call, const u64 *args);

/*
 * A thunk being made: the arch emits it into @buf (SDT_THUNK_MAX bytes,
 * zeroed) as it will run at @at, the slot of executable memory the
 * registry took for it; the registry writes the @len bytes there as text.
 * Code may follow data the code reads: the site enters at @at + @entry.
 * Where a thunk runs and what it calls change none of its lengths: the
 * registry sizes it at its site's address first, before its probes are
 * known, then emits it again for its slot.
 */
struct sdt_thunk_image {
	u8 *buf;
	unsigned long at;
	unsigned int len;		/* set by the arch: bytes emitted */
	unsigned int entry;		/* set by the arch: where the code starts */
};

#ifdef CONFIG_HAVE_ARCH_MARKERS_SDT_CALL
const char *arch_sdt_thunk_why(const struct sdt_prog *prog);
int arch_sdt_thunk_emit(const struct sdt_prog *prog,
			const struct sdt_thunk_call *call,
			struct sdt_thunk_image *img);
void arch_sdt_thunk_write(void *dst, const void *src, size_t len);
void arch_sdt_thunk_invalidate(void *dst, size_t len);
#else
#define SDT_THUNK_MAX		16
#define SDT_THUNK_EXECMEM	EXECMEM_DEFAULT

static inline const char *arch_sdt_thunk_why(const struct sdt_prog *prog)
{
	return "no thunks on this arch";
}

static inline int arch_sdt_thunk_emit(const struct sdt_prog *prog,
				      const struct sdt_thunk_call *call,
				      struct sdt_thunk_image *img)
{
	return -EOPNOTSUPP;
}

static inline void arch_sdt_thunk_write(void *dst, const void *src, size_t len)
{
}

static inline void arch_sdt_thunk_invalidate(void *dst, size_t len)
{
}
#endif /* CONFIG_HAVE_ARCH_MARKERS_SDT_CALL */

#endif /* _LINUX_SDT_DECODE_H */
