// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "markers_sdt_arm64": the arm64 SDT operand decoder
 * (arch/arm64/kernel/sdt.c with kernel/markers/sdt_decode.c), form by
 * form: each spec parsed and fetched against a struct pt_regs and memory
 * of its own, and the specs it must refuse, with their reasons. The
 * sites that GCC makes are markers_sdt_diff's. Then a site's thunk
 * (arch/arm64/kernel/sdt_thunk.c), and its BRK kprobe, with every
 * register and the flags live across the site; and the new thunk each
 * change of its probes makes, or the error when it cannot be made.
 */

#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/sdt.h>
#include <linux/sdt-decode.h>
#include <linux/string.h>

#include "../internal.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static u64 sdt_arm64_var = 0x1122334455667788ULL;
static u64 sdt_arm64_mem[4] = { 10, 0xfffffffffffffff6ULL, 30, 0x80000000ULL };

static unsigned long sdt_arm64_resolve(void *ctx, const char *sym)
{
	if (!strcmp(sym, "sdt_arm64_var"))
		return (unsigned long)&sdt_arm64_var;
	if (!strcmp(sym, "sdt_arm64_mem"))
		return (unsigned long)sdt_arm64_mem;
	return 0;
}

/* The registers every spec is fetched against. */
static void sdt_arm64_regs(struct pt_regs *regs)
{
	memset(regs, 0, sizeof(*regs));
	regs->regs[0] = 0x1122334455667788ULL;
	regs->regs[1] = (u64)-42;
	regs->regs[2] = 0x80000001ULL;
	regs->regs[3] = 0xfffe;
	regs->regs[4] = (unsigned long)sdt_arm64_mem;
	regs->regs[5] = (unsigned long)&sdt_arm64_mem[3];
	regs->regs[6] = 0;
	regs->regs[30] = 15;
	regs->sp = (unsigned long)sdt_arm64_mem;
}

