// SPDX-License-Identifier: GPL-2.0
/*
 * SDT sites on x86-64: per-site thunks.
 *
 * A thunk is the code one armed SDT site calls instead of the shared
 * trampoline (sdt_trampoline_64.S): emitted when the site is armed,
 * from its decoded spec, into a buffer for the slot of a pack of
 * executable memory the registry took for it (kernel/markers/sdt_thunk.c),
 * which writes it there with text_poke, as kprobes' instruction slots
 * are written. Where the
 * trampoline saves all 15 registers into a struct pt_regs, finds the site
 * in a hash table and runs sdt_fetch() over its program, a thunk
 * does only what this one site needs:
 *
 *	push	%rbp			a frame: the ORC unwinder takes
 *	mov	%rsp, %rbp		 generated code for frame-pointer code
 *	pushfq				an asm site may sit between a compare
 *	clac				 and its jump, or in a uaccess region
 *	push	%rax ... %r11		the caller-saved registers, 9
 *	sub	$8 * nargs, %rsp	the u64 args[] the probe gets
 *	...				each operand, straight into its slot
 *	incl	%gs:preempt_count	(CONFIG_PREEMPT_COUNT, and then skip
 *	...				 the call once the thunk is retired:
 *					 sdt_thunk_gate()'s rule, see below)
 *	incq	%gs:hits		the site's hit counter
 *	mov	$data, %rdi
 *	mov	%rsp, %rsi
 *	mov	$nargs, %edx
 *	call	func			a direct call: the single probe, or
 *					 the iterator over several
 *	decl	%gs:preempt_count	(and preempt_schedule_notrace())
 *	add	$8 * nargs, %rsp
 *	pop	%r11 ... %rax
 *	popfq
 *	pop	%rbp
 *	ret
 *
 * No hash lookup, no operand interpreter, no indirect call.
 *
 * What a thunk cannot encode gets the trampoline (arch_sdt_thunk_why()
 * says why): a memory operand through a register other than %rsp. The
 * trampoline reads memory with copy_from_kernel_nofault() and counts a
 * fault; generated code has no exception table entry, so a bad pointer
 * there would oops. Stack slots (through %rsp), symbols resolved when the
 * site is armed and, on SMP, %gs: per-CPU symbols cannot fault.
 *
 * On UP (no CONFIG_SMP) per-CPU variables are plain addresses: the hit
 * counter and the preempt count are not %gs:-relative there, and a %gs:
 * operand is no per-CPU variable (arch_sdt_gs_base()), so it gets the
 * trampoline.
 *
 * The thunk is reached by a direct CALL (so no ENDBR: IBT only checks
 * indirect branches) and calls directly (kCFI only checks indirect
 * calls), through the callee's call thunk when call depth tracking is on.
 * Like the trampoline, it returns with a plain RET under call depth
 * tracking: that return thunk changes the flags after POPF; the site's
 * CALL is unaccounted as well, so the two match. Otherwise it returns
 * through the return thunk.
 *
 * Lifetime. A task may be in a thunk the site no longer calls: preempted
 * there (CONFIG_PREEMPTION), or interrupted before the thunk raised the
 * preempt count (its operand loads) or after it lowered it, where the
 * count is zero, so that the tick may report a quiescent state for RCU
 * (with CONFIG_PREEMPT_COUNT, whatever the preemption model). Neither is
 * a voluntary context switch: the thunk's memory goes after an RCU-tasks
 * grace period (sdt_thunks_kill()), which the registry waits for
 * with or without CONFIG_PREEMPTION. Its
 * probe may not be called once the registry has detached it and a normal
 * grace period has passed, so with CONFIG_PREEMPT_COUNT the thunk tests
 * its *live flag with the preempt count raised, and the registry clears
 * the flag before that grace period. Without CONFIG_PREEMPT_COUNT the
 * tick reports no quiescent state in kernel code, and the whole thunk is
 * an RCU read side.
 */

#include <kunit/static_stub.h>
#include <kunit/visibility.h>
#include <linux/bug.h>
#include <linux/cpufeature.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/memory.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sdt-decode.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <asm/alternative.h>
#include <asm/current.h>
#include <asm/nospec-branch.h>
#include <asm/text-patching.h>

/*
 * The longest thunk, with every option on (SMAP, the preempt count and
 * the live flag, preempt_schedule_notrace(), the return thunk): 28 bytes
 * before the operands, 102 after them, and 12 operands of the longest
 * form, 27 bytes each: a signed 1- or 2-byte load of a %gs: symbol
 * (movabs 10, the load 9, the store 8).
 */
