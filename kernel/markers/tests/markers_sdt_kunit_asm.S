/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SDT sites in a .S file, for the markers_sdt KUnit suite.
 */

#include <linux/linkage.h>
#include <linux/sdt.h>
#include <asm/asm.h>

	.data
	.balign 8
/* u64 sdt_kunit_asm_var: read by kunit:rip_site through %rip. */
SYM_DATA(sdt_kunit_asm_var, .quad 0x0123456789abcdef)

	.text

/* void sdt_kunit_asm_rip(void): %rip-relative operands, resolved by kallsyms. */
SYM_FUNC_START(sdt_kunit_asm_rip)
	SDT_PROBE(kunit, rip_site, 8@sdt_kunit_asm_var(%rip) -4@sdt_kunit_asm_var+4(%rip))
	RET
SYM_FUNC_END(sdt_kunit_asm_rip)

/* long sdt_kunit_asm_site(long a, long b): a site with register, stack
 * and immediate operands; returns a. */
SYM_FUNC_START(sdt_kunit_asm_site)
	pushq %rdi
	SDT_PROBE(kunit, s_site, -8@%rdi 8@%rsi -8@(%rsp) -4@$-7)
	popq %rax
	RET
SYM_FUNC_END(sdt_kunit_asm_site)

/* void sdt_kunit_asm_fault(void *p): a memory operand through @p. */
SYM_FUNC_START(sdt_kunit_asm_fault)
	SDT_PROBE(kunit, fault_site, 8@(%rdi) -4@%esi)
	RET
SYM_FUNC_END(sdt_kunit_asm_fault)

/* void sdt_kunit_asm_bad(void): a site whose spec does not decode. */
SYM_FUNC_START(sdt_kunit_asm_bad)
	SDT_PROBE(kunit, bad_site, 3@%eax)
	RET
SYM_FUNC_END(sdt_kunit_asm_bad)

/*
 * long sdt_kunit_asm_flags(long a, long b): a < b, computed across a site:
 * the flags of the compare are live over it, and must survive its probe.
 */
SYM_FUNC_START(sdt_kunit_asm_flags)
	xorl %eax, %eax
	cmpq %rsi, %rdi
	SDT_PROBE(kunit, flags_site, -8@%rdi -8@%rsi)
	setl %al
	RET
SYM_FUNC_END(sdt_kunit_asm_flags)

/*
 * void sdt_kunit_asm_overlap(long a): a site right after a 3-byte
 * instruction, so that an optimized kprobe there would cover the site
 * with its JMP.
 */
SYM_FUNC_START(sdt_kunit_asm_overlap)
	movq %rdi, %rax
	SDT_PROBE(kunit, overlap_site, -8@%rdi)
	RET
SYM_FUNC_END(sdt_kunit_asm_overlap)

/*
 * kallsyms sizes the last function of a module's text to the end of its
 * pages, and kprobes' optimizer decodes the function of a kprobe to its
 * end, reading the text in place: past the end of sdt_kunit_asm_overlap,
 * were it last, it would decode the zeroes after it and read from the
 * next page, unmapped (an oops in insn_get_modrm() seen under the clang
 * test kernel). This symbol ends it.
 */
SYM_FUNC_START_LOCAL(sdt_kunit_asm_end)
	RET
SYM_FUNC_END(sdt_kunit_asm_end)