static void sdt_arm64_test_decode(struct kunit *test)
{
	static const struct {
		const char *spec;
		u64 val;
		unsigned int faults;
	} ok[] = {
		{ "8@x0", 0x1122334455667788ULL },
		{ "4@w0", 0x55667788ULL },
		{ "-4@w2", 0xffffffff80000001ULL },
		{ "4@x2", 0x80000001ULL },
		{ "2@w3", 0xfffe },
		{ "-2@x3", (u64)-2 },
		{ "1@w0", 0x88 },
		{ "-1@x0", 0xffffffffffffff88ULL },
		{ "-8@x1", (u64)-42 },
		{ "8@x30", 15 },
		{ "8@xzr", 0 },
		{ "4@wzr", 0 },
		{ "-4@-3", (u64)-3 },
		{ "8@0x10", 16 },
		{ "4@#5", 5 },
		{ "-4@#-5", (u64)-5 },
		{ "8@[x4]", 10 },
		{ "-8@[x4, 8]", (u64)-10 },
		{ "8@[x4, #16]", 30 },
		{ "8@[x4,16]", 30 },
		{ "-4@[x4, 24]", 0xffffffff80000000ULL },
		{ "4@[x4, 24]", 0x80000000ULL },
		{ "8@[x5, -8]", 30 },
		{ "8@[sp, 8]", 0xfffffffffffffff6ULL },
		{ "-1@[sp, 8]", (u64)-10 },
		{ "8@sdt_arm64_var", 0x1122334455667788ULL },
		{ "-4@sdt_arm64_var+4", 0x11223344ULL },
		{ "8@sdt_arm64_mem+24", 0x80000000ULL },
		{ "2@sdt_arm64_var-0", 0x7788 },
		{ "8@[x6]", 0, 1 },
		{ "8@[x6, 16]", 0, 1 },
	};
	static const struct {
		const char *spec, *why;
	} bad[] = {
		{ "4@v0", "vector register" },
		{ "8@d1", "vector register" },
		{ "4@s2", "vector register" },
		{ "16@q3", "size" },
		{ "3@x0", "size" },
		{ "16@x0", "size" },
		{ "4@", "symbol" },
		{ "@x0", "size" },
		{ "x0", "size" },
		{ "4@x31", "symbol" },
		{ "4@[x0", "operand" },
		{ "4@[xzr]", "register" },
		{ "4@[v0, 8]", "register" },
		{ "4@[x0, x1]", "displacement" },
		{ "4@[x23, #:lo12:.LANCHOR2]", "lo12" },
		{ "4@unknown_symbol", "symbol" },
		{ "4@sdt_arm64_mem+x", "displacement" },
		{ "4@#", "immediate" },
		{ "1@x0 1@x0 1@x0 1@x0 1@x0 1@x0 1@x0 1@x0 1@x0 1@x0 1@x0 1@x0 1@x0",
		  "arguments" },
	};
	struct pt_regs regs;
	struct sdt_prog prog;
	unsigned int i, faults;
	u64 v;

	sdt_arm64_regs(&regs);
	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		KUNIT_ASSERT_EQ_MSG(test, sdt_parse(ok[i].spec, &prog,
						    sdt_arm64_resolve, NULL),
				    1, "%s: %s", ok[i].spec, prog.why);
		faults = sdt_fetch(&prog, &regs, &v);
		KUNIT_EXPECT_EQ_MSG(test, v, ok[i].val, "%s", ok[i].spec);
		KUNIT_EXPECT_EQ_MSG(test, faults, ok[i].faults, "%s", ok[i].spec);
	}
	/* sp is the stack pointer, not x31. */
	KUNIT_ASSERT_EQ(test, sdt_parse("8@sp", &prog, NULL, NULL), 1);
	sdt_fetch(&prog, &regs, &v);
	KUNIT_EXPECT_EQ(test, v, (u64)regs.sp);

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test, sdt_parse(bad[i].spec, &prog,
						    sdt_arm64_resolve, NULL),
				    -EINVAL, "%s", bad[i].spec);
		KUNIT_EXPECT_STREQ_MSG(test, prog.why, bad[i].why, "%s",
				       bad[i].spec);
	}
	/* Spaces between specs, and in a memory operand. */
	KUNIT_EXPECT_EQ(test, sdt_parse("", &prog, NULL, NULL), 0);
	KUNIT_ASSERT_EQ(test, sdt_parse(" -4@w0  8@[sp, 16] 4@5 ", &prog,
					NULL, NULL), 3);
	KUNIT_EXPECT_EQ(test, prog.arg[1].kind, SDT_ARG_MEM);
	KUNIT_EXPECT_EQ(test, prog.arg[1].reg, SDT_REG_SP);
	KUNIT_EXPECT_EQ(test, prog.arg[1].val, 16);
	KUNIT_EXPECT_EQ(test, prog.arg[2].kind, SDT_ARG_IMM);
	/* The registry and the trace event count operands as the parser does. */
	KUNIT_EXPECT_EQ(test, sdt_spec_nargs(" -4@w0  8@[sp, 16] 4@5 "), 3);
	KUNIT_EXPECT_EQ(test, sdt_spec_nargs("8@[x1, #-8] 8@[sp]"), 2);
	KUNIT_EXPECT_EQ(test, sdt_spec_nargs(""), 0);
}

/*
 * void sdt_arm64_asm_live(u64 *out): a site where x0-x17, x19-x28 and x30
 * hold 0x100 + their number, and NZCV N and C: their values after the
 * site go to out[0..30] (x18 and x29, which the kernel keeps as the
 * shadow call stack and frame pointers, are not touched: out[18] and
 * out[29] are 0) and the flags to out[31]. The site reads x0, x17, x28
 * and x30; x9, x10 and x16, which its thunk uses; @out, at [sp, 96]; a
 * faulting read through x1 (0x101); an immediate; and a symbol's.
 */
#define SDT_ARM64_LIVE_NZCV	0xa0000000UL	/* N, C */
#define SDT_ARM64_LIVE_SPEC	"8@x0 8@x17 8@x28 8@x30 8@x9 8@x10 8@x16 " \
				"8@[sp, 96] 8@[x1, 8] -4@-5 -4@sdt_arm64_mem+8"
