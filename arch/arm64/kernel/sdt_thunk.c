// SPDX-License-Identifier: GPL-2.0
/*
 * SDT sites on arm64: per-site thunks, generated.
 *
 * An armed SDT site is a B to a thunk of its own, generated from the
 * site's decoded spec when the site is armed, and again for each change
 * of its probes (the thunk calls its one probe directly), into executable
 * memory as the BPF JIT's programs are. A BL would overwrite x30, which the code
 * around the site may hold live, and a shared trampoline cannot know
 * where to branch back: hence one thunk per site, and no trampoline. The
 * thunk does only what its site needs:
 *
 *	stp	x0, x1, [sp, #-16]!	x0-x18 and x30: what C may change
 *	...
 *	stp	x18, x30, [sp, #-16]!
 *	ldr	x10, site		a frame record for the site, so that
 *	stp	x29, x10, [sp, #-16]!	 a probe's stack trace goes through
 *	mov	x29, sp			 the site's function
 *	mrs	x9, nzcv		the flags: an asm site may sit between
 *	stp	x9, xzr, [sp, #-16]!	 a compare and its branch
 *	sub	sp, sp, #8 * 12		the u64 args[] the probe gets
 *	...				each operand, straight into its slot
 *	adr	x0, call
 *	mov	x1, sp
 *	ldr	x16, sdt_thunk_gate
 *	blr	x16			(call, args)
 *	add	sp, sp, #8 * 12
 *	ldp	x9, xzr, [sp], #16
 *	msr	nzcv, x9
 *	ldp	x29, x10, [sp], #16
 *	ldp	x18, x30, [sp], #16
 *	...
 *	ldp	x0, x1, [sp], #16
 *	b	site + 4
 *
 * No operand interpreter: a register operand is one or two instructions
 * (x0-x18 and x30 read from their slots, x19-x28 as they are, since
 * nothing before the call changes them, x29 from the frame record), an
 * immediate a MOVZ and its MOVKs. A memory operand through sp or at a
 * symbol resolved when the site is armed is a load: a stack slot of the
 * site's frame, or a variable of the kernel or of the site's module,
 * cannot fault. Through any other register it may, and generated code
 * has no exception table entry: arm64_sdt_thunk_read() reads it with
 * copy_from_kernel_nofault() and counts a fault. So every operand form
 * the decoder takes gets a thunk.
 *
 * A B reaches +/-128 MB, so the thunk goes where module text goes (the
 * module region, within 128 MB of the kernel's text while it has room)
 * and its distance to the site is checked; a site out of its first
 * thunk's reach (a module in the 2 GB fallback region, say) is armed by
 * kprobes, and a change of its probes whose new thunk would be out of
 * reach is refused, or leaves the site in error if it only detaches
 * (kernel/markers/sdt.c).
 *
 * The thunk's slot, in a pack the registry shares among thunks
 * (kernel/markers/sdt_thunk.c), holds what the code reads, the literals
 * and the call to make (struct arm64_sdt_thunk), then the code. It is
 * emitted into a buffer and written through the text-patching fixmap
 * (arch_sdt_thunk_write()), before its site's B is written.
 *
 * The thunk is reached by a B and calls C through a BLR: the C it calls
 * begins with a BTI landing pad, and kCFI checks only calls that C makes.
 *
 * Lifetime: as on x86 (arch/x86/kernel/sdt_thunk.c), a task may be
 * preempted or interrupted inside a thunk, so its memory goes after an
 * RCU-tasks grace period (sdt_thunks_kill()). What the thunk's call
 * points to (the probe, the site's hit and fault counters) may go after a
 * normal grace period once the thunk is retired: sdt_thunk_gate() and
 * arm64_sdt_thunk_read() test the thunk's live flag with preemption
 * disabled before they touch any of it.
 */

#include <linux/bug.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sdt-decode.h>
#include <linux/sizes.h>
#include <linux/uaccess.h>
#include <kunit/static_stub.h>
#include <kunit/visibility.h>
#include <asm/insn.h>
#include <asm/patching.h>