#define SDT_THUNK_FIXED_MAX	(28 + 102)
#define SDT_THUNK_ARG_MAX	27
static_assert(SDT_THUNK_FIXED_MAX + SDT_MAX_ARGS * SDT_THUNK_ARG_MAX <= SDT_THUNK_MAX);

/* x86 register numbers, as ModRM and REX encode them. */
enum { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9, R10, R11 };

/* The caller-saved registers, in the order the thunk pushes them. */
static const u8 sdt_thunk_saved[] = { RAX, RCX, RDX, RSI, RDI, R8, R9, R10, R11 };

/* Bytes the thunk has below the site's %rsp: return address, %rbp, flags. */
#define SDT_THUNK_ABOVE_REGS	24

/* A thunk being emitted; @err is sticky: the first error stays. */
struct sdt_emit {
	u8 *buf;		/* the thunk being generated */
	u8 *code;		/* where it will run */
	unsigned int len;
	unsigned int nargs;
	int err;
};

/* The x86 register of a pt_regs slot (sdt_parse()'s numbering). */
static int sdt_slot_reg(unsigned int slot)
{
	static const struct { u8 off, reg; } map[] = {
#define M(f, r) { offsetof(struct pt_regs, f) / sizeof(long), r }
		M(ax, RAX), M(cx, RCX), M(dx, RDX), M(bx, RBX),
		M(sp, RSP), M(bp, RBP), M(si, RSI), M(di, RDI),
		M(r8, R8), M(r9, R9), M(r10, R10), M(r11, R11),
		M(r12, 12), M(r13, 13), M(r14, 14), M(r15, 15),
#undef M
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(map); i++)
		if (map[i].off == slot)
			return map[i].reg;
	return -1;
}

static void emit(struct sdt_emit *e, const u8 *bytes, unsigned int n)
{
	if (WARN_ON_ONCE(e->len + n > SDT_THUNK_MAX)) {
		e->err = e->err ?: -E2BIG;
		return;
	}
	memcpy(e->buf + e->len, bytes, n);
	e->len += n;
}

#define EMIT(e, ...)	emit(e, (const u8[]){ __VA_ARGS__ }, sizeof((u8[]){ __VA_ARGS__ }))

static void emit32(struct sdt_emit *e, s32 v)
{
	emit(e, (const u8 *)&v, sizeof(v));
}

static void emit64(struct sdt_emit *e, u64 v)
{
	emit(e, (const u8 *)&v, sizeof(v));
}

/* REX with W, and R and B from the high bit of @reg and @base; if any. */
static void emit_rex(struct sdt_emit *e, bool w, int reg, int base)
{
	u8 rex = 0x40 | (w << 3) | ((reg & 8) >> 1) | ((base & 8) >> 3);

	if (rex != 0x40)
		EMIT(e, rex);
}

/* ModRM (and SIB) for @reg and disp32(@base). */
static void emit_mem(struct sdt_emit *e, int reg, int base, s32 disp)
{
	EMIT(e, 0x80 | ((reg & 7) << 3) | (base & 7));
	if ((base & 7) == RSP)
		EMIT(e, 0x24);		/* SIB: no index, base %rsp/%r12 */
	emit32(e, disp);
}

/* The offset of the slot of saved register @reg from %rsp while fetching. */
static s32 sdt_saved_off(const struct sdt_emit *e, int reg)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sdt_thunk_saved); i++)
		if (sdt_thunk_saved[i] == reg)
			return 8 * e->nargs + 8 * (ARRAY_SIZE(sdt_thunk_saved) - 1 - i);
	return -1;
}

/* The offset of the site's %rsp from %rsp while fetching. */
static s32 sdt_site_sp_off(const struct sdt_emit *e)
{
	return 8 * e->nargs + 8 * ARRAY_SIZE(sdt_thunk_saved) +
	       SDT_THUNK_ABOVE_REGS;
}

/*
 * Load @size bytes (negative: signed) into %rax, extended to 64 bits,
 * from disp(@base), or from %rax itself when @base is -1. @gs: per-CPU.
 */