#define SDT_ARM64_LIVE_NARGS	11
void sdt_arm64_asm_live(u64 *out);
asm("	.pushsection .text, \"ax\"\n"
"	.globl	sdt_arm64_asm_live\n"
"	.type	sdt_arm64_asm_live, %function\n"
"sdt_arm64_asm_live:\n"
"	stp	x29, x30, [sp, #-112]!\n"
"	mov	x29, sp\n"
"	stp	x19, x20, [sp, #16]\n"
"	stp	x21, x22, [sp, #32]\n"
"	stp	x23, x24, [sp, #48]\n"
"	stp	x25, x26, [sp, #64]\n"
"	stp	x27, x28, [sp, #80]\n"
"	str	x0, [sp, #96]\n"
"	mov	x0, #0xa0000000\n"
"	msr	nzcv, x0\n"
"	mov	x0, #0x100\n"
"	mov	x1, #0x101\n"
"	mov	x2, #0x102\n"
"	mov	x3, #0x103\n"
"	mov	x4, #0x104\n"
"	mov	x5, #0x105\n"
"	mov	x6, #0x106\n"
"	mov	x7, #0x107\n"
"	mov	x8, #0x108\n"
"	mov	x9, #0x109\n"
"	mov	x10, #0x10a\n"
"	mov	x11, #0x10b\n"
"	mov	x12, #0x10c\n"
"	mov	x13, #0x10d\n"
"	mov	x14, #0x10e\n"
"	mov	x15, #0x10f\n"
"	mov	x16, #0x110\n"
"	mov	x17, #0x111\n"
"	mov	x19, #0x113\n"
"	mov	x20, #0x114\n"
"	mov	x21, #0x115\n"
"	mov	x22, #0x116\n"
"	mov	x23, #0x117\n"
"	mov	x24, #0x118\n"
"	mov	x25, #0x119\n"
"	mov	x26, #0x11a\n"
"	mov	x27, #0x11b\n"
"	mov	x28, #0x11c\n"
"	mov	x30, #0x11e\n"
	SDT_PROBE_ASM(kunit_arm64, live_site, SDT_ARM64_LIVE_SPEC)
"	sub	sp, sp, #256\n"
"	stp	x0, x1, [sp, #0]\n"
"	stp	x2, x3, [sp, #16]\n"
"	stp	x4, x5, [sp, #32]\n"
"	stp	x6, x7, [sp, #48]\n"
"	stp	x8, x9, [sp, #64]\n"
"	stp	x10, x11, [sp, #80]\n"
"	stp	x12, x13, [sp, #96]\n"
"	stp	x14, x15, [sp, #112]\n"
"	stp	x16, x17, [sp, #128]\n"
"	stp	xzr, x19, [sp, #144]\n"
"	stp	x20, x21, [sp, #160]\n"
"	stp	x22, x23, [sp, #176]\n"
"	stp	x24, x25, [sp, #192]\n"
"	stp	x26, x27, [sp, #208]\n"
"	stp	x28, xzr, [sp, #224]\n"
"	mrs	x0, nzcv\n"
"	stp	x30, x0, [sp, #240]\n"
"	ldr	x0, [x29, #96]\n"
"	mov	x1, #0\n"
"1:	ldr	x2, [sp, x1]\n"
"	str	x2, [x0, x1]\n"
"	add	x1, x1, #8\n"
"	cmp	x1, #256\n"
"	b.ne	1b\n"
"	add	sp, sp, #256\n"
"	ldp	x19, x20, [sp, #16]\n"
"	ldp	x21, x22, [sp, #32]\n"
"	ldp	x23, x24, [sp, #48]\n"
"	ldp	x25, x26, [sp, #64]\n"
"	ldp	x27, x28, [sp, #80]\n"
"	ldp	x29, x30, [sp], #112\n"
"	ret\n"
"	.size	sdt_arm64_asm_live, . - sdt_arm64_asm_live\n"
"	.popsection\n");

static struct {
	unsigned int nr;
	u64 args[SDT_ARM64_LIVE_NARGS];
} sdt_arm64_hit;

static void sdt_arm64_probe(void *data, const u64 *args, unsigned int nargs)
{
	sdt_arm64_hit.nr++;
	memcpy(sdt_arm64_hit.args, args, sizeof(sdt_arm64_hit.args));
}

static void sdt_arm64_detach(void *unused)
{
	sdt_disable_probe("kunit_arm64", "live_site", sdt_arm64_probe, NULL);
}

static void sdt_arm64_mechanism(void *use_kprobes)
{
	sdt_use_kprobes = use_kprobes;
}

/* A thunk that lands out of its site's reach, as in a far module. */
static int sdt_arm64_thunk_far(const struct sdt_prog *prog,
			       const struct sdt_thunk_call *call,
			       struct sdt_thunk_image *img)
{
	return -ERANGE;
}

/*
 * The live site fired through its thunk (the default), through its BRK
 * kprobe, and through the kprobe it gets when its thunk cannot be made:
 * the probe gets every operand (the faulting one as 0, and counted), and
 * the code after the site finds every register and the flags as they
 * were before it.
 */