/* What a thunk's code reads: at the start of its slot, before the code. */
struct arm64_sdt_thunk {
	u64 call_fn;		/* sdt_thunk_gate() */
	u64 read_fn;		/* arm64_sdt_thunk_read() */
	struct sdt_thunk_call call;	/* its site: for the frame record */
};

#define SDT_THUNK_CODE_OFF	ALIGN(sizeof(struct arm64_sdt_thunk), 8)

/*
 * The thunk's frame, from sp up: args[], NZCV (and a zero), the site's
 * frame record, x18 and x30, then x16 and x17 up to x0 and x1, as the
 * pushes leave them.
 */
#define SDT_FRAME_ARGS		(8 * SDT_MAX_ARGS)
#define SDT_FRAME_NZCV		SDT_FRAME_ARGS
#define SDT_FRAME_RECORD	(SDT_FRAME_NZCV + 16)
#define SDT_FRAME_X18		(SDT_FRAME_RECORD + 16)
#define SDT_FRAME_X16		(SDT_FRAME_X18 + 16)
#define SDT_FRAME_SIZE		(SDT_FRAME_X16 + 9 * 16)

static_assert(SDT_FRAME_ARGS % 16 == 0);

/* The slot of x0-x18, x29 or x30 at the site. */
static unsigned int sdt_frame_slot(u8 reg)
{
	if (reg == 29)
		return SDT_FRAME_RECORD;
	if (reg == 30)
		return SDT_FRAME_X18 + 8;
	if (reg == 18)
		return SDT_FRAME_X18;
	return SDT_FRAME_X16 + 16 * (8 - reg / 2) + 8 * (reg % 2);
}

/* mrs x9, nzcv and msr nzcv, x9: no insn.h helper writes NZCV. */
#define SDT_MRS_X9_NZCV		0xd53b4209
#define SDT_MSR_NZCV_X9		0xd51b4209

#define X0	AARCH64_INSN_REG_0
#define X1	AARCH64_INSN_REG_1
#define X2	AARCH64_INSN_REG_2
#define X9	AARCH64_INSN_REG_9
#define X10	AARCH64_INSN_REG_10
#define X16	AARCH64_INSN_REG_16
#define SP	AARCH64_INSN_REG_SP
#define A64	AARCH64_INSN_VARIANT_64BIT

/* Code being generated into a buffer, for a thunk's slot. */
struct sdt_jit {
	__le32 *code;		/* the buffer */
	unsigned long pc;	/* where its first instruction will run */
	unsigned int idx, max;	/* in instructions */
	bool bad;		/* an encoding failed, or the code outgrew its room */
};

static void emit(struct sdt_jit *j, u32 insn)
{
	if (insn == AARCH64_BREAK_FAULT || j->idx >= j->max) {
		j->bad = true;
		return;
	}
	j->code[j->idx++] = cpu_to_le32(insn);
}

static unsigned long jit_pc(const struct sdt_jit *j)
{
	return j->pc + j->idx * AARCH64_INSN_SIZE;
}

static void emit_mov64(struct sdt_jit *j, int rd, u64 v)
{
	int shift;

	emit(j, aarch64_insn_gen_movewide(rd, v & 0xffff, 0, A64,
					  AARCH64_INSN_MOVEWIDE_ZERO));
	for (shift = 16; shift < 64; shift += 16)
		if ((v >> shift) & 0xffff)
			emit(j, aarch64_insn_gen_movewide(rd, (v >> shift) & 0xffff,
							  shift, A64,
							  AARCH64_INSN_MOVEWIDE_KEEP));
}

/* rd = rn + imm, sp allowed as rn; x10 is the scratch register. */
static void emit_add(struct sdt_jit *j, int rd, int rn, s64 imm)
{
	if (imm >= 0 && imm < SZ_4K) {
		emit(j, aarch64_insn_gen_add_sub_imm(rd, rn, imm, A64,
						     AARCH64_INSN_ADSB_ADD));
	} else if (imm < 0 && imm > -SZ_4K) {
		emit(j, aarch64_insn_gen_add_sub_imm(rd, rn, -imm, A64,
						     AARCH64_INSN_ADSB_SUB));
	} else {
		/* A register operand cannot be sp: copy it first. */
		if (rn == SP) {
			emit_add(j, rd, SP, 0);
			rn = rd;
		}
		emit_mov64(j, X10, imm);
		emit(j, aarch64_insn_gen_add_sub_shifted_reg(rd, rn, X10, 0, A64,
							     AARCH64_INSN_ADSB_ADD));
	}
}