static void emit_load(struct sdt_emit *e, s8 size, int base, s32 disp, bool gs)
{
	bool w = size < 0 || size == 8;
	int b = base < 0 ? RAX : base;

	if (gs)
		EMIT(e, 0x65);
	emit_rex(e, w, RAX, b);
	switch (size) {
	case 8:
	case -8:
	case 4:
		EMIT(e, 0x8b);			/* mov */
		break;
	case -4:
		EMIT(e, 0x63);			/* movsxd */
		break;
	case 2:
		EMIT(e, 0x0f, 0xb7);		/* movzwl */
		break;
	case -2:
		EMIT(e, 0x0f, 0xbf);		/* movswq */
		break;
	case 1:
		EMIT(e, 0x0f, 0xb6);		/* movzbl */
		break;
	case -1:
		EMIT(e, 0x0f, 0xbe);		/* movsbq */
		break;
	}
	if (base < 0)
		EMIT(e, 0xc0);			/* mod 11, %rax, %rax */
	else
		emit_mem(e, RAX, b, disp);
}

/* Store %rax, or register @reg, into argument slot @i. */
static void emit_store(struct sdt_emit *e, unsigned int i, int reg)
{
	emit_rex(e, true, reg, RSP);
	EMIT(e, 0x89);
	emit_mem(e, reg, RSP, 8 * i);
}

/* movabs $@v, %rax */
static void emit_movabs(struct sdt_emit *e, int reg, u64 v)
{
	emit_rex(e, true, 0, reg);
	EMIT(e, 0xb8 | (reg & 7));
	emit64(e, v);
}

/* Argument @i, from @a, into its slot. */
static void emit_arg(struct sdt_emit *e, unsigned int i, const struct sdt_arg *a)
{
	int reg;

	switch (a->kind) {
	case SDT_ARG_IMM:
		emit_movabs(e, RAX, sdt_arg_extend(a->val, a->size));
		emit_store(e, i, RAX);
		return;
	case SDT_ARG_REG:
		reg = sdt_slot_reg(a->reg);
		if (abs(a->size) == 8 && reg != RSP && reg != RAX && reg != RBP) {
			/* Straight from the register into its slot. */
			emit_store(e, i, reg);
			return;
		}
		if (reg == RSP) {
			/* lea site_sp(%rsp), %rax */
			EMIT(e, 0x48, 0x8d);
			emit_mem(e, RAX, RSP, sdt_site_sp_off(e));
		} else if (reg == RAX || reg == RBP) {
			/* Changed by now: from its slot. */
			EMIT(e, 0x48, 0x8b);
			emit_mem(e, RAX, RSP, reg == RAX ? sdt_saved_off(e, RAX) :
					      sdt_site_sp_off(e) - 16);
		} else {
			emit_rex(e, true, reg, RAX);
			EMIT(e, 0x89, 0xc0 | ((reg & 7) << 3));	/* mov %reg, %rax */
		}
		if (a->shift)
			EMIT(e, 0x48, 0xc1, 0xe8, a->shift);	/* shr $8, %rax */
		if (abs(a->size) != 8)
			emit_load(e, a->size, -1, 0, false);
		emit_store(e, i, RAX);
		return;
	case SDT_ARG_MEM:
		if (a->reg == SDT_NO_REG) {
			emit_movabs(e, RAX, a->val);
			emit_load(e, a->size, RAX, 0, a->gs);
		} else {
			emit_load(e, a->size, RSP, sdt_site_sp_off(e) + a->val,
				  false);
		}
		emit_store(e, i, RAX);
		return;
	}
}

/*
 * A direct call or jump (@op) from the current end of the thunk to @dest;
 * -ERANGE if out of reach.
 */
static void emit_branch(struct sdt_emit *e, u8 op, void *dest)
{
	s64 rel = (s64)(unsigned long)dest -
		  (s64)(unsigned long)(e->code + e->len + 5);

	if (rel != (s32)rel) {
		e->err = e->err ?: -ERANGE;
		return;
	}
	EMIT(e, op);
	emit32(e, rel);
}

/* A direct call of @func, through its call thunk if it has one. */
static void emit_call(struct sdt_emit *e, void *func)
{
	mutex_lock(&text_mutex);
	func = callthunks_translate_call_dest(func);
	mutex_unlock(&text_mutex);
	emit_branch(e, CALL_INSN_OPCODE, func);
}

/*
 * A short forward jump on condition @cc (0x4: zero, 0x5: not zero), to
 * the label emit_label() sets: the offset its displacement ends at.
 */
static unsigned int emit_jcc_fwd(struct sdt_emit *e, u8 cc)
{
	EMIT(e, 0x70 | cc, 0);
	return e->len;
}

