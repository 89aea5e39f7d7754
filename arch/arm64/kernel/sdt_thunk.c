// SPDX-License-Identifier: GPL-2.0
/*
 * SDT sites on arm64: per-site thunks.
 *
 * An armed SDT site is a B to a thunk of its own: a copy of
 * arm64_sdt_thunk_tmpl (sdt_thunk_tmpl.S) that saves every register in a
 * struct pt_regs, calls arm64_sdt_thunk_handler() and branches back to
 * the instruction after the site. A BL would overwrite x30, which the
 * code around the site may hold live, and a shared trampoline cannot
 * know where to branch back: hence one thunk per site, and no
 * trampoline.
 *
 * The handler fetches the operands with sdt_fetch(), which reads memory
 * with copy_from_kernel_nofault(): every operand form the decoder takes
 * is served, and a faulting read is counted, not an oops.
 *
 * A B reaches +/-128 MB, so the thunk goes where module text goes (the
 * module region, within 128 MB of the kernel's text while it has room)
 * and its distance to the site is checked; a site out of its thunk's
 * reach (a module in the 2 GB fallback region, say) is armed by kprobes
 * (kernel/markers/sdt.c).
 *
 * The thunk's page holds its code, then what the handler needs: the
 * site's decoded program and the call to make (struct arm64_sdt_thunk).
 * It is written while still writable, made seen by every CPU's
 * instruction fetch (flush_icache_range(): one kick_all_cpus_sync() per
 * thunk, as for a BPF program, since the page may have held another
 * thunk) and made read-only and executable, before its site's B is
 * written.
 *
 * Lifetime: as on x86 (arch/x86/kernel/sdt_thunk.c), a task may be
 * preempted inside a thunk, so its memory goes after an RCU-tasks grace
 * period (arch_sdt_thunk_free()), and the handler tests the thunk's live
 * flag with preemption disabled before calling the probe.
 */

#include <linux/bug.h>
#include <linux/cacheflush.h>
#include <linux/err.h>
#include <linux/execmem.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <linux/sdt-decode.h>
#include <linux/set_memory.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <kunit/static_stub.h>
#include <kunit/visibility.h>
#include <asm/insn.h>

/* What a thunk's handler reads: in the thunk's page, after its code. */
struct arm64_sdt_thunk {
	struct sdt_prog prog;
	struct sdt_thunk_call call;
};

/* The offset of @p in the template, for the same place in a copy. */
#define SDT_TMPL_OFF(p)	((const void *)(p) - (const void *)arm64_sdt_thunk_tmpl)

/* The code, and the struct arm64_sdt_thunk after it, 8-byte aligned. */
#define SDT_THUNK_DATA_OFF	ALIGN(SDT_TMPL_OFF(arm64_sdt_thunk_end), 8)

/**
 * arm64_sdt_thunk_handler - a hit of an SDT site armed with a thunk
 * @regs: the registers and flags at the site; @regs->pc is the site
 * @th: the thunk's data
 *
 * Called by the thunk only.
 */
static notrace void arm64_sdt_thunk_handler(struct pt_regs *regs,
					    const struct arm64_sdt_thunk *th)
{
	u64 args[SDT_MAX_ARGS] __uninitialized;
	sdt_probe_func *func = th->call.func;
	unsigned int faults;

	preempt_disable_notrace();
	/* Retired: the registry may let its probe go at the grace period. */
	if (likely(READ_ONCE(*th->call.live))) {
		this_cpu_inc(*th->call.hits);
		faults = sdt_fetch(&th->prog, regs, args);
		if (unlikely(faults))
			atomic_add(faults, th->call.faults);
		func(th->call.data, args, th->prog.nargs);
	}
	preempt_enable_notrace();
}

NOKPROBE_SYMBOL(arm64_sdt_thunk_handler);

/**
 * arch_sdt_thunk_why - can a site's program be a thunk?
 * @prog: the site's program
 *
 * Return: NULL: the handler reads every operand form, safely.
 */
const char *arch_sdt_thunk_why(const struct sdt_prog *prog)
{
	return NULL;
}

/**
 * arch_sdt_thunk_make - make the thunk of an SDT site
 * @prog: the site's program
 * @call: what the thunk calls, and where its site is
 *
 * Return: the thunk, which the site's B goes to; ERR_PTR(-ENOMEM) without
 * memory (or if its page cannot be made executable), ERR_PTR(-ERANGE) if
 * it landed out of the site's reach,
 * ERR_PTR(-E2BIG) if the template and its data outgrow a page (a bug).
 * Nothing is left allocated on error.
 */
void *arch_sdt_thunk_make(const struct sdt_prog *prog,
			  const struct sdt_thunk_call *call)
{
	size_t len = SDT_TMPL_OFF(arm64_sdt_thunk_end);
	const long reach = SZ_128M - PAGE_SIZE;
	void *site = call->site, *code;
	struct arm64_sdt_thunk *th;
	long off;
	u32 b;

	/* A test may refuse it (markers_sdt_arm64: a site out of reach). */
	KUNIT_STATIC_STUB_REDIRECT(arch_sdt_thunk_make, prog, call);
	/* The template's length is known at link time only. */
	if (WARN_ON_ONCE(SDT_THUNK_DATA_OFF + sizeof(*th) > PAGE_SIZE))
		return ERR_PTR(-E2BIG);
	code = execmem_alloc(EXECMEM_MODULE_TEXT, PAGE_SIZE);
	if (!code)
		return ERR_PTR(-ENOMEM);
	/* Both branches, with room: the page's first and last word. */
	off = (long)code - (long)site;
	if (off <= -reach || off >= reach) {
		execmem_free(code);
		return ERR_PTR(-ERANGE);
	}

	memcpy(code, arm64_sdt_thunk_tmpl, len);
	th = code + SDT_THUNK_DATA_OFF;
	th->prog = *prog;
	th->call = *call;
	*(u64 *)(code + SDT_TMPL_OFF(arm64_sdt_thunk_lit_handler)) =
		(unsigned long)arm64_sdt_thunk_handler;
	*(u64 *)(code + SDT_TMPL_OFF(arm64_sdt_thunk_lit_data)) = (unsigned long)th;
	*(u64 *)(code + SDT_TMPL_OFF(arm64_sdt_thunk_lit_site)) = (unsigned long)site;
	b = aarch64_insn_gen_branch_imm((unsigned long)code +
					SDT_TMPL_OFF(arm64_sdt_thunk_ret),
					(unsigned long)site + AARCH64_INSN_SIZE,
					AARCH64_INSN_BRANCH_NOLINK);
	if (WARN_ON_ONCE(b == AARCH64_BREAK_FAULT)) {
		execmem_free(code);
		return ERR_PTR(-ERANGE);
	}
	*(__le32 *)(code + SDT_TMPL_OFF(arm64_sdt_thunk_ret)) = cpu_to_le32(b);

	/*
	 * Seen by every CPU's instruction fetch, then read-only and
	 * executable: a page left writable and not executable would oops
	 * at the site's first hit.
	 */
	flush_icache_range((unsigned long)code, (unsigned long)code + PAGE_SIZE);
	if (set_memory_rox((unsigned long)code, 1)) {
		execmem_free(code);
		return ERR_PTR(-ENOMEM);
	}
	return code;
}
EXPORT_SYMBOL_IF_KUNIT(arch_sdt_thunk_make);

/**
 * arch_sdt_thunk_free - free a thunk no task can be running
 * @code: what arch_sdt_thunk_make() returned
 *
 * In process context: freeing executable memory resets its permissions.
 */
void arch_sdt_thunk_free(void *code)
{
	execmem_free(code);
}
