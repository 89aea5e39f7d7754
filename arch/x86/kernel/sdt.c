// SPDX-License-Identifier: GPL-2.0
/*
 * SDT sites on x86-64: decoding the operands of sized operand specs.
 *
 * A spec is a space-separated list of N@OP (kernel/markers/sdt_decode.c
 * splits it), OP an AT&T operand as the compiler printed it: %reg, $imm,
 * or memory: [%gs:]disp(base,index,scale), any part optional, with disp a
 * number, a symbol, or a symbol plus or minus a number, and base %rip
 * with a symbol. See <asm/sdt.h> and arch_sdt_parse_op().
 */

#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/sdt-decode.h>
#include <linux/string.h>

/*
 * The AT&T register names of each width, by the name pt_regs knows the
 * register by (regs_query_register_offset()): "ax" is %rax, %eax, %ax, %al.
 */
static const struct {
	const char *reg;
	const char *name[4];	/* 64, 32, 16, 8 bits */
} sdt_regs[] = {
	{ "ax", { "rax", "eax", "ax", "al" } },
	{ "bx", { "rbx", "ebx", "bx", "bl" } },
	{ "cx", { "rcx", "ecx", "cx", "cl" } },
	{ "dx", { "rdx", "edx", "dx", "dl" } },
	{ "si", { "rsi", "esi", "si", "sil" } },
	{ "di", { "rdi", "edi", "di", "dil" } },
	{ "bp", { "rbp", "ebp", "bp", "bpl" } },
	{ "sp", { "rsp", "esp", "sp", "spl" } },
	{ "r8", { "r8", "r8d", "r8w", "r8b" } },
	{ "r9", { "r9", "r9d", "r9w", "r9b" } },
	{ "r10", { "r10", "r10d", "r10w", "r10b" } },
	{ "r11", { "r11", "r11d", "r11w", "r11b" } },
	{ "r12", { "r12", "r12d", "r12w", "r12b" } },
	{ "r13", { "r13", "r13d", "r13w", "r13b" } },
	{ "r14", { "r14", "r14d", "r14w", "r14b" } },
	{ "r15", { "r15", "r15d", "r15w", "r15b" } },
	/* The high bytes: bits 15:8. */
	{ "ax", { "", "", "", "ah" } },
	{ "bx", { "", "", "", "bh" } },
	{ "cx", { "", "", "", "ch" } },
	{ "dx", { "", "", "", "dh" } },
};

/* The pt_regs slot of register @name (@len bytes), or -EINVAL. */
static int sdt_parse_reg(const char *name, size_t len, u8 *shift)
{
	unsigned int i, w;
	int off;

	for (i = 0; i < ARRAY_SIZE(sdt_regs); i++) {
		for (w = 0; w < 4; w++) {
			if (!len || strlen(sdt_regs[i].name[w]) != len ||
			    strncmp(sdt_regs[i].name[w], name, len))
				continue;
			off = regs_query_register_offset(sdt_regs[i].reg);
			if (off < 0)
				return off;
			*shift = sdt_regs[i].name[0][0] ? 0 : 8;
			return off / sizeof(unsigned long);
		}
	}
	return -EINVAL;
}

static size_t sdt_ident_len(const char *p)
{
	size_t n = 0;

	while (isalnum(p[n]) || p[n] == '_' || p[n] == '.' || p[n] == '$')
		n++;
	return n;
}

/* "%reg" at @p: its slot and shift; returns the length consumed, or <0. */
static int sdt_reg_at(const char *p, u8 *slot, u8 *shift)
{
	size_t len;
	int r;

	if (*p != '%')
		return -EINVAL;
	len = sdt_ident_len(p + 1);
	r = sdt_parse_reg(p + 1, len, shift);
	if (r < 0)
		return r;
	*slot = r;
	return len + 1;
}

/*
 * A displacement, @len bytes at @p: a number, a symbol, or a symbol plus
 * or minus a number. The symbol is resolved into the sum.
 */
static int sdt_parse_disp(const char *p, size_t len, struct sdt_arg *a,
			  struct sdt_prog *prog, sdt_sym_resolver *resolve,
			  void *ctx, bool *has_sym)
{
	size_t n;

	a->val = 0;
	*has_sym = false;
	if (!len)
		return 0;
	n = (*p == '-' || isdigit(*p)) ? 0 : sdt_ident_len(p);
	if (!n)
		return sdt_parse_num(p, len, &a->val) ?
		       sdt_refuse(prog, "displacement") : 0;
	*has_sym = true;
	return sdt_parse_sym(p, len, n, a, prog, resolve, ctx);
}

/*
 * One operand, @len bytes at @p:
 *
 *	%reg				a register, of any width
 *	$imm				an immediate
 *	[%gs:]disp(base,index,scale)	memory; base, index and scale optional
 *	[%gs:]sym[+-num](%rip)		memory, %rip-relative
 *	[%gs:]disp			memory, absolute
 *
 * where disp is a number, a symbol, or a symbol plus or minus a number
 * (with -mcmodel=kernel a symbol is a sign-extended 32-bit displacement).
 * %gs: makes the address per-CPU, as this CPU's accessors do.
 */
int arch_sdt_parse_op(const char *p, size_t len, struct sdt_arg *a,
		      struct sdt_prog *prog, sdt_sym_resolver *resolve,
		      void *ctx)
{
	const char *end = p + len, *q;
	bool has_sym;
	int r;

	if (*p == '%' && strncmp(p, "%gs:", 4)) {
		a->kind = SDT_ARG_REG;
		r = sdt_reg_at(p, &a->reg, &a->shift);
		return r == len ? 0 : sdt_refuse(prog, "register");
	}
	if (*p == '$') {
		a->kind = SDT_ARG_IMM;
		if (sdt_parse_num(p + 1, len - 1, &a->val))
			return sdt_refuse(prog, "immediate");
		return 0;
	}

	a->kind = SDT_ARG_MEM;
	a->reg = SDT_NO_REG;
	a->index = SDT_NO_REG;
	a->scale = 1;
	if (!strncmp(p, "%gs:", 4)) {
		a->gs = 1;
		p += 4;
	}
	q = strnchr(p, end - p, '(');
	if (!q) {	/* absolute */
		if (p == end)
			return sdt_refuse(prog, "operand");
		return sdt_parse_disp(p, end - p, a, prog, resolve, ctx, &has_sym);
	}
	if (end[-1] != ')')
		return sdt_refuse(prog, "operand");
	r = sdt_parse_disp(p, q - p, a, prog, resolve, ctx, &has_sym);
	if (r)
		return r;
	q++;
	if (!strncmp(q, "%rip)", 5)) {
		/* Only symbolic: a site is a NOP, not an instruction. */
		if (!has_sym)
			return sdt_refuse(prog, "rip");
		return q + 5 == end ? 0 : sdt_refuse(prog, "operand");
	}
	if (*q != ',') {
		r = sdt_reg_at(q, &a->reg, &a->shift);
		if (r < 0 || a->shift)
			return sdt_refuse(prog, "register");
		q += r;
	}
	if (*q == ',') {
		u8 shift;

		q++;
		r = sdt_reg_at(q, &a->index, &shift);
		if (r < 0 || shift)
			return sdt_refuse(prog, "register");
		q += r;
		if (*q == ',') {
			q++;
			if (*q != '1' && *q != '2' && *q != '4' && *q != '8')
				return sdt_refuse(prog, "scale");
			a->scale = *q++ - '0';
		}
	}
	return (q == end - 1 && *q == ')') ? 0 : sdt_refuse(prog, "operand");
}
