// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "markers_sdt": SDT sites. Operand specs decoded against
 * fabricated registers, then real sites (in C, in inline asm, in a .S
 * file) armed with a call of the trampoline, and through optimized and
 * int3 kprobes.
 */

#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/sdt.h>
#include <linux/sdt-decode.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/irqflags.h>

#include "../internal.h"
#include "markers_sdt_kunit.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static const u8 sdt_nop5[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

/* What the probe saw. */
struct sdt_hit {
	int nr;
	unsigned int nargs;
	u64 args[SDT_MAX_ARGS];
};

static struct sdt_hit hit;

static void sdt_record(void *data, const u64 *args, unsigned int nargs)
{
	struct sdt_hit *h = data;

	h->nr++;
	h->nargs = nargs;
	memcpy(h->args, args, nargs * sizeof(*args));
}

/* --- Decoding --------------------------------------------------------- */

static u64 sdt_kunit_var = 0x1122334455667788ULL;
static u64 sdt_kunit_mem[4] = { 10, 0xfffffffffffffff6ULL, 30, 0x80000000ULL };

static DEFINE_PER_CPU(u64, sdt_kunit_pcpu);

static unsigned long sdt_kunit_resolve(void *ctx, const char *sym)
{
	if (!strcmp(sym, "sdt_kunit_var"))
		return (unsigned long)&sdt_kunit_var;
	if (!strcmp(sym, "sdt_kunit_mem"))
		return (unsigned long)sdt_kunit_mem;
	if (!strcmp(sym, "sdt_kunit_pcpu"))
		return (unsigned long)&sdt_kunit_pcpu;
	return 0;
}