static void emit_label(struct sdt_emit *e, unsigned int from)
{
	unsigned int rel = e->len - from;

	if (e->err || !from)
		return;
	if (WARN_ON_ONCE(rel > S8_MAX)) {
		e->err = -E2BIG;
		return;
	}
	e->buf[from - 1] = rel;
}

/*
 * The per-CPU segment prefix of the thunk's own per-CPU accesses (its hit
 * counter, the preempt count): none on UP, where they are plain addresses.
 */
static void emit_percpu(struct sdt_emit *e)
{
	if (IS_ENABLED(CONFIG_SMP))
		EMIT(e, 0x65);
}

/*
 * The preempt count, as a disp32 after emit_percpu(): its offset in this
 * CPU's area on SMP; on UP its address, in the kernel image, which the
 * kernel code model puts in the top 2 GB, where a sign-extended disp32
 * reaches.
 */
static s32 sdt_preempt_count_off(void)
{
	return (s32)(__force unsigned long)&pcpu_hot.preempt_count;
}

/**
 * arch_sdt_thunk_why - can a site's program be a thunk?
 * @prog: the program, from sdt_parse()
 *
 * Return: NULL if it can, or why not, in one word: a memory operand
 * through a register other than %rsp, or with an index, or one through
 * %gs: on UP, which a thunk could not read without the risk of a fault.
 */
const char *arch_sdt_thunk_why(const struct sdt_prog *prog)
{
	unsigned int i;

	for (i = 0; i < prog->nargs; i++) {
		const struct sdt_arg *a = &prog->arg[i];

		if (a->kind != SDT_ARG_MEM)
			continue;
		if (a->index != SDT_NO_REG)
			return "memory_index";
		if (a->reg == SDT_NO_REG && !a->sym)
			return "memory_absolute";
		if (a->gs && !IS_ENABLED(CONFIG_SMP))
			return "memory_gs_up";
		if (a->reg != SDT_NO_REG &&
		    (a->gs || sdt_slot_reg(a->reg) != RSP ||
		     a->val != (s32)a->val))
			return "memory_register";
	}
	return NULL;
}

/*
 * Prologue: a frame, the flags, the caller-saved registers and the
 * args[] the probe gets.
 */
static void emit_prologue(struct sdt_emit *e)
{
	unsigned int i;

	EMIT(e, 0x55);				/* push %rbp */
	EMIT(e, 0x48, 0x89, 0xe5);		/* mov %rsp, %rbp */
	EMIT(e, 0x9c);				/* pushfq */
	if (cpu_feature_enabled(X86_FEATURE_SMAP))
		EMIT(e, 0x0f, 0x01, 0xca);	/* clac */
	for (i = 0; i < ARRAY_SIZE(sdt_thunk_saved); i++) {
		emit_rex(e, false, 0, sdt_thunk_saved[i]);
		EMIT(e, 0x50 | (sdt_thunk_saved[i] & 7));	/* push */
	}
	if (e->nargs) {
		EMIT(e, 0x48, 0x81, 0xec);	/* sub $imm32, %rsp */
		emit32(e, 8 * e->nargs);
	}
}

/*
 * The gate (the rule sdt_thunk_gate() states): raise the preempt count
 * and skip the call once the thunk is retired. Returns the label to set
 * past the call, 0 without CONFIG_PREEMPT_COUNT.
 */
static unsigned int emit_gate(struct sdt_emit *e, const struct sdt_thunk_call *call)
{
	if (!IS_ENABLED(CONFIG_PREEMPT_COUNT))
		return 0;
	emit_percpu(e);
	EMIT(e, 0xff, 0x04, 0x25);		/* incl %gs:pc */
	emit32(e, sdt_preempt_count_off());
	emit_movabs(e, RAX, (unsigned long)call->live);
	EMIT(e, 0x80, 0x38, 0x00);		/* cmpb $0, (%rax) */
	return emit_jcc_fwd(e, 0x4);		/* je skip */
}

/* The hit counted, and the call: func(data, args, nargs). */
static void emit_probe_call(struct sdt_emit *e, const struct sdt_thunk_call *call)
{
	emit_movabs(e, RAX, (__force unsigned long)call->hits);
	emit_percpu(e);
	EMIT(e, 0x48, 0xff, 0x00);		/* incq %gs:(%rax) */
	emit_movabs(e, RDI, (unsigned long)call->data);
	EMIT(e, 0x48, 0x89, 0xe6);		/* mov %rsp, %rsi */
	EMIT(e, 0xba);				/* mov $nargs, %edx */
	emit32(e, e->nargs);
	emit_call(e, call->func);
}

