/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SDT_H
#define _LINUX_SDT_H

/*
 * SDT sites: statically defined probe points that change nothing in the
 * generated code but one 5-byte NOP, in the style of SystemTap's sdt.h v3
 * and of Solaris/FreeBSD SDT.
 *
 * In C:
 *
 *	SDT_PROBE(sched, wake, p->pid, when);
 *
 * takes 0 to 12 arguments. Each becomes an asm input operand, of int or
 * wider (the "+ 0" rvalue trick, no cast), that the compiler is free to
 * leave where it already is: a register, memory, or an immediate. The site
 * records where each one is, as a "sized operand spec" such as
 * "-4@%edi 8@16(%rsp)": the size in bytes, negative when signed, '@', and
 * the AT&T operand. Nothing is computed, moved or sign-extended for the
 * site.
 *
 * Inside inline asm, with the operands given explicitly:
 *
 *	asm volatile("..." SDT_PROBE_ASM(prov, name, SDT_ASM_TEMPLATE(2)) "..."
 *		     : : SDT_ASM_OPERANDS(a, b));
 *
 * In .S files, with the spec written out:
 *
 *	SDT_PROBE(prov, name, -8@%rdi 8@8(%rsp))
 *
 * Each site leaves a record in __markers (kind MARKER_KIND_SDT: the site,
 * "provider:name" and the spec) for the markers registry, and a standard
 * SystemTap v3 note in the non-allocated .note.stapsdt section (site, base,
 * semaphore 0, provider, name, spec) that readelf -n, gdb, perf and
 * bpftrace read. Probes attach by provider and name:
 *
 *	sdt_set_probe("provider", "name", nargs, probe, data);
 *	sdt_disable_probe("provider", "name", probe, data);
 *
 * and receive the arguments decoded and extended to 64 bits. Arming a site
 * patches its NOP into a call of the SDT trampoline, which decodes the
 * spec (or registers a kprobe on it: debugfs markers/sdt_mechanism).
 *
 * Provider and name are taken literally by every macro here: never
 * macro-expanded, so that SDT_PROBE(linux, current) is linux:current.
 *
 * SDT_ENABLED(provider, name) is true while a probe is attached to the
 * sites provider:name, and a NOP otherwise: a guard for arguments that are
 * costly to compute.
 *
 * With CONFIG_MARKERS=n the macros expand to nothing, and the functions
 * return -EOPNOTSUPP.
 */

#include <linux/marker-defs.h>

/* The most arguments an SDT site may have. */
#define SDT_MAX_ARGS		12

#ifndef __ASSEMBLY__

#include <linux/types.h>

/**
 * typedef sdt_probe_func - a probe attached to SDT sites
 * @probe_data: the data given to sdt_set_probe()
 * @args: the site's arguments, sign- or zero-extended to 64 bits
 * @nargs: how many
 *
 * Called from the site's hit, through the SDT trampoline (or the site's
 * kprobe, when that mechanism is selected), with preemption disabled;
 * must not sleep.
 */
typedef void sdt_probe_func(void *probe_data, const u64 *args,
			    unsigned int nargs);

#endif /* !__ASSEMBLY__ */

#ifdef CONFIG_MARKERS

#include <asm/sdt.h>

#ifndef __ASSEMBLY__

#include <linux/args.h>
#include <linux/stringify.h>
#include <asm/marker.h>

int sdt_set_probe(const char *provider, const char *name, int nargs,
		  sdt_probe_func *probe, void *probe_data);
int sdt_disable_probe(const char *provider, const char *name,
		      sdt_probe_func *probe, void *probe_data);
bool is_sdt_thunk_address(unsigned long addr);
int sdt_thunk_address_lookup(unsigned long addr, unsigned long *size,
			     unsigned long *off, char **modname, char *sym);
int sdt_thunk_get_kallsym(unsigned int symnum, unsigned long *value,
			  char *type, char *sym);