static void sdt_test_decode(struct kunit *test)
{
	static const struct {
		const char *spec;
		u64 val;
		unsigned int faults;
	} ok[] = {
		{ "8@%rax", 0x1122334455667788ULL },
		{ "4@%eax", 0x55667788ULL },
		{ "-4@%ecx", 0xffffffff80000001ULL },
		{ "4@%ecx", 0x80000001ULL },
		{ "2@%cx", 0x0001 },
		{ "-2@%dx", (u64)-2 },
		{ "2@%dx", 0xfffe },
		{ "1@%al", 0x88 },
		{ "-1@%al", 0xffffffffffffff88ULL },
		{ "1@%ah", 0x77 },
		{ "-8@%rbx", (u64)-42 },
		{ "8@%r8", 0xfffffffffffffff0ULL },
		{ "-4@%r8d", (u64)-16 },
		{ "2@%r8w", 0xfff0 },
		{ "-1@%r8b", (u64)-16 },
		{ "8@%r15", 15 },
		{ "4@%ebp", 0x0b0b0b0b },
		{ "-4@$-3", (u64)-3 },
		{ "8@$0x10", 16 },
		{ "4@$5", 5 },
		{ "8@(%rsi)", 10 },
		{ "-8@8(%rsi)", (u64)-10 },
		{ "8@(%rsi,%rcx,8)", 0 /* filled in below */ },
		{ "-4@24(%rsi)", 0xffffffff80000000ULL },
		{ "4@24(%rsi)", 0x80000000ULL },
		{ "8@-8(%rdi)", 30 },
		{ "8@8(%rsp)", 0xfffffffffffffff6ULL },
		{ "8@sdt_kunit_var(%rip)", 0x1122334455667788ULL },
		{ "-4@sdt_kunit_var+4(%rip)", 0x11223344ULL },
		{ "8@(%r9)", 0, 1 },
		/* Symbol displacements, with and without registers. */
		{ "8@sdt_kunit_mem(%r9)", 10 },
		{ "8@sdt_kunit_mem+8(,%r9,8)", 0xfffffffffffffff6ULL },
		{ "-4@sdt_kunit_mem+16(%r9,%r9,4)", 30 },
		{ "-1@sdt_kunit_mem-7(,%r15,1)", (u64)-10 /* r15 is 15: mem[1] */ },
		{ "8@sdt_kunit_mem+24", 0x80000000ULL },
		{ "8@sdt_kunit_var", 0x1122334455667788ULL },
		{ "2@sdt_kunit_var-0", 0x7788 },
		{ "8@24", 0, 1 },
#ifdef CONFIG_SMP
		/* This CPU's copy of a per-CPU variable. */
		{ "8@%gs:sdt_kunit_pcpu(%rip)", 0x5566 },
		{ "4@%gs:sdt_kunit_pcpu", 0x5566 },
#else
		/* On UP a per-CPU variable is a plain one, without %gs:. */
		{ "8@sdt_kunit_pcpu(%rip)", 0x5566 },
#endif
	};
	static const char * const bad[] = {
		"4@%foo", "3@%eax", "4@", "@%eax", "%eax", "4@(%rax", "4@8(%rip)",
		"4@unknown_symbol(%rip)", "4@(%rax,%rbx,3)", "4@$", "4@%ah(%rax)",
		"16@%rax", "4@%eax junk", "4@%gs:%eax", "4@%fs:8",
		"4@unknown_symbol(,%rax,4)", "4@sdt_kunit_mem+x(%rax)",
		"1@%al 1@%al 1@%al 1@%al 1@%al 1@%al 1@%al 1@%al 1@%al 1@%al 1@%al 1@%al 1@%al",
	};
	struct pt_regs regs = {};
	struct sdt_prog prog;
	unsigned int i, faults;
	u64 v;

	regs.ax = 0x1122334455667788ULL;
	regs.bx = (u64)-42;
	regs.cx = 0x80000001ULL;
	regs.dx = 0xfffe;
	regs.si = (unsigned long)sdt_kunit_mem;
	regs.di = (unsigned long)&sdt_kunit_mem[3];
	regs.bp = 0x0b0b0b0b0b0b0b0bULL;
	regs.sp = (unsigned long)sdt_kunit_mem;
	regs.r8 = 0xfffffffffffffff0ULL;
	regs.r9 = 0;
	regs.r15 = 15;
	for_each_possible_cpu(i)
		per_cpu(sdt_kunit_pcpu, i) = 0x5566;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		KUNIT_ASSERT_EQ_MSG(test, sdt_parse(ok[i].spec, &prog,
						    sdt_kunit_resolve, NULL),
				    1, "%s", ok[i].spec);
		if (!strcmp(ok[i].spec, "8@(%rsi,%rcx,8)")) {
			/* index 1: mem[1] */
			regs.cx = 1;
			faults = sdt_fetch(&prog, &regs, &v);
			regs.cx = 0x80000001ULL;
			KUNIT_EXPECT_EQ(test, v, 0xfffffffffffffff6ULL);
			continue;
		}
		faults = sdt_fetch(&prog, &regs, &v);
		KUNIT_EXPECT_EQ_MSG(test, v, ok[i].val, "%s", ok[i].spec);
		KUNIT_EXPECT_EQ_MSG(test, faults, ok[i].faults, "%s", ok[i].spec);
	}
	/* "8@%sil" takes the low byte of %rsi. */
	KUNIT_EXPECT_EQ(test, sdt_parse("1@%sil", &prog, NULL, NULL), 1);
	sdt_fetch(&prog, &regs, &v);
	KUNIT_EXPECT_EQ(test, v, (u64)(regs.si & 0xff));

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, sdt_parse(bad[i], &prog,
						    sdt_kunit_resolve, NULL),
				    -EINVAL, "%s", bad[i]);
	/* A refusal says why, in one word. */
	KUNIT_EXPECT_EQ(test, sdt_parse("4@unknown_symbol(%rip)", &prog,
					sdt_kunit_resolve, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, prog.why, "symbol");
	KUNIT_EXPECT_EQ(test, sdt_parse("4@%foo", &prog, NULL, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, prog.why, "register");
	KUNIT_EXPECT_EQ(test, sdt_parse("", &prog, NULL, NULL), 0);
	KUNIT_EXPECT_EQ(test, sdt_parse(" -4@%edi  8@%rsi ", &prog, NULL, NULL), 2);
}

/* --- Sites ------------------------------------------------------------ */

static noinline int sdt_c_site(int a, unsigned int b, long c, const char *p,
			       signed char ch)
{
	SDT_PROBE(kunit, c_site, a, b, c, p, ch);
	return a;
}

/*
 * The most arguments a site takes: 12, some of them spilled. noipa, or
 * with clang __used (its address escapes), keeps b unknown at the site.
 */
#ifdef CONFIG_CC_IS_GCC
static noinline __attribute__((__noipa__)) void sdt_c_twelve(int b)
#else
static noinline __used void sdt_c_twelve(int b)
#endif
{
	SDT_PROBE(kunit, twelve, b, b + 1, b + 2, b + 3, b + 4, b + 5, b + 6,
		  b + 7, b + 8, b + 9, b + 10, (long)b + 11);
}

static noinline void sdt_c_noargs(void)
{
	SDT_PROBE(kunit, noargs);
}

/*
 * The longest thunk: 12 operands of the longest form a thunk encodes, a
 * signed 2-byte load of a per-CPU symbol (movabs, a %gs: movswq and the
 * store into the argument's slot).
 */
static DEFINE_PER_CPU(s16, sdt_kunit_pcpu16);
#define SDT_W	"-2@%%gs:sdt_kunit_pcpu16 "

static noinline void sdt_c_widest(void)
{
	asm volatile(SDT_PROBE_ASM(kunit, widest, SDT_W SDT_W SDT_W SDT_W SDT_W
				   SDT_W SDT_W SDT_W SDT_W SDT_W SDT_W
				   "-2@%%gs:sdt_kunit_pcpu16") : : : "memory");
}

/* A site where kprobes may not go. */
static noinline int sdt_c_nokprobe(int x)
{
	SDT_PROBE(kunit, nokprobe_site, x);
	return x;
}

NOKPROBE_SYMBOL(sdt_c_nokprobe);

/* A site in a user access section: AC set, with SMAP. */
static noinline void sdt_c_uaccess(void __user *p)
{
	if (!user_access_begin(p, 1))
		return;
	SDT_PROBE(kunit, uaccess_site, p);
	user_access_end();
}

/*
 * linux and current are macros (the compiler's 1, and get_current()): a
 * site named by them is still linux:current.
 */
static noinline bool sdt_c_literal(int x)
{
	SDT_PROBE(linux, current, x);
	return SDT_ENABLED(linux, current);
}

static noinline long sdt_inline_asm_site(long x, short w, u8 b)
{
	long r;

	/* A site in the middle of an asm, with explicit operand widths. */
	asm volatile("mov %[x], %[r]\n\t"
		     SDT_PROBE_ASM(kunit, asm_site,
				   "-8@%[r] -2@%w[__sdt_a1] 1@%b[__sdt_a2]")
		     "add $1, %[r]\n\t"
		     : [r] "=&r" (r)
		     : [x] "r" (x), SDT_ASM_OPERANDS(w, b));
	return r;
}

/*
 * Wait until @addr holds @len bytes of @want: kprobes flags a probe as
 * optimized when it queues it, and patches the text (or restores the NOP
 * on unoptimizing) from a delayed work.
 */
static bool sdt_wait_text(const void *addr, const u8 *want, size_t len)
{
	unsigned long timeout = jiffies + 10 * HZ;

	while (memcmp(addr, want, len)) {
		if (time_after(jiffies, timeout))
			return false;
		msleep(20);
	}
	return true;
}

static bool sdt_wait_nop(const void *addr)
{
	return sdt_wait_text(addr, sdt_nop5, sizeof(sdt_nop5));
}

/*
 * Wait until the first site of @key is in @state (1 int3, 2 optimized, 3
 * call, which is there at once).
 */
static int sdt_wait_state(const char *key, int state, void **addr)
{
	unsigned long timeout = jiffies + 10 * HZ;
	unsigned int faults;
	int ret;

	do {
		ret = sdt_site_info(key, addr, &faults);
		if (ret == state || ret < 0)
			return ret;
		msleep(20);
	} while (time_before(jiffies, timeout));
	return ret;
}

struct sdt_undo {
	const char *provider, *name;
	void *data;
};

static void sdt_undo(void *p)
{
	struct sdt_undo *u = p;

	sdt_disable_probe(u->provider, u->name, sdt_record, u->data);
}

/* sdt_set_probe() of sdt_record with @data, detached when the test ends. */
static int sdt_kset_data(struct kunit *test, const char *provider,
			 const char *name, int nargs, struct sdt_hit *data)
{
	struct sdt_undo *u;
	int ret;

	ret = sdt_set_probe(provider, name, nargs, sdt_record, data);
	if (ret)
		return ret;
	u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);
	if (!u) {
		sdt_disable_probe(provider, name, sdt_record, data);
		return -ENOMEM;
	}
	*u = (struct sdt_undo){ .provider = provider, .name = name, .data = data };
	return kunit_add_action_or_reset(test, sdt_undo, u);
}

