// SPDX-License-Identifier: GPL-2.0
/*
 * SDT sites on arm64: decoding the operands of sized operand specs.
 *
 * A spec is a space-separated list of N@OP (kernel/markers/sdt_decode.c
 * splits it), OP an operand as the compiler printed it (sys/sdt.h's
 * syntax on aarch64):
 *
 *	x0 .. x30, w0 .. w30, sp	a register
 *	xzr, wzr			the zero register: 0
 *	5, -5, 0x10, #5			an immediate
 *	[x1], [sp, 16], [x2, -8]	memory: a base register and a
 *					displacement ('#' optional)
 *	sym, sym+8			memory at a symbol, for .S sites
 *
 * Vector registers (v0, d0, s0...) are refused: the kernel keeps no value
 * in them, and kprobes' pt_regs does not hold them. So is a :lo12:
 * relocation operator, whose value is only the low 12 bits of an address.
 */

#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/sdt-decode.h>
#include <linux/string.h>

/* A number, maybe with a '#' before it, @len bytes at @p. */
static int sdt_parse_imm(const char *p, size_t len, s64 *val)
{
	if (len && *p == '#') {
		p++;
		len--;
	}
	return sdt_parse_num(p, len, val);
}

/*
 * Register @len bytes at @p: its pt_regs slot (0-30, SDT_REG_SP for sp),
 * 32 for the zero register, -EINVAL if not a general register.
 */
static int sdt_parse_reg(const char *p, size_t len)
{
	s64 n;

	if ((len == 2 && !strncmp(p, "sp", 2)) ||
	    (len == 3 && !strncmp(p, "wsp", 3)))
		return SDT_REG_SP;
	if ((len == 3 && !strncmp(p, "xzr", 3)) ||
	    (len == 3 && !strncmp(p, "wzr", 3)))
		return 32;
	if (len < 2 || (*p != 'x' && *p != 'w') || !isdigit(p[1]) ||
	    sdt_parse_num(p + 1, len - 1, &n) || n < 0 || n > 30)
		return -EINVAL;
	return n;
}

static bool sdt_is_vector_reg(const char *p, size_t len)
{
	return len >= 2 && strchr("vbhsdq", *p) && isdigit(p[1]);
}

static size_t sdt_ident_len(const char *p, size_t len)
{
	size_t n = 0;

	while (n < len && (isalnum(p[n]) || p[n] == '_' || p[n] == '.'))
		n++;
	return n;
}

/* "[base]" or "[base, disp]", @len bytes at @p. */
static int sdt_parse_mem(const char *p, size_t len, struct sdt_arg *a,
			 struct sdt_prog *prog)
{
	const char *end = p + len - 1, *comma;
	int r;

	if (len < 3 || *end != ']')
		return sdt_refuse(prog, "operand");
	p++;
	comma = strnchr(p, end - p, ',');
	r = sdt_parse_reg(p, (comma ?: end) - p);
	if (r < 0 || r == 32)
		return sdt_refuse(prog, "register");
	a->reg = r;
	a->val = 0;
	if (!comma)
		return 0;
	p = comma + 1;
	while (*p == ' ')
		p++;
	if (strnstr(p, ":lo12:", end - p))
		return sdt_refuse(prog, "lo12");
	return sdt_parse_imm(p, end - p, &a->val) ?
	       sdt_refuse(prog, "displacement") : 0;
}

/* One operand, @len bytes at @p: see the top. */
int arch_sdt_parse_op(const char *p, size_t len, struct sdt_arg *a,
		      struct sdt_prog *prog, sdt_sym_resolver *resolve,
		      void *ctx)
{
	int r;

	if (*p == '[') {
		a->kind = SDT_ARG_MEM;
		return sdt_parse_mem(p, len, a, prog);
	}
	if (*p == '#' || *p == '-' || isdigit(*p)) {
		a->kind = SDT_ARG_IMM;
		return sdt_parse_imm(p, len, &a->val) ?
		       sdt_refuse(prog, "immediate") : 0;
	}
	r = sdt_parse_reg(p, len);
	if (r == 32) {
		a->kind = SDT_ARG_IMM;
		a->val = 0;
		return 0;
	}
	if (r >= 0) {
		a->kind = SDT_ARG_REG;
		a->reg = r;
		return 0;
	}
	if (sdt_is_vector_reg(p, len) && sdt_ident_len(p, len) == len)
		return sdt_refuse(prog, "vector register");
	a->kind = SDT_ARG_MEM;
	a->reg = SDT_NO_REG;
	return sdt_parse_sym(p, len, sdt_ident_len(p, len), a, prog, resolve,
			     ctx);
}