/*
 * The register that holds @reg's value at the site, from here to the
 * call: x19-x28 themselves, nothing before the call changes them; the
 * others into x9, from their slots (sp: the frame's top).
 */
static int emit_reg(struct sdt_jit *j, u8 reg)
{
	if (reg >= 19 && reg <= 28)
		return reg;
	if (reg == SDT_REG_SP)
		emit_add(j, X9, SP, SDT_FRAME_SIZE);
	else
		emit(j, aarch64_insn_gen_load_store_imm(X9, SP, sdt_frame_slot(reg),
							AARCH64_INSN_SIZE_64,
							AARCH64_INSN_LDST_LOAD_IMM_OFFSET));
	return X9;
}

/* x9 = the low |size| bytes of @rn, extended as sdt_arg_extend() does. */
static void emit_extend(struct sdt_jit *j, int rn, s8 size)
{
	int bits = abs(size) * 8;

	if (bits == 64) {
		if (rn != X9)
			emit(j, aarch64_insn_gen_move_reg(X9, rn, A64));
		return;
	}
	emit(j, aarch64_insn_gen_bitfield(X9, rn, 0, bits - 1, A64,
					  size < 0 ? AARCH64_INSN_BITFIELD_MOVE_SIGNED :
						     AARCH64_INSN_BITFIELD_MOVE_UNSIGNED));
}

static void emit_call(struct sdt_jit *j, const u64 *fn)
{
	emit(j, aarch64_insn_gen_load_literal(jit_pc(j), (unsigned long)fn, X16,
					      true));
	emit(j, aarch64_insn_gen_branch_reg(X16, AARCH64_INSN_BRANCH_LINK));
}

/* x9 = a memory operand: see the top. */
static void emit_mem(struct sdt_jit *j, const struct sdt_arg *a,
		     const struct arm64_sdt_thunk *th)
{
	static const enum aarch64_insn_size_type ldst[] = {
		[1] = AARCH64_INSN_SIZE_8, [2] = AARCH64_INSN_SIZE_16,
		[4] = AARCH64_INSN_SIZE_32, [8] = AARCH64_INSN_SIZE_64,
	};
	unsigned int n = abs(a->size);

	/* The address, into x1. */
	if (a->reg == SDT_NO_REG)
		emit_mov64(j, X1, a->val);
	else if (a->reg == SDT_REG_SP)
		emit_add(j, X1, SP, SDT_FRAME_SIZE + a->val);
	else
		emit_add(j, X1, emit_reg(j, a->reg), a->val);

	if (a->reg == SDT_NO_REG || a->reg == SDT_REG_SP) {
		/* Zero-extending, as the helper's read is. */
		emit(j, aarch64_insn_gen_load_store_imm(X9, X1, 0, ldst[n],
							AARCH64_INSN_LDST_LOAD_IMM_OFFSET));
		if (a->size < 0)
			emit_extend(j, X9, a->size);
		return;
	}
	emit(j, aarch64_insn_gen_adr(jit_pc(j), (unsigned long)th, X0,
				     AARCH64_INSN_ADR_TYPE_ADR));
	emit_mov64(j, X2, n);
	emit_call(j, &th->read_fn);
	emit_extend(j, X0, a->size);
}

/*
 * The thunk's code, into @j: see the top. @th is where its data will be
 * (its address only: the memory there is not the thunk's yet).
 */