/* The same with the suite's own record, hit. */
static int sdt_kset(struct kunit *test, const char *provider, const char *name,
		    int nargs)
{
	return sdt_kset_data(test, provider, name, nargs, &hit);
}

static void sdt_check_c_site(struct kunit *test)
{
	memset(&hit, 0, sizeof(hit));
	KUNIT_EXPECT_EQ(test, sdt_c_site(-5, 0xffffffffU, -1234567890123L,
					 "str", -3), -5);
	/*
	 * An SDT site is invisible to the compiler: as far as it knows,
	 * nothing wrote hit. Make it read hit again.
	 */
	barrier();
	KUNIT_ASSERT_EQ(test, hit.nr, 1);
	KUNIT_ASSERT_EQ(test, hit.nargs, 5);
	KUNIT_EXPECT_EQ(test, hit.args[0], (u64)-5);
	KUNIT_EXPECT_EQ(test, hit.args[1], 0xffffffffULL);
	KUNIT_EXPECT_EQ(test, hit.args[2], (u64)-1234567890123LL);
	KUNIT_EXPECT_STREQ(test, (const char *)(unsigned long)hit.args[3], "str");
	KUNIT_EXPECT_EQ(test, hit.args[4], (u64)-3);
}

static void sdt_test_paths(struct kunit *test)
{
	void *addr;
	int state;

	/* Dormant: a 5-byte NOP in .text. */
	KUNIT_ASSERT_EQ(test, sdt_site_info("kunit:c_site", &addr, &(unsigned int){0}), 0);
	KUNIT_EXPECT_EQ(test, memcmp(addr, sdt_nop5, sizeof(sdt_nop5)), 0);

	/*
	 * A call of its thunk (the default), then of the trampoline,
	 * patched in at once, and back.
	 */
	for (state = 4; state >= 3; state--) {
		sdt_use_thunks = state == 4;
		KUNIT_ASSERT_EQ(test, sdt_kset(test, "kunit", "c_site", 5), 0);
		sdt_use_thunks = true;
		KUNIT_EXPECT_EQ(test, sdt_site_info("kunit:c_site", &addr,
						    &(unsigned int){0}), state);
		KUNIT_EXPECT_EQ(test, *(u8 *)addr, 0xe8);
		sdt_check_c_site(test);
		KUNIT_EXPECT_EQ(test, marker_check_consistency(), 0);
		KUNIT_EXPECT_EQ(test, sdt_disable_probe("kunit", "c_site", sdt_record, &hit), 0);
		KUNIT_EXPECT_EQ(test, sdt_site_info("kunit:c_site", &addr, &(unsigned int){0}), 0);
		KUNIT_EXPECT_EQ(test, memcmp(addr, sdt_nop5, sizeof(sdt_nop5)), 0);
		KUNIT_EXPECT_EQ(test, marker_check_consistency(), 0);
	}

	/* int3 kprobe: optimization kept off. */
	sdt_use_kprobes = true;
	sdt_int3_only = true;
	KUNIT_ASSERT_EQ(test, sdt_kset(test, "kunit", "c_site", 5), 0);
	sdt_int3_only = false;
	state = sdt_wait_state("kunit:c_site", 1, &addr);
	KUNIT_EXPECT_EQ(test, state, 1);
	msleep(100);	/* the optimizer would have run by now */
	KUNIT_EXPECT_EQ(test, sdt_wait_state("kunit:c_site", 1, &addr), 1);
	KUNIT_EXPECT_EQ(test, *(u8 *)addr, 0xcc);
	sdt_check_c_site(test);
	KUNIT_EXPECT_EQ(test, sdt_disable_probe("kunit", "c_site", sdt_record, &hit), 0);
	KUNIT_EXPECT_EQ(test, sdt_wait_state("kunit:c_site", 0, &addr), 0);
	KUNIT_EXPECT_TRUE(test, sdt_wait_nop(addr));

	/* Optimized kprobe: the NOP becomes a jump. */
	KUNIT_ASSERT_EQ(test, sdt_kset(test, "kunit", "c_site", -1), 0);
	KUNIT_EXPECT_EQ(test, sdt_wait_state("kunit:c_site", 2, &addr), 2);
	KUNIT_EXPECT_TRUE(test, sdt_wait_text(addr, (const u8 []){ 0xe9 }, 1));
	sdt_check_c_site(test);
	KUNIT_EXPECT_EQ(test, sdt_disable_probe("kunit", "c_site", sdt_record, &hit), 0);
	KUNIT_EXPECT_EQ(test, sdt_wait_state("kunit:c_site", 0, &addr), 0);
	KUNIT_EXPECT_TRUE(test, sdt_wait_nop(addr));
	sdt_use_kprobes = false;
	memset(&hit, 0, sizeof(hit));
	sdt_c_site(1, 2, 3, "x", 4);
	barrier();
	KUNIT_EXPECT_EQ(test, hit.nr, 0);
}

