// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers on x86: the instructions the registry writes at sites,
 * and how it writes them.
 *
 * A MARK() or guard site's NOP is the 2- or 5-byte NOP objtool made of the
 * jump its asm goto emitted (it sits in __jump_table so that objtool sees
 * the jump); armed, it is that jump again. A MARK() site's out-of-line
 * CALL goes to __marker_slowpath(), __marker_iterate() or a probe.
 *
 * An SDT site's 5-byte NOP becomes a CALL of its thunk (sdt_thunk.c) or
 * of arch_sdt_trampoline() (sdt_trampoline_64.S).
 *
 * The registry queues the instructions of one change in address order, as
 * text_poke_queue() wants, then applies them: one text_poke batch, three
 * machine-wide syncs, per PAGE_SIZE / 16 = 256 instructions (a full
 * text_poke vector flushes itself, so the queue here is never full), as
 * jump labels are patched. Unreached instructions (the CALLs of a MARK()
 * site armed for the first time) come first and are written at once with
 * text_poke(): no CPU runs them before it has gone through the site's
 * jump, which the batch then writes with the int3 protocol. A CPU sent on
 * by the int3 handler returns from the exception with IRET, one that runs
 * the new jump does so after the protocol's syncs: both are serialized
 * after the write. One write instead of the protocol's three.
 */

#include <linux/bug.h>
#include <linux/cpu.h>
#include <linux/marker.h>
#include <linux/memory.h>
#include <linux/sdt-decode.h>
#include <linux/string.h>
#include <kunit/static_stub.h>
#include <kunit/visibility.h>
#include <asm/alternative.h>
#include <asm/insn.h>
#include <asm/nops.h>
#include <asm/text-patching.h>

static const u8 sdt_nop5[] = { BYTES_NOP5 };

/* The size of a MARK() or guard site: its NOP's, or its jump's. */
static int marker_site_size(const void *code)
{
	struct insn insn = {};

	insn_decode_kernel(&insn, code);
	/* objtool made it 2 or 5 bytes: anything else is a corrupt site. */
	WARN_ON_ONCE(insn.length != 2 && insn.length != 5);
	return insn.length == 2 ? 2 : 5;
}

static_assert(MARKER_CALL_SIZE <= MARKER_INSN_MAX);

/* Generate the instruction @p describes; under text_mutex. */
static void marker_insn(struct marker_patch *p)
{
	void *code = p->addr, *dest = p->dest;
	int size;

	switch (p->what) {
	case MARKER_INSN_NOP:
	case MARKER_INSN_JUMP:
		size = marker_site_size(code);
		if (p->what == MARKER_INSN_NOP)
			memcpy(p->insn, x86_nops[size], size);
		else
			memcpy(p->insn, text_gen_insn(size == JMP8_INSN_SIZE ?
						      JMP8_INSN_OPCODE :
						      JMP32_INSN_OPCODE,
						      code, dest), size);
		p->len = size;
		break;
	case MARKER_INSN_CALL:
		/* Through the function's call thunk, if it has one. */
		memcpy(p->insn, text_gen_insn(CALL_INSN_OPCODE, code,
					      callthunks_translate_call_dest(dest)),
		       CALL_INSN_SIZE);
		p->len = CALL_INSN_SIZE;
		break;
	case MARKER_INSN_SDT_NOP:
		memcpy(p->insn, sdt_nop5, sizeof(sdt_nop5));
		p->len = sizeof(sdt_nop5);
		break;
	case MARKER_INSN_SDT_CALL:
		/*
		 * Of the site's thunk, or without one of the trampoline;
		 * directly: neither accounts for the call (see them).
		 */
		memcpy(p->insn, text_gen_insn(CALL_INSN_OPCODE, code,
					      dest ?: (void *)arch_sdt_trampoline),
		       CALL_INSN_SIZE);
		p->len = CALL_INSN_SIZE;
		break;
	}
}

/**
 * arch_marker_transform_queue - queue an instruction to write at a site
 * @p: the instruction (what, where, to where); its bytes are made here
 *
 * Called by the registry with cpus_read_lock() and text_mutex held,
 * unreached instructions first, each group in address order. An
 * instruction already in place is skipped. text_poke_bp_batch()'s int3
 * protocol makes the change safe against CPUs running the sites; an
 * unreached instruction is written at once (see the top).
 *
 * Return: true; false would mean the queue is full, and the registry
 * would apply it and queue @p again, but text_poke_queue() flushes its
 * vector itself when full.
 */
bool arch_marker_transform_queue(struct marker_patch *p)
{
	/* A test may give it a smaller queue (markers_test_queue_full). */
	KUNIT_STATIC_STUB_REDIRECT(arch_marker_transform_queue, p);
	lockdep_assert_cpus_held();
	lockdep_assert_held(&text_mutex);
	marker_insn(p);
	if (memcmp(p->addr, p->insn, p->len)) {
		if (p->unreached)
			text_poke(p->addr, p->insn, p->len);
		else
			text_poke_queue(p->addr, p->insn, p->len, NULL);
	}
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(arch_marker_transform_queue);

/**
 * arch_marker_transform_apply - write what was queued
 *
 * Called by the registry with cpus_read_lock() and text_mutex held, once
 * the instructions of a change are queued.
 */
void arch_marker_transform_apply(void)
{
	KUNIT_STATIC_STUB_REDIRECT(arch_marker_transform_apply);
	lockdep_assert_cpus_held();
	lockdep_assert_held(&text_mutex);
	text_poke_finish();
}
EXPORT_SYMBOL_IF_KUNIT(arch_marker_transform_apply);

#if IS_ENABLED(CONFIG_KUNIT)
/* --- For the registry's consistency checks (kernel/markers/kunit.c) --- */

/* Is the MARK() or guard site at @code a jump, not its NOP? */
bool arch_marker_site_jumps(const void *code)
{
	u8 op = *(const u8 *)code;

	return op == JMP8_INSN_OPCODE || op == JMP32_INSN_OPCODE;
}
EXPORT_SYMBOL_IF_KUNIT(arch_marker_site_jumps);

/* The function the CALL at @code calls (a call thunk, maybe). */
static void *marker_call_dest(const void *code)
{
	s32 rel;

	if (*(const u8 *)code != CALL_INSN_OPCODE)
		return NULL;
	memcpy(&rel, code + 1, sizeof(rel));
	return (void *)code + CALL_INSN_SIZE + rel;
}

/* Does the CALL at @code call @func (through its thunk)? */
bool arch_marker_call_goes_to(const void *code, void *func)
{
	bool ret;

	mutex_lock(&text_mutex);
	ret = marker_call_dest(code) == callthunks_translate_call_dest(func);
	mutex_unlock(&text_mutex);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(arch_marker_call_goes_to);

/* Is the SDT site at @code a CALL of @thunk, or if NULL of the trampoline? */
bool arch_sdt_site_calls(const void *code, void *thunk)
{
	return marker_call_dest(code) == (thunk ?: (void *)arch_sdt_trampoline);
}
EXPORT_SYMBOL_IF_KUNIT(arch_sdt_site_calls);
#endif /* CONFIG_KUNIT */