/*
 * The site (the arch's NOP, <asm/sdt.h>), its __markers record, its note,
 * and the note base symbol. @provider and @name are string literals,
 * @args the spec (a template in inline asm: ARCH_SDT_ARG_TMPL() for each
 * argument).
 */
#define __SDT_ASM_BODY(provider, name, args)				\
	"990:	" ARCH_SDT_NOP "\n"						\
	"	.pushsection __markers, \"a\"\n"				\
	"	.balign 4\n"							\
	"	.long 990b - .\n"						\
	"	.long 0\n"							\
	"	.long 991f - .\n"						\
	"	.long 992f - .\n"						\
	"	.long " __stringify(MARKER_KIND_SDT) "\n"			\
	"	.long 0\n"							\
	"	.popsection\n"							\
	"	.pushsection .rodata.str1.1, \"aMS\", @progbits, 1\n"		\
	"991:	.asciz \"" provider ":" name "\"\n"				\
	"992:	.asciz \"" args "\"\n"						\
	"	.popsection\n"							\
	"	.pushsection .note.stapsdt, \"\", \"note\"\n"			\
	"	.balign 4\n"							\
	"	.4byte 994f - 993f\n"						\
	"	.4byte 996f - 995f\n"						\
	"	.4byte 3\n"							\
	"993:	.asciz \"stapsdt\"\n"						\
	"994:	.balign 4\n"							\
	"995:	" ARCH_SDT_ADDR " 990b\n"					\
	"	" ARCH_SDT_ADDR " _.stapsdt.base\n"				\
	"	" ARCH_SDT_ADDR " 0\n"						\
	"	.asciz \"" provider "\"\n"					\
	"	.asciz \"" name "\"\n"						\
	"	.asciz \"" args "\"\n"						\
	"996:	.balign 4\n"							\
	"	.popsection\n"							\
	"	.ifndef _.stapsdt.base\n"					\
	"	.pushsection .stapsdt.base, \"aG\", @progbits, .stapsdt.base, comdat\n" \
	"	.weak _.stapsdt.base\n"						\
	"	.hidden _.stapsdt.base\n"					\
	"_.stapsdt.base:\n"							\
	"	.space 1\n"							\
	"	.size _.stapsdt.base, 1\n"					\
	"	.popsection\n"							\
	"	.endif\n"

/*
 * An SDT site inside inline asm; @args is SDT_ASM_TEMPLATE(n) or a spec.
 * Provider and name are taken literally, never macro-expanded (as by
 * SDT_PROBE() and SDT_ENABLED()): SDT_PROBE_ASM(linux, current, ...) is
 * the site linux:current.
 */