static void sdt_test_asm_sites(struct kunit *test)
{
	void *addr;
	int i;

	KUNIT_ASSERT_EQ(test, sdt_kset(test, "kunit", "asm_site", 3), 0);
	memset(&hit, 0, sizeof(hit));
	KUNIT_EXPECT_EQ(test, sdt_inline_asm_site(-100, -2, 200), -99);
	barrier();
	KUNIT_ASSERT_EQ(test, hit.nr, 1);
	KUNIT_EXPECT_EQ(test, hit.args[0], (u64)-100);
	KUNIT_EXPECT_EQ(test, hit.args[1], (u64)-2);
	KUNIT_EXPECT_EQ(test, hit.args[2], 200);

	KUNIT_ASSERT_EQ(test, sdt_kset(test, "kunit", "s_site", 4), 0);
	memset(&hit, 0, sizeof(hit));
	KUNIT_EXPECT_EQ(test, sdt_kunit_asm_site(-8, 9), -8);
	KUNIT_ASSERT_EQ(test, hit.nr, 1);
	KUNIT_EXPECT_EQ(test, hit.args[0], (u64)-8);
	KUNIT_EXPECT_EQ(test, hit.args[1], 9);
	KUNIT_EXPECT_EQ(test, hit.args[2], (u64)-8);	/* pushed on the stack */
	KUNIT_EXPECT_EQ(test, hit.args[3], (u64)-7);
	/* A stack operand and an immediate: a thunk reads them. */
	KUNIT_EXPECT_EQ(test, sdt_site_info("kunit:s_site", &addr,
					    &(unsigned int){0}), 4);

	KUNIT_ASSERT_EQ(test, sdt_kset(test, "kunit", "twelve", 12), 0);
	memset(&hit, 0, sizeof(hit));
	sdt_c_twelve(-100);
	barrier();
	KUNIT_ASSERT_EQ(test, hit.nargs, 12);
	for (i = 0; i < 12; i++)
		KUNIT_EXPECT_EQ_MSG(test, hit.args[i], (u64)(-100 + i), "arg %d", i);

	/* The longest thunk there is fits in its buffer. */
	KUNIT_ASSERT_EQ(test, sdt_kset(test, "kunit", "widest", 12), 0);
	if (IS_ENABLED(CONFIG_SMP)) {
		KUNIT_EXPECT_EQ(test, sdt_site_info("kunit:widest", &addr,
						    &(unsigned int){0}), 4);
		memset(&hit, 0, sizeof(hit));
		preempt_disable();
		this_cpu_write(sdt_kunit_pcpu16, -300);
		sdt_c_widest();
		preempt_enable();
		barrier();
		KUNIT_ASSERT_EQ(test, hit.nargs, 12);
		for (i = 0; i < 12; i++)
			KUNIT_EXPECT_EQ_MSG(test, hit.args[i], (u64)-300,
					    "arg %d", i);
	} else {
		/*
		 * On UP a module's per-CPU variable has no symbol (it is
		 * plain data), and %gs: is not its segment: the site is
		 * refused ("cannot decode"), and a hit calls nothing.
		 */
		memset(&hit, 0, sizeof(hit));
		sdt_c_widest();
		barrier();
		KUNIT_EXPECT_EQ(test, hit.nr, 0);
		KUNIT_EXPECT_EQ(test, sdt_site_info("kunit:widest", &addr,
						    &(unsigned int){0}), -EINVAL);
	}

	KUNIT_ASSERT_EQ(test, sdt_kset(test, "kunit", "noargs", 0), 0);
	memset(&hit, 0, sizeof(hit));
	sdt_c_noargs();
	barrier();
	KUNIT_EXPECT_EQ(test, hit.nr, 1);
	KUNIT_EXPECT_EQ(test, hit.nargs, 0);
	KUNIT_EXPECT_EQ(test, sdt_wait_state("kunit:noargs", 4, &addr), 4);
}

