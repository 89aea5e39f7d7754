/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sdt-example: an SDT site in a .S file, with its operand spec written out.
 */

#include <linux/linkage.h>
#include <linux/sdt.h>
#ifdef CONFIG_X86
#include <asm/asm.h>
#endif

	.text

/* long sdt_example_asm(long a, long b): fires sdt_example:from_asm. */
SYM_FUNC_START(sdt_example_asm)
#ifdef CONFIG_ARM64
	SDT_PROBE(sdt_example, from_asm, -8@x0 8@x1)
	ret
#else
	movq %rdi, %rax
	SDT_PROBE(sdt_example, from_asm, -8@%rax 8@%rsi)
	RET
#endif
SYM_FUNC_END(sdt_example_asm)