static void sdt_arm64_test_live(struct kunit *test)
{
	static const struct {
		bool kprobes, far;
		int state;		/* sdt_site_info(): 4 thunk, 1 kprobe */
	} ways[] = {
		{ .state = 4 },
		{ .kprobes = true, .state = 1 },
		{ .far = true, .state = 1 },
	};
	void *mech = (void *)(unsigned long)sdt_use_kprobes;
	u64 out[32];
	const u64 want[SDT_ARM64_LIVE_NARGS] = {
		0x100, 0x111, 0x11c, 0x11e, 0x109, 0x10a, 0x110,
		(unsigned long)out, 0, (u64)-5, (u64)-10,
	};
	unsigned int faults, faults0;
	void *addr;
	int i, r;

	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, sdt_arm64_mechanism,
							mech), 0);
	for (i = 0; i < ARRAY_SIZE(ways); i++) {
		sdt_use_kprobes = ways[i].kprobes;
		if (ways[i].far)
			kunit_activate_static_stub(test, arch_sdt_thunk_emit,
						   sdt_arm64_thunk_far);
		memset(&sdt_arm64_hit, 0, sizeof(sdt_arm64_hit));
		KUNIT_ASSERT_EQ(test, sdt_set_probe("kunit_arm64", "live_site",
						    SDT_ARM64_LIVE_NARGS,
						    sdt_arm64_probe, NULL), 0);
		KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, sdt_arm64_detach,
								NULL), 0);
		KUNIT_ASSERT_EQ(test, sdt_site_info("kunit_arm64:live_site", &addr,
						    &faults0), ways[i].state);
		if (ways[i].far)
			kunit_deactivate_static_stub(test, arch_sdt_thunk_emit);
		KUNIT_EXPECT_EQ(test, marker_check_consistency(), 0);

		sdt_arm64_asm_live(out);
		KUNIT_EXPECT_EQ(test, sdt_arm64_hit.nr, 1);
		for (r = 0; r < SDT_ARM64_LIVE_NARGS; r++)
			KUNIT_EXPECT_EQ_MSG(test, sdt_arm64_hit.args[r], want[r],
					    "argument %d, way %d", r, i);
		KUNIT_EXPECT_EQ(test, sdt_site_info("kunit_arm64:live_site", &addr,
						    &faults), ways[i].state);
		KUNIT_EXPECT_EQ(test, faults, faults0 + 1);
		for (r = 0; r < 31; r++)
			KUNIT_EXPECT_EQ_MSG(test, out[r],
					    r == 18 || r == 29 ? 0 : 0x100 + r,
					    "x%d, way %d", r, i);
		KUNIT_EXPECT_EQ(test, out[31], SDT_ARM64_LIVE_NZCV);

		kunit_release_action(test, sdt_arm64_detach, NULL);
		KUNIT_EXPECT_EQ(test, sdt_site_info("kunit_arm64:live_site", &addr,
						    &(unsigned int){0}), 0);
		sdt_arm64_asm_live(out);
		KUNIT_EXPECT_EQ(test, sdt_arm64_hit.nr, 1);
		KUNIT_EXPECT_EQ(test, out[31], SDT_ARM64_LIVE_NZCV);
	}
}

static void sdt_arm64_relive(void *unused)
{
	sdt_thunk_set_live("kunit_arm64:live_site", true);
}

/*
 * A task may run a thunk after its site was disarmed and the site's
 * memory freed (preempted in it, or inside the read of a faulting
 * operand): a thunk whose live flag is clear, as a retired one's is,
 * calls no probe and counts no fault, and still gives the code after the
 * site its registers and flags.
 */
static void sdt_arm64_test_retired(struct kunit *test)
{
	unsigned int faults, faults0;
	void *addr;
	u64 out[32];
	int r;

	memset(&sdt_arm64_hit, 0, sizeof(sdt_arm64_hit));
	KUNIT_ASSERT_EQ(test, sdt_set_probe("kunit_arm64", "live_site",
					    SDT_ARM64_LIVE_NARGS,
					    sdt_arm64_probe, NULL), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, sdt_arm64_detach,
							NULL), 0);
	KUNIT_ASSERT_EQ(test, sdt_site_info("kunit_arm64:live_site", &addr,
					    &faults0), 4);
	KUNIT_ASSERT_EQ(test, sdt_thunk_set_live("kunit_arm64:live_site", false), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, sdt_arm64_relive,
							NULL), 0);

	sdt_arm64_asm_live(out);
	KUNIT_EXPECT_EQ(test, sdt_arm64_hit.nr, 0);
	KUNIT_EXPECT_EQ(test, sdt_site_info("kunit_arm64:live_site", &addr,
					    &faults), 4);
	KUNIT_EXPECT_EQ_MSG(test, faults, faults0,
			    "a retired thunk counted a fault in its site");
	for (r = 0; r < 31; r++)
		KUNIT_EXPECT_EQ_MSG(test, out[r],
				    r == 18 || r == 29 ? 0 : 0x100 + r, "x%d", r);
	KUNIT_EXPECT_EQ(test, out[31], SDT_ARM64_LIVE_NZCV);
}