static void sdt_test_fault(struct kunit *test)
{
	unsigned int faults;
	void *addr;

	KUNIT_ASSERT_EQ(test, sdt_kset(test, "kunit", "fault_site", 2), 0);
	memset(&hit, 0, sizeof(hit));
	sdt_kunit_asm_fault(&sdt_kunit_var, -1);
	KUNIT_EXPECT_EQ(test, hit.args[0], 0x1122334455667788ULL);
	KUNIT_EXPECT_EQ(test, hit.args[1], (u64)-1);
	/*
	 * Memory through a register may fault: not in a thunk, which has
	 * no exception table entry, but through the trampoline.
	 */
	KUNIT_ASSERT_EQ(test, sdt_site_info("kunit:fault_site", &addr, &faults), 3);
	KUNIT_EXPECT_EQ(test, faults, 0);

	/* A read through NULL: 0, one more fault, no oops. */
	sdt_kunit_asm_fault(NULL, 7);
	KUNIT_EXPECT_EQ(test, hit.nr, 2);
	KUNIT_EXPECT_EQ(test, hit.args[0], 0);
	KUNIT_EXPECT_EQ(test, hit.args[1], 7);
	KUNIT_ASSERT_GE(test, sdt_site_info("kunit:fault_site", &addr, &faults), 1);
	KUNIT_EXPECT_EQ(test, faults, 1);
}

/* %rip-relative operands on a real site: symbols resolved in its module. */
static void sdt_test_rip(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, sdt_kset(test, "kunit", "rip_site", 2), 0);
	memset(&hit, 0, sizeof(hit));
	sdt_kunit_asm_rip();
	KUNIT_ASSERT_EQ(test, hit.nr, 1);
	KUNIT_EXPECT_EQ(test, hit.args[0], 0x0123456789abcdefULL);
	KUNIT_EXPECT_EQ(test, hit.args[1], 0x01234567ULL);
	WRITE_ONCE(sdt_kunit_asm_var, 0xfedcba9876543210ULL);
	sdt_kunit_asm_rip();
	KUNIT_EXPECT_EQ(test, hit.args[0], 0xfedcba9876543210ULL);
	KUNIT_EXPECT_EQ(test, hit.args[1], (u64)(s32)0xfedcba98);
	WRITE_ONCE(sdt_kunit_asm_var, 0x0123456789abcdefULL);
}

/*
 * The flags live across a .S site survive the probe, with either
 * mechanism: the trampoline saves and restores them, kprobes too.
 */
static void sdt_test_flags(struct kunit *test)
{
	int mech;

	for (mech = 0; mech < 2; mech++) {
		sdt_use_kprobes = mech;
		KUNIT_ASSERT_EQ(test, sdt_kset(test, "kunit", "flags_site", 2), 0);
		memset(&hit, 0, sizeof(hit));
		KUNIT_EXPECT_EQ(test, sdt_kunit_asm_flags(1, 2), 1);
		KUNIT_EXPECT_EQ(test, sdt_kunit_asm_flags(2, 1), 0);
		KUNIT_EXPECT_EQ(test, sdt_kunit_asm_flags(-5, -5), 0);
		KUNIT_EXPECT_EQ(test, hit.nr, 3);
		KUNIT_EXPECT_EQ(test, hit.args[0], (u64)-5);
		KUNIT_EXPECT_EQ(test, sdt_disable_probe("kunit", "flags_site",
							sdt_record, &hit), 0);
	}
	sdt_use_kprobes = false;
}