static void sdt_thunk_emit(struct sdt_jit *j, const struct sdt_prog *prog,
			   const struct arm64_sdt_thunk *th, const void *site)
{
	const struct sdt_arg *a;
	unsigned int i;
	int r;

	for (r = 0; r < 18; r += 2)
		emit(j, aarch64_insn_gen_load_store_pair(r, r + 1, SP, -16, A64,
							 AARCH64_INSN_LDST_STORE_PAIR_PRE_INDEX));
	emit(j, aarch64_insn_gen_load_store_pair(AARCH64_INSN_REG_18, AARCH64_INSN_REG_LR,
						 SP, -16, A64,
						 AARCH64_INSN_LDST_STORE_PAIR_PRE_INDEX));
	emit(j, aarch64_insn_gen_load_literal(jit_pc(j), (unsigned long)&th->call.site,
					      X10, true));
	emit(j, aarch64_insn_gen_load_store_pair(AARCH64_INSN_REG_FP, X10, SP, -16, A64,
						 AARCH64_INSN_LDST_STORE_PAIR_PRE_INDEX));
	emit(j, aarch64_insn_gen_add_sub_imm(AARCH64_INSN_REG_FP, SP, 0, A64,
					     AARCH64_INSN_ADSB_ADD));
	emit(j, SDT_MRS_X9_NZCV);
	emit(j, aarch64_insn_gen_load_store_pair(X9, AARCH64_INSN_REG_ZR, SP, -16, A64,
						 AARCH64_INSN_LDST_STORE_PAIR_PRE_INDEX));
	emit(j, aarch64_insn_gen_add_sub_imm(SP, SP, SDT_FRAME_ARGS, A64,
					     AARCH64_INSN_ADSB_SUB));

	for (i = 0; i < prog->nargs; i++) {
		a = &prog->arg[i];
		switch (a->kind) {
		case SDT_ARG_REG:
			emit_extend(j, emit_reg(j, a->reg), a->size);
			break;
		case SDT_ARG_IMM:
			emit_mov64(j, X9, sdt_arg_extend(a->val, a->size));
			break;
		case SDT_ARG_MEM:
			emit_mem(j, a, th);
			break;
		default:
			j->bad = true;
		}
		emit(j, aarch64_insn_gen_load_store_imm(X9, SP, 8 * i,
							AARCH64_INSN_SIZE_64,
							AARCH64_INSN_LDST_STORE_IMM_OFFSET));
	}

	emit(j, aarch64_insn_gen_adr(jit_pc(j), (unsigned long)&th->call, X0,
				     AARCH64_INSN_ADR_TYPE_ADR));
	emit(j, aarch64_insn_gen_add_sub_imm(X1, SP, 0, A64, AARCH64_INSN_ADSB_ADD));
	emit_call(j, &th->call_fn);

	emit(j, aarch64_insn_gen_add_sub_imm(SP, SP, SDT_FRAME_ARGS, A64,
					     AARCH64_INSN_ADSB_ADD));
	emit(j, aarch64_insn_gen_load_store_pair(X9, AARCH64_INSN_REG_ZR, SP, 16, A64,
						 AARCH64_INSN_LDST_LOAD_PAIR_POST_INDEX));
	emit(j, SDT_MSR_NZCV_X9);
	emit(j, aarch64_insn_gen_load_store_pair(AARCH64_INSN_REG_FP, X10, SP, 16, A64,
						 AARCH64_INSN_LDST_LOAD_PAIR_POST_INDEX));
	emit(j, aarch64_insn_gen_load_store_pair(AARCH64_INSN_REG_18, AARCH64_INSN_REG_LR,
						 SP, 16, A64,
						 AARCH64_INSN_LDST_LOAD_PAIR_POST_INDEX));
	for (r = 16; r >= 0; r -= 2)
		emit(j, aarch64_insn_gen_load_store_pair(r, r + 1, SP, 16, A64,
							 AARCH64_INSN_LDST_LOAD_PAIR_POST_INDEX));
	emit(j, aarch64_insn_gen_branch_imm(jit_pc(j), (unsigned long)site + AARCH64_INSN_SIZE,
					    AARCH64_INSN_BRANCH_NOLINK));
}

