/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SDT trampoline: what an SDT site armed with a call calls (see
 * kernel/markers/sdt.c). The site is a NOP in the middle of any code, so
 * every register and the flags are live there: save them all in a struct
 * pt_regs (the handler reads the site's operands from it), with ip the
 * address after the site's CALL, call sdt_trampoline_handler(regs), and
 * restore what C may change. The site's code then runs on as after its
 * NOP. The kernel has no red zone, so the CALL itself clobbers nothing
 * below the site's stack pointer.
 *
 * The flags are saved first and restored last: an asm site may sit
 * between a compare and its jump. So nothing before the PUSHF or after
 * the POPF may change them: no call depth accounting, and no return
 * thunk that changes them. Only call depth tracking's does (the others
 * are a plain RET, or an LEA and a RET); with it, return with a plain RET
 * instead, and leave the site's CALL unaccounted too: the two match in
 * the RSB, and the depth counter only sees fewer calls than there are,
 * which makes it stuff early, never late.
 *
 * Code, not a function, for objtool: it clears AC (a site may sit inside
 * user_access_begin(), and the probes must not run with SMAP off), which
 * objtool takes for a redundant CLAC in a function. POPF sets AC back.
 */

#include <linux/linkage.h>
#include <asm/alternative.h>
#include <asm/cpufeatures.h>
#include <asm/ibt.h>
#include <asm/nospec-branch.h>
#include <asm/ptrace.h>
#include <asm/segment.h>
#include <asm/smap.h>
#include <asm/unwind_hints.h>

	.code64
	.section .text, "ax"

SYM_CODE_START(arch_sdt_trampoline)
	UNWIND_HINT_FUNC
	ENDBR
	pushfq
	ASM_CLAC
	subq	$FRAME_SIZE, %rsp
	movq	%rax, RAX(%rsp)
	movq	%rcx, RCX(%rsp)
	movq	%rdx, RDX(%rsp)
	movq	%rsi, RSI(%rsp)
	movq	%rdi, RDI(%rsp)
	movq	%r8, R8(%rsp)
	movq	%r9, R9(%rsp)
	movq	%r10, R10(%rsp)
	movq	%r11, R11(%rsp)
	movq	%rbx, RBX(%rsp)
	movq	%rbp, RBP(%rsp)
	movq	%r12, R12(%rsp)
	movq	%r13, R13(%rsp)
	movq	%r14, R14(%rsp)
	movq	%r15, R15(%rsp)
	/*
	 * Above the frame: the flags, then the return address, ip for the
	 * handler. It works out sp itself: FRAME_SIZE + 16 above regs. The
	 * rest as for a trap in kernel mode.
	 */
	movq	FRAME_SIZE(%rsp), %rax
	movq	%rax, EFLAGS(%rsp)
	movq	FRAME_SIZE+8(%rsp), %rax
	movq	%rax, RIP(%rsp)
	movq	$__KERNEL_CS, CS(%rsp)
	movq	$__KERNEL_DS, SS(%rsp)
	movq	$-1, ORIG_RAX(%rsp)
	movq	%rsp, %rdi
	call	sdt_trampoline_handler
	/* The handler keeps the callee-saved registers; restore the rest. */
	movq	R11(%rsp), %r11
	movq	R10(%rsp), %r10
	movq	R9(%rsp), %r9
	movq	R8(%rsp), %r8
	movq	RDI(%rsp), %rdi
	movq	RSI(%rsp), %rsi
	movq	RDX(%rsp), %rdx
	movq	RCX(%rsp), %rcx
	movq	RAX(%rsp), %rax
	addq	$FRAME_SIZE, %rsp
	popfq
	/*
	 * Back as on entry: objtool saw the callee-saved registers stored
	 * and not reloaded, but they still hold the site's values.
	 */
	UNWIND_HINT_FUNC
	ALTERNATIVE "", "jmp .Lsdt_plain_ret", X86_FEATURE_CALL_DEPTH
	RET
.Lsdt_plain_ret:
	ANNOTATE_UNRET_SAFE
	ret
	int3
SYM_CODE_END(arch_sdt_trampoline)