static void sdt_test_errors(struct kunit *test)
{
	unsigned int faults;
	void *addr;

	KUNIT_EXPECT_EQ(test, sdt_set_probe(NULL, "c_site", -1, sdt_record, &hit), -EINVAL);
	KUNIT_EXPECT_EQ(test, sdt_set_probe("kunit", "", -1, sdt_record, &hit), -EINVAL);
	KUNIT_EXPECT_EQ(test, sdt_set_probe("ku nit", "c_site", -1, sdt_record, &hit), -EINVAL);
	KUNIT_EXPECT_EQ(test, sdt_set_probe("kunit", "c_site", -1, NULL, &hit), -EINVAL);
	KUNIT_EXPECT_EQ(test, sdt_set_probe("kunit", "c_site", -2, sdt_record, &hit), -EINVAL);
	KUNIT_EXPECT_EQ(test, sdt_set_probe("kunit", "c_site", 13, sdt_record, &hit), -EINVAL);
	KUNIT_EXPECT_EQ(test, sdt_set_probe("kunit", "c_site", 4, sdt_record, &hit), -EPERM);
	KUNIT_EXPECT_EQ(test, sdt_disable_probe("kunit", "c_site", sdt_record, &hit), -ENOENT);
	KUNIT_EXPECT_EQ(test, sdt_site_info("kunit:c_site", &addr, &faults), 0);

	KUNIT_ASSERT_EQ(test, sdt_kset(test, "kunit", "c_site", 5), 0);
	KUNIT_EXPECT_EQ(test, sdt_set_probe("kunit", "c_site", 5, sdt_record, &hit), -EEXIST);
	KUNIT_EXPECT_EQ(test, sdt_disable_probe("kunit", "c_site", sdt_record, &hit), 0);

	/* Pending: no such site yet; the probes of the name must agree. */
	KUNIT_ASSERT_EQ(test, sdt_kset(test, "kunit", "later", 2), 0);
	KUNIT_EXPECT_EQ(test, sdt_set_probe("kunit", "later", 3, sdt_record, test), -EPERM);
	KUNIT_EXPECT_EQ(test, sdt_site_info("kunit:later", &addr, &faults), -ENOENT);

	/* A spec that does not decode: that site alone is in error. */
	KUNIT_ASSERT_EQ(test, sdt_kset(test, "kunit", "bad_site", -1), 0);
	KUNIT_EXPECT_EQ(test, sdt_site_info("kunit:bad_site", &addr, &faults), -EINVAL);
	KUNIT_EXPECT_EQ(test, memcmp(addr, sdt_nop5, sizeof(sdt_nop5)), 0);
	sdt_kunit_asm_bad();
	KUNIT_ASSERT_EQ(test, sdt_kset(test, "kunit", "c_site", -1), 0);
	KUNIT_EXPECT_EQ(test, sdt_wait_state("kunit:c_site", 4, &addr), 4);
	sdt_check_c_site(test);
}

static struct sdt_hit hit2;

/* What the CALL at an armed site calls. */
static void *sdt_site_call_dest(const void *code)
{
	s32 rel;

	if (*(const u8 *)code != 0xe8)
		return NULL;
	memcpy(&rel, code + 1, sizeof(rel));
	return (void *)code + 5 + rel;
}

/*
 * A thunk calls its one probe directly, or the iterator over several: each
 * change of a site's probes makes it a new thunk, in the same batch as the
 * rest of the change, and the hits follow the probes.
 */
static void sdt_test_thunk_probes(struct kunit *test)
{
	void *addr, *one, *two;

	KUNIT_ASSERT_EQ(test, sdt_kset(test, "kunit", "c_site", 5), 0);
	KUNIT_ASSERT_EQ(test, sdt_site_info("kunit:c_site", &addr,
					    &(unsigned int){0}), 4);
	KUNIT_EXPECT_EQ(test, marker_check_consistency(), 0);
	one = sdt_site_call_dest(addr);

	KUNIT_ASSERT_EQ(test, sdt_kset_data(test, "kunit", "c_site", 5, &hit2), 0);
	KUNIT_EXPECT_EQ(test, sdt_site_info("kunit:c_site", &addr,
					    &(unsigned int){0}), 4);
	KUNIT_EXPECT_EQ(test, marker_check_consistency(), 0);
	two = sdt_site_call_dest(addr);
	KUNIT_EXPECT_PTR_NE(test, two, one);
	memset(&hit2, 0, sizeof(hit2));
	sdt_check_c_site(test);
	barrier();
	KUNIT_EXPECT_EQ(test, hit2.nr, 1);
	KUNIT_EXPECT_EQ(test, hit2.args[2], (u64)-1234567890123LL);

	KUNIT_EXPECT_EQ(test, sdt_disable_probe("kunit", "c_site", sdt_record,
						&hit2), 0);
	KUNIT_EXPECT_EQ(test, sdt_site_info("kunit:c_site", &addr,
					    &(unsigned int){0}), 4);
	KUNIT_EXPECT_EQ(test, marker_check_consistency(), 0);
	KUNIT_EXPECT_PTR_NE(test, sdt_site_call_dest(addr), two);
	memset(&hit2, 0, sizeof(hit2));
	sdt_check_c_site(test);
	barrier();
	KUNIT_EXPECT_EQ(test, hit2.nr, 0);
}

/* No thunk can be made: out of executable memory. */
static int sdt_thunk_refused(const struct sdt_prog *prog,
			     const struct sdt_thunk_call *call,
			     struct sdt_thunk_image *img)
{
	return -ENOMEM;
}

/*
 * A site whose thunk could not be made is armed all the same, by a call of
 * the trampoline, and stays so while it has probes; armed again, it gets
 * its thunk.
 */
