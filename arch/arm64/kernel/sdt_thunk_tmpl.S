/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The code of an arm64 SDT thunk (see sdt_thunk.c), which each thunk is
 * a copy of, in .rodata: it never runs here.
 *
 * An armed SDT site is a B to its thunk, not a BL: the site is a NOP in
 * the middle of any code, where x30 may be live. So every register and
 * the flags are live at the thunk: it saves them all in a struct pt_regs
 * (the handler reads the site's operands from it), with sp the site's
 * and pc the site's own address, and a frame record for the site, so
 * that a probe's stack trace goes through the site's function. It calls
 * the handler, restores what C may change, and branches back to the
 * instruction after the site.
 *
 * sdt_thunk.c fills the three literals and writes the final B of each
 * copy. The kernel has no red zone, so nothing below the site's sp is
 * live.
 */

#include <linux/linkage.h>
#include <asm/asm-offsets.h>

/* The frame: the struct pt_regs, then the site's frame record. */
#define SDT_THUNK_FRAME		(PT_REGS_SIZE + 16)

	.pushsection .rodata, "a"
	.balign	8
SYM_DATA_START(arm64_sdt_thunk_tmpl)
	sub	sp, sp, #SDT_THUNK_FRAME
	stp	x0, x1, [sp, #S_X0]
	stp	x2, x3, [sp, #S_X2]
	stp	x4, x5, [sp, #S_X4]
	stp	x6, x7, [sp, #S_X6]
	stp	x8, x9, [sp, #S_X8]
	stp	x10, x11, [sp, #S_X10]
	stp	x12, x13, [sp, #S_X12]
	stp	x14, x15, [sp, #S_X14]
	stp	x16, x17, [sp, #S_X16]
	stp	x18, x19, [sp, #S_X18]
	stp	x20, x21, [sp, #S_X20]
	stp	x22, x23, [sp, #S_X22]
	stp	x24, x25, [sp, #S_X24]
	stp	x26, x27, [sp, #S_X26]
	stp	x28, x29, [sp, #S_X28]
	str	x30, [sp, #S_LR]
	mrs	x0, nzcv
	str	x0, [sp, #S_PSTATE]
	add	x0, sp, #SDT_THUNK_FRAME
	ldr	x1, arm64_sdt_thunk_lit_site
	stp	x0, x1, [sp, #S_SP]		/* sp, pc */
	stp	x29, x1, [sp, #PT_REGS_SIZE]	/* the site's frame record */
	add	x29, sp, #PT_REGS_SIZE
	mov	x0, sp
	ldr	x1, arm64_sdt_thunk_lit_data
	ldr	x16, arm64_sdt_thunk_lit_handler
	blr	x16				/* handler(regs, data) */
	/* The handler keeps x19-x28; restore the rest. */
	ldr	x0, [sp, #S_PSTATE]
	msr	nzcv, x0
	ldp	x0, x1, [sp, #S_X0]
	ldp	x2, x3, [sp, #S_X2]
	ldp	x4, x5, [sp, #S_X4]
	ldp	x6, x7, [sp, #S_X6]
	ldp	x8, x9, [sp, #S_X8]
	ldp	x10, x11, [sp, #S_X10]
	ldp	x12, x13, [sp, #S_X12]
	ldp	x14, x15, [sp, #S_X14]
	ldp	x16, x17, [sp, #S_X16]
	ldr	x18, [sp, #S_X18]
	ldp	x29, x30, [sp, #S_FP]
	add	sp, sp, #SDT_THUNK_FRAME
SYM_INNER_LABEL(arm64_sdt_thunk_ret, SYM_L_GLOBAL)
	b	.				/* to the site's next instruction */
	.balign	8
SYM_INNER_LABEL(arm64_sdt_thunk_lit_handler, SYM_L_GLOBAL)
	.quad	0
SYM_INNER_LABEL(arm64_sdt_thunk_lit_data, SYM_L_GLOBAL)
	.quad	0
SYM_INNER_LABEL(arm64_sdt_thunk_lit_site, SYM_L_GLOBAL)
	.quad	0
SYM_DATA_END_LABEL(arm64_sdt_thunk_tmpl, SYM_L_GLOBAL, arm64_sdt_thunk_end)
	.popsection
