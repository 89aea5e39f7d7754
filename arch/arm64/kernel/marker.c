// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers on arm64: the instructions the registry writes at sites,
 * and how it writes them.
 *
 * A MARK() or guard site is a NOP; armed, it is a B to its out-of-line
 * code. A MARK() site's out-of-line BL goes to __marker_slowpath() or to
 * a probe. NOP, B and BL are among the instructions the architecture lets
 * one CPU write while others run them (ARM DDI 0487, "Concurrent
 * modification and execution of instructions"), so each is written in
 * place, as jump labels are, and the change ends with one
 * kick_all_cpus_sync(): one machine-wide sync per change, whatever its
 * number of instructions, and a queue that is never full. Unreached
 * instructions are written no differently.
 *
 * A BL reaches +/-128 MB. Modules sit within 128 MB of the kernel's text
 * while that region has room; a module placed beyond it (the 2 GB
 * fallback region) calls __marker_slowpath() through a PLT the module
 * loader made, and its sites keep that BL for good: it is the one
 * instruction such a site can always go back to. A probe out of a site's
 * reach is called through __marker_slowpath(), as correct and slower.
 *
 * An armed SDT site is a B to its own thunk (sdt_thunk.c), which branches
 * back: a BL would overwrite x30, which the site's code may hold live.
 */

#include <linux/bug.h>
#include <linux/cpu.h>
#include <linux/marker.h>
#include <linux/memory.h>
#include <linux/sizes.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <kunit/static_stub.h>
#include <kunit/visibility.h>
#include <asm/insn.h>
#include <asm/patching.h>

static u32 marker_read_insn(const void *code)
{
	return le32_to_cpu(*(const __le32 *)code);
}

/* Is @dest in the reach of a BL at @code? */
static bool marker_bl_reaches(const void *code, const void *dest)
{
	long off = (long)dest - (long)code;

	return off >= -SZ_128M && off < SZ_128M;
}

/*
 * A BL at @code to @dest, or 0 if @dest is out of its reach: asked here
 * first, since aarch64_insn_gen_branch_imm() logs an error for a target
 * out of reach, and a module in the fallback region is out of reach at
 * every change of its sites.
 */
static u32 marker_gen_bl(void *code, void *dest)
{
	u32 insn;

	if (!marker_bl_reaches(code, dest))
		return 0;
	insn = aarch64_insn_gen_branch_imm((unsigned long)code,
					   (unsigned long)dest,
					   AARCH64_INSN_BRANCH_LINK);
	return insn == AARCH64_BREAK_FAULT ? 0 : insn;
}

/* A B at @code to @dest, which must be in reach; 0 if it is not. */
static u32 marker_gen_b(const void *code, const void *dest)
{
	u32 insn = aarch64_insn_gen_branch_imm((unsigned long)code,
					       (unsigned long)dest,
					       AARCH64_INSN_BRANCH_NOLINK);

	WARN_ON_ONCE(insn == AARCH64_BREAK_FAULT);
	return insn == AARCH64_BREAK_FAULT ? 0 : insn;
}

static_assert(AARCH64_INSN_SIZE <= MARKER_INSN_MAX);

/* The instruction @p describes, or 0 to leave the site as it is. */
static u32 marker_insn(struct marker_patch *p)
{
	void *code = p->addr;

	switch (p->what) {
	case MARKER_INSN_NOP:
	case MARKER_INSN_SDT_NOP:
		return aarch64_insn_gen_nop();
	case MARKER_INSN_JUMP:
		/* The out-of-line code is in the same function: in reach. */
		return marker_gen_b(code, p->dest);
	case MARKER_INSN_CALL:
		/* The loader's BL through a PLT stays (see the top). */
		if (!marker_bl_reaches(code, __marker_slowpath))
			return 0;
		/* A probe out of reach: the slow path, which calls it. */
		return marker_gen_bl(code, p->dest) ?:
		       marker_gen_bl(code, __marker_slowpath);
	case MARKER_INSN_SDT_CALL:
		/*
		 * A B to the site's thunk, in reach (arch_sdt_thunk_emit()
		 * checked); no trampoline on arm64, so never without one.
		 */
		if (WARN_ON_ONCE(!p->dest))
			return 0;
		return marker_gen_b(code, p->dest);
	}
	WARN_ON_ONCE(1);
	return 0;
}

/**
 * arch_marker_transform_queue - write an instruction at a site
 * @p: the instruction (what, where, to where); its bytes are made here
 *
 * Called by the registry with cpus_read_lock() and text_mutex held,
 * unreached instructions first, each group in address order. The
 * instruction is written at once, an instruction already in place is
 * skipped; arch_marker_transform_apply() makes every CPU see them.
 *
 * Return: true: the queue here is never full.
 */
bool arch_marker_transform_queue(struct marker_patch *p)
{
	u32 insn;

	/* A test may give it a smaller queue (markers_test_queue_full). */
	KUNIT_STATIC_STUB_REDIRECT(arch_marker_transform_queue, p);
	lockdep_assert_cpus_held();
	lockdep_assert_held(&text_mutex);
	insn = marker_insn(p);
	p->len = AARCH64_INSN_SIZE;
	memcpy(p->insn, &insn, sizeof(insn));
	if (insn && insn != marker_read_insn(p->addr))
		WARN_ON_ONCE(aarch64_insn_patch_text_nosync(p->addr, insn));
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(arch_marker_transform_queue);

/**
 * arch_marker_transform_apply - make what was written seen everywhere
 *
 * Called by the registry with cpus_read_lock() and text_mutex held, once
 * the instructions of a change are written: no CPU runs an old
 * instruction after it.
 */
void arch_marker_transform_apply(void)
{
	KUNIT_STATIC_STUB_REDIRECT(arch_marker_transform_apply);
	lockdep_assert_cpus_held();
	kick_all_cpus_sync();
}
EXPORT_SYMBOL_IF_KUNIT(arch_marker_transform_apply);

#if IS_ENABLED(CONFIG_KUNIT)
/* --- For the registry's consistency checks (kernel/markers/kunit.c) --- */

/* Is the MARK() or guard site at @code a B, not its NOP? */
bool arch_marker_site_jumps(const void *code)
{
	return aarch64_insn_is_b(marker_read_insn(code));
}
EXPORT_SYMBOL_IF_KUNIT(arch_marker_site_jumps);

/*
 * Is the BL at @code what marker_insn() writes for a call of @func? A
 * site out of reach of __marker_slowpath() keeps the loader's BL through
 * a PLT, whatever its probes: __marker_slowpath() calls them all, the one
 * probe of a direct call included.
 */
bool arch_marker_call_goes_to(const void *code, void *func)
{
	u32 insn = marker_read_insn(code);
	void *c = (void *)code;

	if (!marker_bl_reaches(c, __marker_slowpath))
		return aarch64_insn_is_bl(insn);
	return insn == (marker_gen_bl(c, func) ?:
			marker_gen_bl(c, __marker_slowpath));
}
EXPORT_SYMBOL_IF_KUNIT(arch_marker_call_goes_to);

/* Is the SDT site at @code a B to @thunk? NULL: there is no trampoline. */
bool arch_sdt_site_calls(const void *code, void *thunk)
{
	u32 insn = marker_read_insn(code);

	return thunk && aarch64_insn_is_b(insn) &&
	       insn == aarch64_insn_gen_branch_imm((unsigned long)code,
						   (unsigned long)thunk,
						   AARCH64_INSN_BRANCH_NOLINK);
}
EXPORT_SYMBOL_IF_KUNIT(arch_sdt_site_calls);
#endif /* CONFIG_KUNIT */