static void sdt_test_thunk_refused(struct kunit *test)
{
	void *addr;

	kunit_activate_static_stub(test, arch_sdt_thunk_emit, sdt_thunk_refused);
	KUNIT_ASSERT_EQ(test, sdt_kset(test, "kunit", "c_site", 5), 0);
	kunit_deactivate_static_stub(test, arch_sdt_thunk_emit);
	KUNIT_EXPECT_EQ(test, sdt_site_info("kunit:c_site", &addr,
					    &(unsigned int){0}), 3);
	KUNIT_EXPECT_EQ(test, *(u8 *)addr, 0xe8);
	KUNIT_EXPECT_EQ(test, marker_check_consistency(), 0);
	sdt_check_c_site(test);

	KUNIT_ASSERT_EQ(test, sdt_kset_data(test, "kunit", "c_site", 5, &hit2), 0);
	KUNIT_EXPECT_EQ(test, sdt_site_info("kunit:c_site", &addr,
					    &(unsigned int){0}), 3);
	KUNIT_EXPECT_EQ(test, marker_check_consistency(), 0);
	memset(&hit2, 0, sizeof(hit2));
	sdt_check_c_site(test);
	barrier();
	KUNIT_EXPECT_EQ(test, hit2.nr, 1);

	/* Disarmed, then armed again: by its thunk now. */
	KUNIT_EXPECT_EQ(test, sdt_disable_probe("kunit", "c_site", sdt_record,
						&hit), 0);
	KUNIT_EXPECT_EQ(test, sdt_disable_probe("kunit", "c_site", sdt_record,
						&hit2), 0);
	KUNIT_EXPECT_EQ(test, sdt_site_info("kunit:c_site", &addr,
					    &(unsigned int){0}), 0);
	KUNIT_ASSERT_EQ(test, sdt_kset(test, "kunit", "c_site", 5), 0);
	KUNIT_EXPECT_EQ(test, sdt_site_info("kunit:c_site", &addr,
					    &(unsigned int){0}), 4);
	KUNIT_EXPECT_EQ(test, marker_check_consistency(), 0);
	sdt_check_c_site(test);
}

static int sdt_test_init(struct kunit *test)
{
	memset(&hit, 0, sizeof(hit));
	sdt_int3_only = false;
	sdt_use_kprobes = false;
	sdt_use_thunks = true;
	return 0;
}

/* Provider and name are taken literally, even when they are macros. */
static void sdt_test_literal_names(struct kunit *test)
{
	memset(&hit, 0, sizeof(hit));
	KUNIT_EXPECT_FALSE(test, sdt_c_literal(1));
	barrier();
	KUNIT_EXPECT_EQ(test, hit.nr, 0);
	KUNIT_ASSERT_EQ(test, sdt_kset(test, "linux", "current", 1), 0);
	KUNIT_EXPECT_TRUE(test, sdt_c_literal(-7));
	barrier();
	KUNIT_ASSERT_EQ(test, hit.nr, 1);
	KUNIT_EXPECT_EQ(test, hit.args[0], (u64)-7);
}

/* --- Beside kprobes --------------------------------------------------- */

static int sdt_kprobe_hits;

static int sdt_count_kprobe(struct kprobe *kp, struct pt_regs *regs)
{
	sdt_kprobe_hits++;
	return 0;
}

KUNIT_DEFINE_ACTION_WRAPPER(sdt_unregister_kprobe, unregister_kprobe,
			    struct kprobe *);

/* A kprobe of sdt_count_kprobe() at @addr, unregistered when the test ends. */
static int sdt_kprobe(struct kunit *test, struct kprobe **kpp, void *addr)
{
	struct kprobe *kp;
	int ret;

	kp = kunit_kzalloc(test, sizeof(*kp), GFP_KERNEL);
	if (!kp)
		return -ENOMEM;
	kp->addr = addr;
	kp->pre_handler = sdt_count_kprobe;
	ret = register_kprobe(kp);
	if (ret)
		return ret;
	*kpp = kp;
	return kunit_add_action_or_reset(test, sdt_unregister_kprobe, kp);
}

/*
 * Was the kprobe at @addr optimized into a JMP? kprobes optimizes 5
 * jiffies after a registration, from a delayed work: give it 100 times
 * that.
 */
static bool sdt_optimized_at(const void *addr)
{
	unsigned long timeout = jiffies + 500;

	while (*(const u8 *)addr != 0xe9) {
		if (time_after(jiffies, timeout))
			return false;
		msleep(20);
	}
	return true;
}

/* One hit of the overlap site: the SDT probe and the kprobe fire once. */
static void sdt_check_overlap(struct kunit *test)
{
	memset(&hit, 0, sizeof(hit));
	sdt_kprobe_hits = 0;
	sdt_kunit_asm_overlap(-9);
	KUNIT_EXPECT_EQ(test, hit.nr, 1);
	KUNIT_EXPECT_EQ(test, hit.args[0], (u64)-9);
	KUNIT_EXPECT_EQ(test, sdt_kprobe_hits, 1);
}

/*
 * kprobes keep off SDT sites, dormant or armed, as off jump labels: no
 * int3 in a site, no optimized kprobe's JMP over one, or arming the site
 * by call would write the CALL into the JMP. A kprobe just before a site
 * stays an int3, and fires beside the site's probe, whichever came
 * first; one on the site is refused with -EBUSY, but the registry's own.
 */
