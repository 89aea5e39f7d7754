// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: the operand specs of SDT sites, the part every arch
 * shares.
 *
 * A spec is a space-separated list of N@OP, N the size in bytes (negative
 * when signed) and OP an operand as the compiler printed it, in the arch's
 * syntax (sys/sdt.h's). sdt_parse() splits the spec and checks the sizes;
 * each operand is the arch's (arch_sdt_parse_op(), arch/$ARCH/kernel/
 * sdt.c). sdt_fetch() reads the arguments at a hit, the registers and
 * addresses by the arch's arch_sdt_reg() and arch_sdt_addr().
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/kstrtox.h>
#include <linux/sdt-decode.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <kunit/visibility.h>

/**
 * sdt_refuse - fail the parse of a program, saying why
 * @prog: the program
 * @why: a few words, for the listing ("size", "vector register")
 *
 * Return: -EINVAL.
 */
int sdt_refuse(struct sdt_prog *prog, const char *why)
{
	prog->why = why;
	return -EINVAL;
}

/**
 * sdt_parse_num - read a signed number in C notation (decimal or 0x hex)
 * @p: its text, not terminated
 * @len: its length
 * @val: where to store it
 *
 * Return: 0, or -EINVAL (-ERANGE) for text that is not a number (that
 * does not fit in 64 bits).
 */
int sdt_parse_num(const char *p, size_t len, s64 *val)
{
	char buf[24];

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, p, len);
	buf[len] = '\0';
	return kstrtos64(buf, 0, val);
}

/* The longest symbol an operand may name. */
#define SDT_SYM_MAX	128

/**
 * sdt_parse_sym - parse a symbol plus or minus a number, into its address
 * @p: the text, not terminated: the symbol's @n bytes, then the number
 * @len: the length of the text
 * @n: the length of the symbol (what a symbol may hold is the arch's)
 * @a: the argument: its val becomes the sum, and its sym is set
 * @prog: the program being parsed
 * @resolve: the resolver sdt_parse() was given, or NULL
 * @ctx: passed to @resolve
 *
 * Return: 0, or -EINVAL with prog->why "symbol" (too long, unknown or
 * ambiguous) or "displacement".
 */
int sdt_parse_sym(const char *p, size_t len, size_t n, struct sdt_arg *a,
		  struct sdt_prog *prog, sdt_sym_resolver *resolve, void *ctx)
{
	char sym[SDT_SYM_MAX];
	unsigned long addr;

	if (!n || n >= sizeof(sym))
		return sdt_refuse(prog, "symbol");
	memcpy(sym, p, n);
	sym[n] = '\0';
	addr = resolve ? resolve(ctx, sym) : 0;
	if (!addr)
		return sdt_refuse(prog, "symbol");
	a->val = 0;
	if (n < len && sdt_parse_num(p + n, len - n, &a->val))
		return sdt_refuse(prog, "displacement");
	a->val += addr;
	a->sym = 1;
	return 0;
}

/**
 * sdt_spec_next - find the next operand of a sized operand spec
 * @p: the spec, or the end of the previous operand
 * @end: set to the end of the operand found
 *
 * An operand ends at the next space, but one in brackets at its ']':
 * arm64's "8@[sp, 16]" is one operand. Whatever counts or splits a spec
 * does it here, so that the registry, the parser and the trace event
 * agree on a site's arguments.
 *
 * Return: the operand ("N@OP"), or NULL after the last.
 */
const char *sdt_spec_next(const char *p, const char **end)
{
	const char *at;

	while (*p == ' ')
		p++;
	if (!*p)
		return NULL;
	*end = strchrnul(p, ' ');
	at = strnchr(p, *end - p, '@');
	if (at && at[1] == '[') {
		*end = strchrnul(at, ']');
		if (**end)
			(*end)++;
	}
	return p;
}

/**
 * sdt_spec_nargs - count the operands of a sized operand spec
 * @spec: the spec, "N@OP N@OP ..."
 *
 * Return: the number of operands, as sdt_spec_next() finds them; parsed
 * or not.
 */
int sdt_spec_nargs(const char *spec)
{
	int n = 0;
	const char *end;

	while ((spec = sdt_spec_next(spec, &end))) {
		n++;
		spec = end;
	}
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(sdt_spec_nargs);

/**
 * sdt_parse - compile a sized operand spec
 * @spec: the spec, "N@OP N@OP ..."
 * @prog: where to store the program
 * @resolve: resolves the symbols of operands, or NULL
 * @ctx: passed to @resolve
 *
 * Its operands are sdt_spec_next()'s.
 *
 * Return: the number of arguments, or -EINVAL for a spec that does not
 * parse (a bad size, an operand the arch refuses, more than SDT_MAX_ARGS
 * arguments), with prog->why saying which.
 */
int sdt_parse(const char *spec, struct sdt_prog *prog,
	      sdt_sym_resolver *resolve, void *ctx)
{
	const char *p = spec, *at, *end;
	struct sdt_arg *a;
	s64 size;
	int ret;

	memset(prog, 0, sizeof(*prog));
	while ((p = sdt_spec_next(p, &end))) {
		if (prog->nargs >= SDT_MAX_ARGS)
			return sdt_refuse(prog, "arguments");
		a = &prog->arg[prog->nargs];
		at = strnchr(p, end - p, '@');
		if (!at || sdt_parse_num(p, at - p, &size))
			return sdt_refuse(prog, "size");
		switch (size) {
		case 1: case 2: case 4: case 8:
		case -1: case -2: case -4: case -8:
			a->size = size;
			break;
		default:
			return sdt_refuse(prog, "size");
		}
		ret = arch_sdt_parse_op(at + 1, end - at - 1, a, prog, resolve,
					ctx);
		if (ret)
			return ret;
		prog->nargs++;
		p = end;
	}
	return prog->nargs;
}
EXPORT_SYMBOL_IF_KUNIT(sdt_parse);

/**
 * sdt_fetch - fetch the arguments of a site at a hit
 * @prog: the site's program, from sdt_parse()
 * @regs: the registers at the site
 * @args: where to store prog->nargs values, extended to 64 bits as their
 *	  sizes say
 *
 * Memory is read with copy_from_kernel_nofault(); an argument whose read
 * faults is 0.
 *
 * Return: the number of reads that faulted.
 */
unsigned int sdt_fetch(const struct sdt_prog *prog, struct pt_regs *regs,
		       u64 *args)
{
	unsigned int i, faults = 0;
	u64 v;

	for (i = 0; i < prog->nargs; i++) {
		const struct sdt_arg *a = &prog->arg[i];

		v = 0;
		switch (a->kind) {
		case SDT_ARG_REG:
			v = arch_sdt_reg(regs, a);
			break;
		case SDT_ARG_IMM:
			v = a->val;
			break;
		case SDT_ARG_MEM:
			if (copy_from_kernel_nofault(&v, (void *)arch_sdt_addr(regs, a),
						     abs(a->size))) {
				v = 0;
				faults++;
			}
			break;
		}
		args[i] = sdt_arg_extend(v, a->size);
	}
	return faults;
}
EXPORT_SYMBOL_IF_KUNIT(sdt_fetch);
NOKPROBE_SYMBOL(sdt_fetch);
