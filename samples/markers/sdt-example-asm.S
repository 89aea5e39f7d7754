/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sdt-example: an SDT site in a .S file, with its operand spec written out.
 */

#include <linux/linkage.h>
#include <linux/sdt.h>
#include <asm/asm.h>

	.text

/* long sdt_example_asm(long a, long b): fires sdt_example:from_asm. */
SYM_FUNC_START(sdt_example_asm)
	movq %rdi, %rax
	SDT_PROBE(sdt_example, from_asm, -8@%rax 8@%rsi)
	RET
SYM_FUNC_END(sdt_example_asm)