static void sdt_test_kprobe_overlap(struct kunit *test)
{
	struct kprobe *at, *before;
	void *addr;
	int mech;

	KUNIT_ASSERT_EQ(test, sdt_site_info("kunit:overlap_site", &addr,
					    &(unsigned int){0}), 0);
	/* On the 3-byte instruction before the site: no JMP over it. */
	KUNIT_ASSERT_EQ(test, sdt_kprobe(test, &before, addr - 3), 0);
	KUNIT_EXPECT_FALSE(test, sdt_optimized_at(addr - 3));
	KUNIT_EXPECT_EQ(test, memcmp(addr, sdt_nop5, sizeof(sdt_nop5)), 0);

	for (mech = 0; mech < 2; mech++) {
		/* The kprobe first, then the site armed. */
		sdt_use_kprobes = mech;
		KUNIT_ASSERT_EQ(test, sdt_kset(test, "kunit", "overlap_site", 1), 0);
		KUNIT_EXPECT_GE(test, sdt_site_info("kunit:overlap_site", &addr,
						    &(unsigned int){0}), 1);
		sdt_check_overlap(test);
		KUNIT_EXPECT_EQ(test, sdt_kprobe(test, &at, addr), -EBUSY);

		/* The site armed first, then the kprobe. */
		unregister_kprobe(before);
		memset(before, 0, sizeof(*before));
		before->addr = addr - 3;
		before->pre_handler = sdt_count_kprobe;
		KUNIT_ASSERT_EQ(test, register_kprobe(before), 0);
		KUNIT_EXPECT_FALSE(test, sdt_optimized_at(addr - 3));
		sdt_check_overlap(test);

		KUNIT_EXPECT_EQ(test, sdt_disable_probe("kunit", "overlap_site",
							sdt_record, &hit), 0);
		KUNIT_EXPECT_EQ(test, sdt_wait_state("kunit:overlap_site", 0,
						     &addr), 0);
		KUNIT_EXPECT_TRUE(test, sdt_wait_nop(addr));
	}
	sdt_use_kprobes = false;
	/* On the dormant site. */
	KUNIT_EXPECT_EQ(test, sdt_kprobe(test, &at, addr), -EBUSY);
}

/*
 * A site where kprobes may not go (NOKPROBE, noinstr, entry or idle code,
 * where RCU may not be watching) is not armed by call either: it is in
 * error, says why, and stays a NOP.
 */
static void sdt_test_blacklisted(struct kunit *test)
{
	void *addr;

	KUNIT_ASSERT_EQ(test, sdt_kset(test, "kunit", "nokprobe_site", 1), 0);
	KUNIT_EXPECT_EQ(test, sdt_site_info("kunit:nokprobe_site", &addr,
					    &(unsigned int){0}), -EINVAL);
	KUNIT_EXPECT_EQ(test, memcmp(addr, sdt_nop5, sizeof(sdt_nop5)), 0);
	KUNIT_EXPECT_STREQ(test, sdt_site_why("kunit:nokprobe_site"),
			   "kprobe_blacklist");
	memset(&hit, 0, sizeof(hit));
	KUNIT_EXPECT_EQ(test, sdt_c_nokprobe(5), 5);
	barrier();
	KUNIT_EXPECT_EQ(test, hit.nr, 0);
}

static unsigned long sdt_probe_flags;

static void sdt_record_flags(void *data, const u64 *args, unsigned int nargs)
{
	sdt_probe_flags = native_save_fl();
	sdt_record(data, args, nargs);
}

/*
 * A probe runs with AC clear, as kprobes' do, even on a site inside
 * user_access_begin(): otherwise it would run with SMAP off. The site's
 * code gets its AC back.
 */
static void sdt_test_uaccess(struct kunit *test)
{
	void __user *p = (void __user *)PAGE_SIZE;

	if (!cpu_feature_enabled(X86_FEATURE_SMAP))
		kunit_skip(test, "no SMAP");
	KUNIT_ASSERT_EQ(test, sdt_set_probe("kunit", "uaccess_site", 1,
					    sdt_record_flags, &hit), 0);
	memset(&hit, 0, sizeof(hit));
	sdt_probe_flags = X86_EFLAGS_AC;
	sdt_c_uaccess(p);
	barrier();
	KUNIT_EXPECT_EQ(test, hit.nr, 1);
	KUNIT_EXPECT_EQ(test, hit.args[0], (u64)(unsigned long)p);
	KUNIT_EXPECT_EQ(test, sdt_probe_flags & X86_EFLAGS_AC, 0);
	KUNIT_EXPECT_EQ(test, sdt_disable_probe("kunit", "uaccess_site",
						sdt_record_flags, &hit), 0);
}

static struct kunit_case sdt_test_cases[] = {
	KUNIT_CASE(sdt_test_decode),
	KUNIT_CASE(sdt_test_paths),
	KUNIT_CASE(sdt_test_asm_sites),
	KUNIT_CASE(sdt_test_thunk_probes),
	KUNIT_CASE(sdt_test_thunk_refused),
	KUNIT_CASE(sdt_test_fault),
	KUNIT_CASE(sdt_test_rip),
	KUNIT_CASE(sdt_test_flags),
	KUNIT_CASE(sdt_test_errors),
	KUNIT_CASE(sdt_test_literal_names),
	KUNIT_CASE(sdt_test_kprobe_overlap),
	KUNIT_CASE(sdt_test_blacklisted),
	KUNIT_CASE(sdt_test_uaccess),
	{}
};

static struct kunit_suite sdt_test_suite = {
	.name = "markers_sdt",
	.init = sdt_test_init,
	.test_cases = sdt_test_cases,
};

kunit_test_suite(sdt_test_suite);

MODULE_DESCRIPTION("KUnit tests for SDT sites");
MODULE_LICENSE("GPL");