/* The gate's end: preempt_enable_notrace(). */
static void emit_gate_end(struct sdt_emit *e, unsigned int skip)
{
	unsigned int resched;

	emit_label(e, skip);
	if (!IS_ENABLED(CONFIG_PREEMPT_COUNT))
		return;
	emit_percpu(e);
	EMIT(e, 0xff, 0x0c, 0x25);		/* decl %gs:pc */
	emit32(e, sdt_preempt_count_off());
	if (!IS_ENABLED(CONFIG_PREEMPTION))
		return;
	/* Zero means a reschedule is due. */
	resched = emit_jcc_fwd(e, 0x5);		/* jnz done */
#ifdef CONFIG_PREEMPT_DYNAMIC
	emit_call(e, (void *)STATIC_CALL_TRAMP_ADDR(preempt_schedule_notrace));
#elif defined(CONFIG_PREEMPTION)
	emit_call(e, (void *)preempt_schedule_notrace);
#endif
	emit_label(e, resched);
}

/* Epilogue: everything the prologue saved, back, and the return. */
static void emit_epilogue(struct sdt_emit *e)
{
	unsigned int i;

	if (e->nargs) {
		EMIT(e, 0x48, 0x81, 0xc4);	/* add $imm32, %rsp */
		emit32(e, 8 * e->nargs);
	}
	for (i = ARRAY_SIZE(sdt_thunk_saved); i--; ) {
		emit_rex(e, false, 0, sdt_thunk_saved[i]);
		EMIT(e, 0x58 | (sdt_thunk_saved[i] & 7));	/* pop */
	}
	EMIT(e, 0x9d);				/* popfq */
	EMIT(e, 0x5d);				/* pop %rbp */
	if (!cpu_feature_enabled(X86_FEATURE_CALL_DEPTH) &&
	    cpu_feature_enabled(X86_FEATURE_RETHUNK))
		emit_branch(e, JMP32_INSN_OPCODE, (void *)x86_return_thunk);
	else
		EMIT(e, RET_INSN_OPCODE, INT3_INSN_OPCODE);
}

/**
 * arch_sdt_thunk_emit - emit the thunk of an armed SDT site
 * @prog: the site's program; arch_sdt_thunk_why() must accept it
 * @call: what the thunk calls, and with what
 * @img: where to emit it, and where it will run
 *
 * Return: 0, with @img's length set (the code starts at its slot), or
 * -ERANGE when what it calls is out of reach of a direct call from its
 * slot, -E2BIG if it outgrew SDT_THUNK_MAX (a bug), -EINVAL for a
 * program arch_sdt_thunk_why() refuses.
 */
int arch_sdt_thunk_emit(const struct sdt_prog *prog,
			const struct sdt_thunk_call *call,
			struct sdt_thunk_image *img)
{
	struct sdt_emit e = {
		.buf = img->buf,
		.code = (u8 *)img->at,
		.nargs = prog->nargs,
	};
	unsigned int i, skip;

	/* A test may refuse it (markers_sdt: no executable memory). */
	KUNIT_STATIC_STUB_REDIRECT(arch_sdt_thunk_emit, prog, call, img);
	if (WARN_ON_ONCE(arch_sdt_thunk_why(prog)))
		return -EINVAL;
	emit_prologue(&e);
	for (i = 0; i < e.nargs; i++)
		emit_arg(&e, i, &prog->arg[i]);
	skip = emit_gate(&e, call);
	emit_probe_call(&e, call);
	emit_gate_end(&e, skip);
	emit_epilogue(&e);
	if (e.err)
		return e.err;
	img->len = e.len;
	img->entry = 0;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(arch_sdt_thunk_emit);

/**
 * arch_sdt_thunk_write - write a thunk's bytes into its slot
 * @dst: the slot, read-only and executable
 * @src: the bytes
 * @len: how many
 *
 * As kprobes write an instruction slot; the slot held traps.
 */
void arch_sdt_thunk_write(void *dst, const void *src, size_t len)
{
	text_poke_copy(dst, src, len);
}
EXPORT_SYMBOL_IF_KUNIT(arch_sdt_thunk_write);

/**
 * arch_sdt_thunk_invalidate - fill thunk memory with traps
 * @dst: read-only and executable memory of a pack
 * @len: how many bytes
 */
void arch_sdt_thunk_invalidate(void *dst, size_t len)
{
	text_poke_set(dst, INT3_INSN_OPCODE, len);
}