#define SDT_PROBE_ASM(provider, name, args)				\
	__SDT_ASM_BODY(#provider, #name, args)

/*
 * The spec of one argument: its size, negative when signed, computed from
 * its type (arrays and pointers: a pointer), '@', and the operand. The
 * decayed type goes through __typeof__: clang warns on the sizeof of an
 * array's decay (-Wsizeof-array-decay), which is what is meant here.
 */
#define __SDT_SIZE(x)							\
	_Generic((x),							\
		 _Bool: 1, char: 1, signed char: 1, unsigned char: 1,	\
		 short: 2, unsigned short: 2,				\
		 int: 4, unsigned int: 4,				\
		 default: sizeof(__typeof__((x) + 0)))
#define __SDT_SIGNED(x)							\
	_Generic((x),							\
		 char: (char)-1 < 0,					\
		 signed char: 1, short: 1, int: 1, long: 1, long long: 1, \
		 default: 0)
/* The asm operands of argument @i: its size and the value, for the arch. */
#define __SDT_OP(i, x)							\
	[__sdt_s##i] "n" ((__SDT_SIGNED(x) ? -1 : 1) * (int)__SDT_SIZE(x)), \
	[__sdt_a##i] ARCH_SDT_ARG_CONSTRAINT ((x) + 0)
#define __SDT_ARG_TMPL(i)	ARCH_SDT_ARG_TMPL(i)

#define __SDT_OPERANDS_0()
#define __SDT_OPERANDS_1(a1)	__SDT_OP(1, a1)
#define __SDT_OPERANDS_2(a1, a2) \
	__SDT_OPERANDS_1(a1), __SDT_OP(2, a2)
#define __SDT_OPERANDS_3(a1, a2, a3) \
	__SDT_OPERANDS_2(a1, a2), __SDT_OP(3, a3)
#define __SDT_OPERANDS_4(a1, a2, a3, a4) \
	__SDT_OPERANDS_3(a1, a2, a3), __SDT_OP(4, a4)
#define __SDT_OPERANDS_5(a1, a2, a3, a4, a5) \
	__SDT_OPERANDS_4(a1, a2, a3, a4), __SDT_OP(5, a5)
#define __SDT_OPERANDS_6(a1, a2, a3, a4, a5, a6) \
	__SDT_OPERANDS_5(a1, a2, a3, a4, a5), __SDT_OP(6, a6)
#define __SDT_OPERANDS_7(a1, a2, a3, a4, a5, a6, a7) \
	__SDT_OPERANDS_6(a1, a2, a3, a4, a5, a6), __SDT_OP(7, a7)
#define __SDT_OPERANDS_8(a1, a2, a3, a4, a5, a6, a7, a8) \
	__SDT_OPERANDS_7(a1, a2, a3, a4, a5, a6, a7), __SDT_OP(8, a8)
#define __SDT_OPERANDS_9(a1, a2, a3, a4, a5, a6, a7, a8, a9) \
	__SDT_OPERANDS_8(a1, a2, a3, a4, a5, a6, a7, a8), __SDT_OP(9, a9)
#define __SDT_OPERANDS_10(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
	__SDT_OPERANDS_9(a1, a2, a3, a4, a5, a6, a7, a8, a9), __SDT_OP(10, a10)
#define __SDT_OPERANDS_11(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
	__SDT_OPERANDS_10(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10), __SDT_OP(11, a11)
#define __SDT_OPERANDS_12(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
	__SDT_OPERANDS_11(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11), __SDT_OP(12, a12)

#define SDT_ASM_TEMPLATE_0	""
#define SDT_ASM_TEMPLATE_1	__SDT_ARG_TMPL(1)
#define SDT_ASM_TEMPLATE_2	SDT_ASM_TEMPLATE_1 " " __SDT_ARG_TMPL(2)
#define SDT_ASM_TEMPLATE_3	SDT_ASM_TEMPLATE_2 " " __SDT_ARG_TMPL(3)
#define SDT_ASM_TEMPLATE_4	SDT_ASM_TEMPLATE_3 " " __SDT_ARG_TMPL(4)
#define SDT_ASM_TEMPLATE_5	SDT_ASM_TEMPLATE_4 " " __SDT_ARG_TMPL(5)
#define SDT_ASM_TEMPLATE_6	SDT_ASM_TEMPLATE_5 " " __SDT_ARG_TMPL(6)
#define SDT_ASM_TEMPLATE_7	SDT_ASM_TEMPLATE_6 " " __SDT_ARG_TMPL(7)
#define SDT_ASM_TEMPLATE_8	SDT_ASM_TEMPLATE_7 " " __SDT_ARG_TMPL(8)
#define SDT_ASM_TEMPLATE_9	SDT_ASM_TEMPLATE_8 " " __SDT_ARG_TMPL(9)
#define SDT_ASM_TEMPLATE_10	SDT_ASM_TEMPLATE_9 " " __SDT_ARG_TMPL(10)
#define SDT_ASM_TEMPLATE_11	SDT_ASM_TEMPLATE_10 " " __SDT_ARG_TMPL(11)
#define SDT_ASM_TEMPLATE_12	SDT_ASM_TEMPLATE_11 " " __SDT_ARG_TMPL(12)

/* The spec template and the asm operands of n arguments. */
#define SDT_ASM_TEMPLATE(n)		CONCATENATE(SDT_ASM_TEMPLATE_, n)
#define SDT_ASM_OPERANDS(args...)					\
	CONCATENATE(__SDT_OPERANDS_, COUNT_ARGS(args))(args)

/*
 * SDT_PROBE(provider, name, args...): 0 to 12 arguments. Provider and name
 * are stringified here, before any macro could expand them.
 */
#define SDT_PROBE(provider, name, args...)				\
	asm volatile(__SDT_ASM_BODY(#provider, #name,			\
				    SDT_ASM_TEMPLATE(COUNT_ARGS(args)))	\
		     : : SDT_ASM_OPERANDS(args))

/*
 * SDT_ENABLED(provider, name): true while a probe is attached to the SDT
 * sites provider:name; a NOP while dormant (gen-provider's *_ENABLED()).
 */
#define SDT_ENABLED(provider, name)					\
({									\
	static struct marker_desc __sdt_desc_##provider##_##name	\
		__aligned(8) = MARKER_DESC_INIT;			\
	unlikely(arch_marker_branch(&__sdt_desc_##provider##_##name,	\
				    #provider ":" #name, "",		\
				    MARKER_KIND_GUARD));		\
})

#else /* __ASSEMBLY__ */

/* SDT_PROBE(provider, name, spec) in .S files: the spec is written out. */
#define SDT_PROBE(provider, name, args...)				\
990:	ARCH_SDT_NOP;							\
	.pushsection __markers, "a";					\
	.balign 4;							\
	.long 990b - .;							\
	.long 0;							\
	.long 991f - .;							\
	.long 992f - .;							\
	.long MARKER_KIND_SDT;						\
	.long 0;							\
	.popsection;							\
	.pushsection .rodata.str1.1, "aMS", @progbits, 1;		\
991:	.ascii #provider;						\
	.ascii ":";							\
	.asciz #name;							\
992:	.asciz #args;							\
	.popsection;							\
	.pushsection .note.stapsdt, "", "note";				\
	.balign 4;							\
	.4byte 994f - 993f;						\
	.4byte 996f - 995f;						\
	.4byte 3;							\
993:	.asciz "stapsdt";						\
994:	.balign 4;							\
995:	ARCH_SDT_ADDR 990b;						\
	ARCH_SDT_ADDR _.stapsdt.base;					\
	ARCH_SDT_ADDR 0;						\
	.asciz #provider;						\
	.asciz #name;							\
	.asciz #args;							\
996:	.balign 4;							\
	.popsection;							\
	.ifndef _.stapsdt.base;						\
	.pushsection .stapsdt.base, "aG", @progbits, .stapsdt.base, comdat; \
	.weak _.stapsdt.base;						\
	.hidden _.stapsdt.base;						\
_.stapsdt.base:								\
	.space 1;							\
	.size _.stapsdt.base, 1;					\
	.popsection;							\
	.endif

#endif /* __ASSEMBLY__ */

#else /* !CONFIG_MARKERS */

#ifndef __ASSEMBLY__
#include <linux/errno.h>

static inline int sdt_set_probe(const char *provider, const char *name,
				int nargs, sdt_probe_func *probe,
				void *probe_data)
{
	return -EOPNOTSUPP;
}

static inline int sdt_disable_probe(const char *provider, const char *name,
				    sdt_probe_func *probe, void *probe_data)
{
	return -EOPNOTSUPP;
}

static inline bool is_sdt_thunk_address(unsigned long addr)
{
	return false;
}

static inline int sdt_thunk_address_lookup(unsigned long addr,
					   unsigned long *size,
					   unsigned long *off, char **modname,
					   char *sym)
{
	return 0;
}

static inline int sdt_thunk_get_kallsym(unsigned int symnum,
					unsigned long *value, char *type,
					char *sym)
{
	return -ERANGE;
}

#define SDT_PROBE(...)			do { } while (0)
#define SDT_PROBE_ASM(...)		""
#define SDT_ASM_TEMPLATE(...)		""
#define SDT_ASM_OPERANDS(...)
#define SDT_ENABLED(...)		false
#else
#define SDT_PROBE(...)
#endif

#endif /* CONFIG_MARKERS */

#endif /* _LINUX_SDT_H */