/* A second probe of the live site, with hits of its own. */
static unsigned int sdt_arm64_hits2;

static void sdt_arm64_probe2(void *data, const u64 *args, unsigned int nargs)
{
	sdt_arm64_hits2++;
}

static void sdt_arm64_detach2(void *unused)
{
	sdt_disable_probe("kunit_arm64", "live_site", sdt_arm64_probe2, NULL);
}

/* Where the B at an armed site goes, or NULL: the site is no B. */
static void *sdt_arm64_dest(const void *code)
{
	u32 insn = le32_to_cpu(*(const __le32 *)code);

	if ((insn & 0xfc000000) != 0x14000000)
		return NULL;
	return (void *)code + (sign_extend32(insn & 0x03ffffff, 25) << 2);
}

/* The live site's state, its thunk in *@dest; fired once, its hits. */
static int sdt_arm64_fire(struct kunit *test, void **dest)
{
	unsigned int faults;
	void *addr;
	u64 out[32];
	int state;

	state = sdt_site_info("kunit_arm64:live_site", &addr, &faults);
	*dest = sdt_arm64_dest(addr);
	sdt_arm64_hit.nr = 0;
	sdt_arm64_hits2 = 0;
	sdt_arm64_asm_live(out);
	KUNIT_EXPECT_EQ(test, out[31], SDT_ARM64_LIVE_NZCV);
	KUNIT_EXPECT_EQ(test, marker_check_consistency(), 0);
	return state;
}

/*
 * Attach @probe to the live site, detached by @detach when the test ends:
 * what sdt_set_probe() returned.
 */
static int sdt_arm64_attach(struct kunit *test, sdt_probe_func *probe,
			    void (*detach)(void *))
{
	int ret = sdt_set_probe("kunit_arm64", "live_site",
				SDT_ARM64_LIVE_NARGS, probe, NULL);

	if (!ret)
		ret = kunit_add_action_or_reset(test, detach, NULL);
	return ret;
}

/*
 * A thunk calls its one probe directly, or the iterator over several: each
 * change of a site's probes makes it a new thunk, in the same batch as the
 * rest of the change, and the hits follow the probes.
 */
static void sdt_arm64_test_probes(struct kunit *test)
{
	void *one, *two, *three;

	KUNIT_ASSERT_EQ(test, sdt_arm64_attach(test, sdt_arm64_probe,
					       sdt_arm64_detach), 0);
	KUNIT_ASSERT_EQ(test, sdt_arm64_fire(test, &one), 4);
	KUNIT_EXPECT_NOT_NULL(test, one);
	KUNIT_EXPECT_EQ(test, sdt_arm64_hit.nr, 1);

	KUNIT_ASSERT_EQ(test, sdt_arm64_attach(test, sdt_arm64_probe2,
					       sdt_arm64_detach2), 0);
	KUNIT_EXPECT_EQ(test, sdt_arm64_fire(test, &two), 4);
	KUNIT_EXPECT_PTR_NE(test, two, one);
	KUNIT_EXPECT_EQ(test, sdt_arm64_hit.nr, 1);
	KUNIT_EXPECT_EQ(test, sdt_arm64_hits2, 1);

	kunit_release_action(test, sdt_arm64_detach2, NULL);
	KUNIT_EXPECT_EQ(test, sdt_arm64_fire(test, &three), 4);
	KUNIT_EXPECT_PTR_NE(test, three, two);
	KUNIT_EXPECT_EQ(test, sdt_arm64_hit.nr, 1);
	KUNIT_EXPECT_EQ(test, sdt_arm64_hits2, 0);
}

/* No thunk can be made: out of executable memory. */
static int sdt_arm64_thunk_nomem(const struct sdt_prog *prog,
				 const struct sdt_thunk_call *call,
				 struct sdt_thunk_image *img)
{
	return -ENOMEM;
}

/*
 * A thunk sized at its site, whose slot is out of the site's reach, as a
 * slot in the 2 GB fallback region would be.
 */