/**
 * arm64_sdt_thunk_read - read a memory operand that may fault
 * @th: the thunk's data
 * @addr: the operand's address
 * @size: its size in bytes: 1, 2, 4 or 8
 *
 * Called by the thunk only, for an operand through a register other than
 * sp, as sdt_fetch() reads one.
 *
 * Return: the value, zero-extended; 0 if the read faulted, which is
 * counted while the thunk is live.
 */
static notrace u64 arm64_sdt_thunk_read(const struct arm64_sdt_thunk *th,
					unsigned long addr, unsigned int size)
{
	u64 v = 0;

	if (copy_from_kernel_nofault(&v, (void *)addr, size)) {
		/* The counter is the site's: gone once the thunk is retired. */
		preempt_disable_notrace();
		if (likely(READ_ONCE(*th->call.live)))
			atomic_inc(th->call.faults);
		preempt_enable_notrace();
		return 0;
	}
	return v;
}

NOKPROBE_SYMBOL(arm64_sdt_thunk_read);

/**
 * arch_sdt_thunk_why - can a site's program be a thunk?
 * @prog: the site's program
 *
 * Return: NULL: a thunk reads every operand form, safely.
 */
const char *arch_sdt_thunk_why(const struct sdt_prog *prog)
{
	return NULL;
}

/**
 * arch_sdt_thunk_emit - emit the thunk of an SDT site
 * @prog: the site's program
 * @call: what the thunk calls, and where its site is
 * @img: where to emit it, and where it will run
 *
 * Return: 0, with @img's length and entry set (its data, then its code);
 * -ERANGE if its slot is out of the site's reach, -E2BIG if its code
 * could not be generated (it outgrew SDT_THUNK_MAX: a bug).
 */
int arch_sdt_thunk_emit(const struct sdt_prog *prog,
			const struct sdt_thunk_call *call,
			struct sdt_thunk_image *img)
{
	/* Both branches, the first word and the last, with room. */
	const long reach = SZ_128M - SDT_THUNK_MAX;
	const struct arm64_sdt_thunk *th = (void *)img->at;
	struct arm64_sdt_thunk *data = (void *)img->buf;
	struct sdt_jit j = {
		.code = (void *)(img->buf + SDT_THUNK_CODE_OFF),
		.pc = img->at + SDT_THUNK_CODE_OFF,
		.max = (SDT_THUNK_MAX - SDT_THUNK_CODE_OFF) / AARCH64_INSN_SIZE,
	};
	long off;

	/* A test may refuse it (markers_sdt_arm64: a site out of reach). */
	KUNIT_STATIC_STUB_REDIRECT(arch_sdt_thunk_emit, prog, call, img);
	off = (long)j.pc - (long)call->site;
	if (off <= -reach || off >= reach)
		return -ERANGE;

	data->call_fn = (unsigned long)sdt_thunk_gate;
	data->read_fn = (unsigned long)arm64_sdt_thunk_read;
	data->call = *call;
	sdt_thunk_emit(&j, prog, th, call->site);
	if (WARN_ON_ONCE(j.bad))
		return -E2BIG;
	img->entry = SDT_THUNK_CODE_OFF;
	img->len = SDT_THUNK_CODE_OFF + j.idx * AARCH64_INSN_SIZE;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(arch_sdt_thunk_emit);

/**
 * arch_sdt_thunk_write - write a thunk into its slot
 * @dst: the slot, read-only and executable
 * @src: the thunk's bytes
 * @len: how many
 *
 * Through the text-patching fixmap, as BPF writes its program packs; then
 * seen by every CPU's instruction fetch (flush_icache_range(): one
 * kick_all_cpus_sync(), since the slot may have held another thunk).
 */
void arch_sdt_thunk_write(void *dst, const void *src, size_t len)
{
	aarch64_insn_copy(dst, (void *)src, len);
}
EXPORT_SYMBOL_IF_KUNIT(arch_sdt_thunk_write);

/**
 * arch_sdt_thunk_invalidate - fill thunk memory with traps
 * @dst: read-only and executable memory of a pack
 * @len: how many bytes, a multiple of 4
 */
void arch_sdt_thunk_invalidate(void *dst, size_t len)
{
	aarch64_insn_set(dst, AARCH64_BREAK_FAULT, len);
}
