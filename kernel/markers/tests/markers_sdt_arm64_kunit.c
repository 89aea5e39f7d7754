// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "markers_sdt_arm64": the arm64 SDT operand decoder
 * (arch/arm64/kernel/sdt.c with kernel/markers/sdt_decode.c), form by
 * form: each spec parsed and fetched against a struct pt_regs and memory
 * of its own, and the specs it must refuse, with their reasons. The
 * sites that GCC makes are markers_sdt_diff's.
 */

#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/sdt-decode.h>
#include <linux/string.h>

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
}

static struct kunit_case sdt_arm64_test_cases[] = {
	KUNIT_CASE(sdt_arm64_test_decode),
	{}
};

static struct kunit_suite sdt_arm64_test_suite = {
	.name = "markers_sdt_arm64",
	.test_cases = sdt_arm64_test_cases,
};

kunit_test_suite(sdt_arm64_test_suite);

MODULE_DESCRIPTION("KUnit tests of the arm64 SDT operand decoder");
MODULE_LICENSE("GPL");