static int sdt_arm64_thunk_slot_far(const struct sdt_prog *prog,
				    const struct sdt_thunk_call *call,
				    struct sdt_thunk_image *img)
{
	if (img->at != (unsigned long)call->site)
		return -ERANGE;
	img->len = 64;
	img->entry = 0;
	return 0;
}

/* Refuse every thunk from now on: for memory, or (@far) for reach. */
static void sdt_arm64_refuse_thunks(struct kunit *test, bool far)
{
	if (far)
		kunit_activate_static_stub(test, arch_sdt_thunk_emit,
					   sdt_arm64_thunk_slot_far);
	else
		kunit_activate_static_stub(test, arch_sdt_thunk_emit,
					   sdt_arm64_thunk_nomem);
}

/*
 * Without a trampoline, a change of a thunk-armed site's probes reserves
 * the site's new thunk first: an attach that cannot have it, for memory
 * or for reach, fails and changes nothing. A detach cannot fail: without
 * its new thunk the site is disarmed, in error, calling no probe, until
 * its key loses its probes; armed again, it gets a thunk.
 */
static void sdt_arm64_test_rearm_refused(struct kunit *test)
{
	static const struct {
		bool far;
		int err;		/* the site's, after a detach */
	} ways[] = {
		{ .err = -ENOMEM },
		{ .far = true, .err = -ERANGE },
	};
	void *one, *dest;
	int i;

	for (i = 0; i < ARRAY_SIZE(ways); i++) {
		KUNIT_ASSERT_EQ(test, sdt_arm64_attach(test, sdt_arm64_probe,
						       sdt_arm64_detach), 0);
		KUNIT_ASSERT_EQ(test, sdt_arm64_fire(test, &one), 4);

		sdt_arm64_refuse_thunks(test, ways[i].far);
		KUNIT_EXPECT_EQ_MSG(test, sdt_arm64_attach(test, sdt_arm64_probe2,
							   sdt_arm64_detach2),
				    -ENOMEM, "way %d", i);
		kunit_deactivate_static_stub(test, arch_sdt_thunk_emit);
		KUNIT_EXPECT_EQ(test, sdt_arm64_fire(test, &dest), 4);
		KUNIT_EXPECT_PTR_EQ(test, dest, one);
		KUNIT_EXPECT_EQ(test, sdt_arm64_hit.nr, 1);
		KUNIT_EXPECT_EQ(test, sdt_arm64_hits2, 0);

		KUNIT_ASSERT_EQ(test, sdt_arm64_attach(test, sdt_arm64_probe2,
						       sdt_arm64_detach2), 0);
		KUNIT_EXPECT_EQ(test, sdt_arm64_fire(test, &dest), 4);
		KUNIT_EXPECT_EQ(test, sdt_arm64_hit.nr + sdt_arm64_hits2, 2);
		sdt_arm64_refuse_thunks(test, ways[i].far);
		kunit_release_action(test, sdt_arm64_detach2, NULL);
		kunit_deactivate_static_stub(test, arch_sdt_thunk_emit);
		KUNIT_EXPECT_EQ_MSG(test, sdt_arm64_fire(test, &dest), ways[i].err,
				    "way %d", i);
		KUNIT_EXPECT_STREQ(test, sdt_site_why("kunit_arm64:live_site"),
				   "no_new_thunk");
		KUNIT_EXPECT_NULL(test, dest);
		KUNIT_EXPECT_EQ(test, sdt_arm64_hit.nr + sdt_arm64_hits2, 0);

		kunit_release_action(test, sdt_arm64_detach, NULL);
		KUNIT_EXPECT_EQ(test, sdt_arm64_fire(test, &dest), 0);
	}
}

static struct kunit_case sdt_arm64_test_cases[] = {
	KUNIT_CASE(sdt_arm64_test_decode),
	KUNIT_CASE(sdt_arm64_test_live),
	KUNIT_CASE(sdt_arm64_test_retired),
	KUNIT_CASE(sdt_arm64_test_probes),
	KUNIT_CASE(sdt_arm64_test_rearm_refused),
	{}
};

static struct kunit_suite sdt_arm64_test_suite = {
	.name = "markers_sdt_arm64",
	.test_cases = sdt_arm64_test_cases,
};

kunit_test_suite(sdt_arm64_test_suite);

MODULE_DESCRIPTION("KUnit tests of the arm64 SDT operand decoder and thunks");
MODULE_LICENSE("GPL");
