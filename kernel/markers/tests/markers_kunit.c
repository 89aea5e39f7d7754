// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "markers": the probe registry, format checking, argument
 * delivery and site duplication of kernel markers.
 *
 * The sites below are this module's own; they join the registry when the
 * module loads, before the suite runs.
 */

#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/limits.h>
#include <linux/marker.h>
#include <linux/marker-defs.h>
#include <linux/module.h>
#include <linux/string.h>

#include "../internal.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* What a probe saw: the arguments of the last hit, read by their class. */
struct hit {
	int nr;			/* hits */
	int nargs;
	u8 cls[MARKER_MAX_ARGS];
	long long val[MARKER_MAX_ARGS];
	char str[MARKER_MAX_ARGS][32];
	const void *ptr[MARKER_MAX_ARGS];
	char fmt[64];
};

static struct hit hit;

/* Reads the arguments by the site's own format, as a generic probe would. */
static void record_probe(void *data, const char *fmt, va_list *args)
{
	struct hit *h = data;
	int i;

	h->nr++;
	strscpy(h->fmt, fmt, sizeof(h->fmt));
	h->nargs = marker_parse_format(fmt, h->cls, MARKER_MAX_ARGS);
	for (i = 0; i < h->nargs; i++) {
		switch (h->cls[i]) {
		case MARKER_ARG_INT:
			h->val[i] = va_arg(*args, int);
			break;
		case MARKER_ARG_LONG:
			h->val[i] = va_arg(*args, long long);
			break;
		case MARKER_ARG_STR:
			strscpy(h->str[i], va_arg(*args, const char *),
				sizeof(h->str[i]));
			break;
		case MARKER_ARG_PTR:
			h->ptr[i] = va_arg(*args, const void *);
			break;
		}
	}
}

static void count_probe(void *data, const char *fmt, va_list *args)
{
	atomic_inc(data);
}

/* Counters handed to probes as their data: static, never on a stack. */
static atomic_t count_a, count_b;

/* --- Sites ------------------------------------------------------------ */

static noinline void fire_int(int v)
{
	MARK(kunit_int, "%d", v);
}

static noinline void fire_multi(int v, const char *s)
{
	MARK(kunit_multi, "%d %s", v, s);
}

/* A site whose format the kernel's vsnprintf() cannot print (%j). */
static noinline void fire_intmax(long v)
{
	MARK(kunit_intmax, "%jd", v);
}

static const char kunit_buf[] = "marker";

static noinline void fire_classes(void)
{
	const char *buf = kunit_buf;

	MARK(kunit_uint, "%u", 4000000000U);
	MARK(kunit_long, "%ld", LONG_MIN);
	MARK(kunit_llong, "%lld", -1234567890123LL);
	MARK(kunit_size, "%zu", (size_t)SIZE_MAX);
	MARK(kunit_char, "%c", 'x');
	MARK(kunit_short, "%hd", (short)-7);
	MARK(kunit_str, "%s", buf);
	MARK(kunit_ptr, "%p", buf);
	MARK(kunit_mixed, "a=%d b=%s c=%lu d=%p e=%c f=%lld g=%x",
	     -1, "two", 3UL, buf, 'e', 6LL, 0x7u);
}

static noinline void fire_order(void)
{
	MARK(kunit_order, MARK_NOARGS);
}

static __always_inline void inline_site(int v)
{
	MARK(kunit_inline, "%d", v);
}

/* Armed by markers_test_unreached alone: never armed before it. */
static noinline void fire_fresh(int v)
{
	MARK(kunit_fresh, "%d", v);
}

static noinline void inline_caller_a(void)
{
	inline_site(1);
}

static noinline void inline_caller_b(void)
{
	inline_site(2);
}

/*
 * GCC unrolls this loop into four copies of the site. clang does not
 * unroll a loop that holds an asm goto: markers_test_unrolled skips.
 */
static noinline void fire_unrolled(void)
{
	int i;

#ifdef CONFIG_CC_IS_GCC
#pragma GCC unroll 4
#endif
	for (i = 0; i < 4; i++)
		MARK(kunit_unroll, "%d", i);
}

static int side_effects;

static noinline int side_effect(void)
{
	return ++side_effects;
}

static noinline void fire_side_effect(void)
{
	MARK(kunit_side, "%d", side_effect());
}

static noinline bool fire_guard(void)
{
	if (MARK_ENABLED(kunit_guard)) {
		MARK(kunit_guard, "%d", side_effect());
		return true;
	}
	return false;
}

static noinline void fire_race(int i)
{
	MARK(kunit_race, "%d", i);
}

/* --- Tests ------------------------------------------------------------ */

struct kset_undo {
	const char *name;
	marker_probe_func *probe;
	void *data;
};

static void kset_undo(void *p)
{
	struct kset_undo *u = p;

	/* -ENOENT when the test detached it itself: that is fine. */
	marker_disable_probe(u->name, u->probe, u->data);
}

/*
 * marker_set_probe(), plus a detach when the test ends, however it ends: a
 * failed assertion must not leave a probe of this module attached.
 */
static int kset(struct kunit *test, const char *name, const char *fmt,
		marker_probe_func *probe, void *data)
{
	struct kset_undo *u;
	int ret;

	ret = marker_set_probe(name, fmt, probe, data);
	if (ret)
		return ret;
	u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);
	if (!u) {
		marker_disable_probe(name, probe, data);
		return -ENOMEM;
	}
	*u = (struct kset_undo){ .name = name, .probe = probe, .data = data };
	return kunit_add_action_or_reset(test, kset_undo, u);
}

static void armed_expect(struct kunit *test, const char *name,
			 unsigned int sites, unsigned int armed)
{
	unsigned int a;

	KUNIT_EXPECT_EQ_MSG(test, marker_count_sites(name, &a), sites, "%s", name);
	KUNIT_EXPECT_EQ_MSG(test, a, armed, "%s armed", name);
}

/* What each conversion is as a trace event field (marker_format_next()). */
static void markers_test_conversions(struct kunit *test)
{
	static const struct {
		const char *fmt;
		const char *type;
		u8 size;
		bool is_signed;
		unsigned int nstars;
	} cases[] = {
		{ "%d", "int", 4, true },
		{ "%i", "int", 4, true },
		{ "%u", "unsigned int", 4, false },
		{ "%#x", "unsigned int", 4, false },
		{ "%hhd", "signed char", 1, true },
		{ "%hu", "unsigned short", 2, false },
		{ "%ld", "long", 8, true },
		{ "%lx", "unsigned long", 8, false },
		{ "%lld", "long long", 8, true },
		{ "%Lu", "unsigned long long", 8, false },
		{ "%zu", "size_t", 8, false },
		{ "%zd", "ssize_t", 8, true },
		{ "%c", "char", 1, true },
		{ "%p", "void *", 8, false },
		{ "%pS", "void *", 8, false },
		{ "%s", "__data_loc char[]", 4, false },
		{ "%*.*s", "__data_loc char[]", 4, false, 2 },
		{ "%-8d", "int", 4, true },
	};
	const char *lit = "a %% b=%u c", *p;
	struct marker_conv c;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		p = cases[i].fmt;
		KUNIT_ASSERT_EQ_MSG(test, marker_format_next(&p, &c), 1, "%s", cases[i].fmt);
		KUNIT_EXPECT_STREQ_MSG(test, c.type, cases[i].type, "%s", cases[i].fmt);
		KUNIT_EXPECT_EQ_MSG(test, c.size, cases[i].size, "%s", cases[i].fmt);
		KUNIT_EXPECT_EQ_MSG(test, c.is_signed, cases[i].is_signed, "%s", cases[i].fmt);
		KUNIT_EXPECT_EQ_MSG(test, c.nstars, cases[i].nstars, "%s", cases[i].fmt);
		KUNIT_EXPECT_EQ_MSG(test, c.len, strlen(cases[i].fmt), "%s", cases[i].fmt);
		KUNIT_EXPECT_EQ(test, marker_format_next(&p, &c), 0);
	}
	/* Literal text and %% carry nothing; the conversion is found in it. */
	p = lit;
	KUNIT_ASSERT_EQ(test, marker_format_next(&p, &c), 1);
	KUNIT_EXPECT_EQ(test, c.start - lit, 7);
	KUNIT_EXPECT_STREQ(test, p, " c");
	KUNIT_EXPECT_EQ(test, marker_format_next(&p, &c), 0);
	p = "%jd";
	KUNIT_EXPECT_EQ(test, marker_format_next(&p, &c), -EINVAL);
	p = "x %";
	KUNIT_EXPECT_EQ(test, marker_format_next(&p, &c), -EINVAL);
}

static void markers_test_errors(struct kunit *test)
{
	static char long_name[MARKER_NAME_MAX + 2];

	memset(long_name, 'x', sizeof(long_name) - 1);
	KUNIT_EXPECT_EQ(test, marker_set_probe(NULL, "%d", record_probe, &hit), -EINVAL);
	KUNIT_EXPECT_EQ(test, marker_set_probe("", "%d", record_probe, &hit), -EINVAL);
	KUNIT_EXPECT_EQ(test, marker_set_probe("two words", NULL, record_probe, &hit), -EINVAL);
	KUNIT_EXPECT_EQ(test, marker_set_probe("1st", NULL, record_probe, &hit), -EINVAL);
	KUNIT_EXPECT_EQ(test, marker_set_probe("new\nline", NULL, record_probe, &hit), -EINVAL);
	KUNIT_EXPECT_EQ(test, marker_set_probe(long_name, NULL, record_probe, &hit), -EINVAL);
	long_name[MARKER_NAME_MAX] = '\0';
	KUNIT_EXPECT_EQ(test, marker_set_probe(long_name, NULL, record_probe, &hit), 0);
	KUNIT_EXPECT_EQ(test, marker_disable_probe(long_name, record_probe, &hit), 0);
	KUNIT_EXPECT_EQ(test, marker_set_probe("kunit_int", "%d", NULL, &hit), -EINVAL);
	KUNIT_EXPECT_EQ(test, marker_set_probe("kunit_int", "", record_probe, &hit), -EINVAL);
	KUNIT_EXPECT_EQ(test, marker_set_probe("kunit_int", "%q", record_probe, &hit), -EINVAL);
	KUNIT_EXPECT_EQ(test, marker_set_probe("kunit_int", "%d %", record_probe, &hit), -EINVAL);
	KUNIT_EXPECT_EQ(test, marker_set_probe("kunit_int", "%f", record_probe, &hit), -EINVAL);
	KUNIT_EXPECT_EQ(test, marker_set_probe("kunit_int", "%s", record_probe, &hit), -EPERM);
	KUNIT_EXPECT_EQ(test, marker_set_probe("kunit_int", "%ld", record_probe, &hit), -EPERM);
	KUNIT_EXPECT_EQ(test, marker_set_probe("kunit_int", "%d %d", record_probe, &hit), -EPERM);
	armed_expect(test, "kunit_int", 1, 0);

	KUNIT_ASSERT_EQ(test, kset(test, "kunit_int", "%d", record_probe, &hit), 0);
	KUNIT_EXPECT_EQ(test, marker_set_probe("kunit_int", "%d", record_probe, &hit), -EEXIST);
	KUNIT_EXPECT_EQ(test, marker_set_probe("kunit_int", NULL, record_probe, &hit), -EEXIST);
	armed_expect(test, "kunit_int", 1, 1);
	fire_int(5);
	KUNIT_EXPECT_EQ(test, hit.nr, 1);

	KUNIT_EXPECT_EQ(test, marker_disable_probe(NULL, record_probe, &hit), -EINVAL);
	KUNIT_EXPECT_EQ(test, marker_disable_probe("kunit_int", NULL, &hit), -EINVAL);
	KUNIT_EXPECT_EQ(test, marker_disable_probe("kunit_int", record_probe, NULL), -ENOENT);
	KUNIT_EXPECT_EQ(test, marker_disable_probe("kunit_int", count_probe, &hit), -ENOENT);
	KUNIT_EXPECT_EQ(test, marker_disable_probe("kunit_nope", record_probe, &hit), -ENOENT);
	armed_expect(test, "kunit_int", 1, 1);

	KUNIT_EXPECT_EQ(test, marker_disable_probe("kunit_int", record_probe, &hit), 0);
	KUNIT_EXPECT_EQ(test, marker_disable_probe("kunit_int", record_probe, &hit), -ENOENT);
	armed_expect(test, "kunit_int", 1, 0);
	fire_int(6);
	KUNIT_EXPECT_EQ(test, hit.nr, 1);
}

/* Memory that goes once the module is live: no probe may point into it. */
static int markers_init_data __initdata;

static void __init markers_init_probe(void *data, const char *fmt,
				      va_list *args)
{
}

/*
 * __ref: the suites of a module run when it is live, before its init
 * memory is freed; markers_test_api_checks() skips once it is.
 */
static noinline void __ref markers_init_addrs(void **data,
					      marker_probe_func **probe)
{
	*data = &markers_init_data;
	*probe = markers_init_probe;
}

/* @ret must be -EINVAL; if the probe was attached all the same, detach it. */
static void markers_expect_einval(struct kunit *test, int ret, const char *name,
				  marker_probe_func *probe, void *data)
{
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	if (!ret)
		marker_disable_probe(name, probe, data);
}

/*
 * What the API refuses besides: a probe or data in init memory, which
 * is freed under the sites; names with bytes that are letters only in
 * Latin-1. And freed init text is no longer reserved against kprobes.
 */
static void markers_test_api_checks(struct kunit *test)
{
	marker_probe_func *init_probe;
	void *init_data, *code;

	markers_init_addrs(&init_data, &init_probe);
	if (!within_module_init((unsigned long)init_data, THIS_MODULE))
		kunit_skip(test, "the module's init memory is freed");
	markers_expect_einval(test, marker_set_probe("kunit_int", "%d", record_probe,
						     init_data),
			      "kunit_int", record_probe, init_data);
	markers_expect_einval(test, marker_set_probe("kunit_int", "%d", init_probe,
						     &hit),
			      "kunit_int", init_probe, &hit);
	armed_expect(test, "kunit_int", 1, 0);

	markers_expect_einval(test, marker_set_probe("caf\xe9", NULL, record_probe,
						     &hit),
			      "caf\xe9", record_probe, &hit);
	markers_expect_einval(test, marker_set_probe("\xc0x", NULL, record_probe,
						     &hit),
			      "\xc0x", record_probe, &hit);

	code = marker_gone_call();
	KUNIT_ASSERT_NOT_NULL(test, code);
	KUNIT_EXPECT_EQ(test, marker_text_reserved(code, code), 0);
}

/*
 * vmlinux's init sites go when its init memory is freed, not before: init
 * code (async initcalls, prepare_namespace()) runs until then, and must
 * not run a site the registry no longer patches.
 */
static void markers_test_init_gone(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, marker_init_gone_state, SYSTEM_FREEING_INITMEM);
}

/*
 * vmlinux's __exit code (markers_exit.c, built in with this suite) never
 * runs and goes with the init memory: its site stays listed, gone, and a
 * probe of its name arms nothing there, which would write freed text.
 */
static void markers_test_exit_gone(struct kunit *test)
{
	struct hit hit = {};

	armed_expect(test, "markers_test_exit", 1, 0);
	KUNIT_ASSERT_EQ(test, kset(test, "markers_test_exit", NULL, record_probe, &hit), 0);
	armed_expect(test, "markers_test_exit", 1, 0);
	KUNIT_EXPECT_EQ(test, hit.nr, 0);
}

/*
 * A site with a conversion vsnprintf() does not support takes no probe:
 * not a generic one (it would hand the format to vsnprintf()), not one
 * asking for that format.
 */
static void markers_test_unprintable_site(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, marker_set_probe("kunit_intmax", NULL, record_probe, &hit), -EPERM);
	KUNIT_EXPECT_EQ(test, marker_set_probe("kunit_intmax", "%jd", record_probe, &hit), -EINVAL);
	KUNIT_EXPECT_EQ(test, marker_set_probe("kunit_intmax", "%ld", record_probe, &hit), -EPERM);
	armed_expect(test, "kunit_intmax", 1, 0);
	fire_intmax(-1);
	KUNIT_EXPECT_EQ(test, hit.nr, 0);
}

static struct marker_probes *failing_alloc(unsigned int room, gfp_t gfp)
{
	return NULL;
}

static void markers_test_enomem(struct kunit *test)
{
	atomic_set(&count_a, 0);
	KUNIT_ASSERT_EQ(test, kset(test, "kunit_int", NULL, count_probe, &count_a), 0);
	KUNIT_ASSERT_EQ(test, kset(test, "kunit_int", "%i", record_probe, &hit), 0);

	kunit_activate_static_stub(test, marker_alloc_probes, failing_alloc);
	/* A third probe on the name, a first probe on a new name. */
	KUNIT_EXPECT_EQ(test, marker_set_probe("kunit_int", "%x", count_probe, &count_b), -ENOMEM);
	KUNIT_EXPECT_EQ(test, marker_set_probe("kunit_new", NULL, count_probe, &count_b), -ENOMEM);

	/* Nothing changed: both probes still fire, the others never came. */
	fire_int(7);
	KUNIT_EXPECT_EQ(test, atomic_read(&count_a), 1);
	KUNIT_EXPECT_EQ(test, hit.nr, 1);
	KUNIT_EXPECT_EQ(test, marker_disable_probe("kunit_int", count_probe, &count_b), -ENOENT);
	KUNIT_EXPECT_EQ(test, marker_disable_probe("kunit_new", count_probe, &count_b), -ENOENT);
	armed_expect(test, "kunit_int", 1, 1);

	/* Detaching does not allocate through the failing path: it works. */
	KUNIT_EXPECT_EQ(test, marker_disable_probe("kunit_int", count_probe, &count_a), 0);
	kunit_deactivate_static_stub(test, marker_alloc_probes);
	fire_int(8);
	KUNIT_EXPECT_EQ(test, atomic_read(&count_a), 1);
	KUNIT_EXPECT_EQ(test, hit.nr, 2);
	KUNIT_EXPECT_EQ(test, marker_disable_probe("kunit_int", record_probe, &hit), 0);
	armed_expect(test, "kunit_int", 1, 0);
}

static void markers_test_parse(struct kunit *test)
{
	static const struct {
		const char *fmt;
		int n;
	} counts[] = {
		{ "", 0 }, { "plain text", 0 }, { "100%%", 0 }, { "%d", 1 },
		{ "%-08.3lx", 1 }, { "%*d", 2 }, { "%.*s", 2 }, { "%*.*d", 3 },
		{ "%pS %pI4 %px", 3 }, { "%hhd%hd%d%ld%lld%zd%td%Ld", 8 },
		{ "%", -EINVAL }, { "%f", -EINVAL }, { "%n", -EINVAL },
		{ "%y", -EINVAL }, { "%ls", 1 }, { "%jd", -EINVAL },
		{ "%Zd", -EINVAL }, { "%qd", -EINVAL }, { "%lf", -EINVAL },
	};
	static const char * const same[][2] = {
		{ "%d", "%i" }, { "%d", "%u" }, { "%d", "%x" }, { "%d", "%c" },
		{ "%d", "%hhd" }, { "%d", "%hu" }, { "%ld", "%lld" },
		{ "%lu", "%zu" }, { "%ld", "%td" }, { "%ld", "%Lx" },
		{ "%p", "%pS" }, { "%s", "%-20.5s" }, { "a %d b", "%5d%%" },
	};
	static const char * const differ[][2] = {
		{ "%d", "%ld" }, { "%d", "%s" }, { "%s", "%p" }, { "%p", "%lu" },
		{ "%d", "%d %d" }, { "%d", "" }, { "%d", "%" }, { "%ld", "%jd" },
	};
	u8 cls[MARKER_MAX_ARGS];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(counts); i++) {
		int n = marker_parse_format(counts[i].fmt, cls, ARRAY_SIZE(cls));

		KUNIT_EXPECT_EQ_MSG(test, n, counts[i].n, "\"%s\"", counts[i].fmt);
	}
	for (i = 0; i < ARRAY_SIZE(same); i++)
		KUNIT_EXPECT_TRUE_MSG(test, marker_format_match(same[i][0], same[i][1]),
				      "\"%s\" vs \"%s\"", same[i][0], same[i][1]);
	for (i = 0; i < ARRAY_SIZE(differ); i++)
		KUNIT_EXPECT_FALSE_MSG(test, marker_format_match(differ[i][0], differ[i][1]),
				       "\"%s\" vs \"%s\"", differ[i][0], differ[i][1]);
	KUNIT_EXPECT_EQ(test, marker_parse_format("%d%d%d", cls, 2), -EINVAL);
}

/* Attach record_probe with @fmt, fire fire_classes(), detach. */
static void fire_one(struct kunit *test, const char *name, const char *fmt)
{
	memset(&hit, 0, sizeof(hit));
	KUNIT_ASSERT_EQ_MSG(test, kset(test, name, fmt, record_probe, &hit), 0,
			    "%s", name);
	fire_classes();
	KUNIT_EXPECT_EQ(test, marker_disable_probe(name, record_probe, &hit), 0);
	KUNIT_EXPECT_EQ_MSG(test, hit.nr, 1, "%s", name);
}

static void markers_test_classes(struct kunit *test)
{
	fire_one(test, "kunit_uint", "%x");
	KUNIT_EXPECT_EQ(test, (unsigned int)hit.val[0], 4000000000U);
	fire_one(test, "kunit_long", "%ld");
	KUNIT_EXPECT_EQ(test, hit.val[0], (long long)LONG_MIN);
	fire_one(test, "kunit_llong", "%lld");
	KUNIT_EXPECT_EQ(test, hit.val[0], -1234567890123LL);
	fire_one(test, "kunit_size", "%zx");
	KUNIT_EXPECT_EQ(test, (size_t)hit.val[0], (size_t)SIZE_MAX);
	fire_one(test, "kunit_char", "%c");
	KUNIT_EXPECT_EQ(test, hit.val[0], 'x');
	fire_one(test, "kunit_short", "%d");
	KUNIT_EXPECT_EQ(test, hit.val[0], -7);
	fire_one(test, "kunit_str", "%s");
	KUNIT_EXPECT_STREQ(test, hit.str[0], "marker");
	fire_one(test, "kunit_ptr", "%pK");
	KUNIT_EXPECT_PTR_EQ(test, hit.ptr[0], (const void *)kunit_buf);
	fire_one(test, "kunit_mixed", NULL);
	KUNIT_EXPECT_STREQ(test, hit.fmt, "a=%d b=%s c=%lu d=%p e=%c f=%lld g=%x");
	KUNIT_ASSERT_EQ(test, hit.nargs, 7);
	KUNIT_EXPECT_EQ(test, hit.val[0], -1);
	KUNIT_EXPECT_STREQ(test, hit.str[1], "two");
	KUNIT_EXPECT_EQ(test, hit.val[2], 3);
	KUNIT_EXPECT_PTR_EQ(test, hit.ptr[3], (const void *)kunit_buf);
	KUNIT_EXPECT_EQ(test, hit.val[4], 'e');
	KUNIT_EXPECT_EQ(test, hit.val[5], 6);
	KUNIT_EXPECT_EQ(test, hit.val[6], 7);
	/* The same probe through a format that matches by class. */
	fire_one(test, "kunit_mixed", "%i %s %zx %pS %d %ld %u");
	KUNIT_EXPECT_EQ(test, hit.val[5], 6);
}

static char order_log[8];

static void order_probe(void *data, const char *fmt, va_list *args)
{
	size_t n = strlen(order_log);

	if (n < sizeof(order_log) - 1)
		order_log[n] = *(char *)data;
}

static void markers_test_order(struct kunit *test)
{
	static char a = 'A', b = 'B', c = 'C';

	KUNIT_ASSERT_EQ(test, kset(test, "kunit_order", MARK_NOARGS, order_probe, &a), 0);
	KUNIT_ASSERT_EQ(test, kset(test, "kunit_order", NULL, order_probe, &b), 0);
	KUNIT_ASSERT_EQ(test, kset(test, "kunit_order", "no args", order_probe, &c), 0);
	memset(order_log, 0, sizeof(order_log));
	fire_order();
	KUNIT_EXPECT_STREQ(test, order_log, "ABC");

	KUNIT_EXPECT_EQ(test, marker_disable_probe("kunit_order", order_probe, &b), 0);
	armed_expect(test, "kunit_order", 1, 1);
	memset(order_log, 0, sizeof(order_log));
	fire_order();
	KUNIT_EXPECT_STREQ(test, order_log, "AC");

	KUNIT_EXPECT_EQ(test, marker_disable_probe("kunit_order", order_probe, &a), 0);
	KUNIT_EXPECT_EQ(test, marker_disable_probe("kunit_order", order_probe, &c), 0);
	armed_expect(test, "kunit_order", 1, 0);
	memset(order_log, 0, sizeof(order_log));
	fire_order();
	KUNIT_EXPECT_STREQ(test, order_log, "");
}

static void markers_test_pending(struct kunit *test)
{
	const char *name = "kunit_no_such_site";

	KUNIT_EXPECT_EQ(test, marker_count_sites(name, NULL), 0);
	KUNIT_ASSERT_EQ(test, kset(test, name, "%d", count_probe, &count_a), 0);
	KUNIT_EXPECT_EQ(test, marker_set_probe(name, "%d", count_probe, &count_a), -EEXIST);
	/* With no site, the probes of a name are checked against each other. */
	KUNIT_EXPECT_EQ(test, marker_set_probe(name, "%s", count_probe, &count_b), -EPERM);
	KUNIT_EXPECT_EQ(test, kset(test, name, "%u", count_probe, &count_b), 0);
	KUNIT_EXPECT_EQ(test, kset(test, name, NULL, record_probe, &hit), 0);
	KUNIT_EXPECT_EQ(test, marker_count_sites(name, NULL), 0);
	KUNIT_EXPECT_EQ(test, marker_disable_probe(name, count_probe, &count_b), 0);
	KUNIT_EXPECT_EQ(test, marker_disable_probe(name, count_probe, &count_a), 0);
	KUNIT_EXPECT_EQ(test, marker_disable_probe(name, record_probe, &hit), 0);
	KUNIT_EXPECT_EQ(test, marker_disable_probe(name, count_probe, &count_a), -ENOENT);
}

static void markers_test_duplicates(struct kunit *test)
{
	unsigned int sites;

	sites = marker_count_sites("kunit_inline", NULL);
	KUNIT_EXPECT_GE(test, sites, 2);
	KUNIT_ASSERT_EQ(test, kset(test, "kunit_inline", "%d", record_probe, &hit), 0);
	armed_expect(test, "kunit_inline", sites, sites);
	memset(&hit, 0, sizeof(hit));
	inline_caller_a();
	KUNIT_EXPECT_EQ(test, hit.val[0], 1);
	inline_caller_b();
	KUNIT_EXPECT_EQ(test, hit.val[0], 2);
	KUNIT_EXPECT_EQ(test, hit.nr, 2);
	KUNIT_EXPECT_EQ(test, marker_disable_probe("kunit_inline", record_probe, &hit), 0);
	armed_expect(test, "kunit_inline", sites, 0);
}

/*
 * An arch queue that holds one instruction (x86's never fills up): the
 * core must apply it when it refuses one, and queue that one again.
 */
static struct {
	struct kunit *test;
	unsigned int queued, accepted, refused, applies;
} tiny;

static bool tiny_queue(struct marker_patch *p)
{
	bool ret;

	if (tiny.queued) {
		tiny.refused++;
		return false;
	}
	kunit_deactivate_static_stub(tiny.test, arch_marker_transform_queue);
	ret = arch_marker_transform_queue(p);
	kunit_activate_static_stub(tiny.test, arch_marker_transform_queue, tiny_queue);
	tiny.queued += ret;
	tiny.accepted += ret;
	return ret;
}

static void tiny_apply(void)
{
	kunit_deactivate_static_stub(tiny.test, arch_marker_transform_apply);
	arch_marker_transform_apply();
	kunit_activate_static_stub(tiny.test, arch_marker_transform_apply, tiny_apply);
	tiny.queued = 0;
	tiny.applies++;
}

static void markers_test_queue_full(struct kunit *test)
{
	unsigned int sites = marker_count_sites("kunit_inline", NULL);

	KUNIT_ASSERT_GE(test, sites, 2);
	tiny = (typeof(tiny)){ .test = test };
	kunit_activate_static_stub(test, arch_marker_transform_queue, tiny_queue);
	kunit_activate_static_stub(test, arch_marker_transform_apply, tiny_apply);
	KUNIT_ASSERT_EQ(test, kset(test, "kunit_inline", "%d", record_probe, &hit), 0);
	/* A jump and a call per site, each in a batch of its own. */
	KUNIT_EXPECT_EQ(test, tiny.accepted, 2 * sites);
	KUNIT_EXPECT_EQ(test, tiny.applies, tiny.accepted);
	KUNIT_EXPECT_GE(test, tiny.refused, sites);
	armed_expect(test, "kunit_inline", sites, sites);
	KUNIT_EXPECT_EQ(test, marker_check_consistency(), 0);
	memset(&hit, 0, sizeof(hit));
	inline_caller_a();
	inline_caller_b();
	KUNIT_EXPECT_EQ(test, hit.nr, 2);

	tiny.accepted = 0;
	KUNIT_EXPECT_EQ(test, marker_disable_probe("kunit_inline", record_probe, &hit), 0);
	KUNIT_EXPECT_GE(test, tiny.accepted, sites);
	armed_expect(test, "kunit_inline", sites, 0);
	KUNIT_EXPECT_EQ(test, marker_check_consistency(), 0);
	kunit_deactivate_static_stub(test, arch_marker_transform_queue);
	kunit_deactivate_static_stub(test, arch_marker_transform_apply);
}

/*
 * What the core hands the arch, in order: CALLs marked unreached (which
 * x86 writes without its int3 protocol) only when their site was never
 * armed, and before everything else of the change.
 */
static struct {
	struct kunit *test;
	unsigned int unreached, reached, misplaced;
} rec;

static bool record_queue(struct marker_patch *p)
{
	bool ret;

	if (p->unreached) {
		rec.unreached++;
		rec.misplaced += rec.reached || p->what != MARKER_INSN_CALL;
	} else {
		rec.reached++;
	}
	kunit_deactivate_static_stub(rec.test, arch_marker_transform_queue);
	ret = arch_marker_transform_queue(p);
	kunit_activate_static_stub(rec.test, arch_marker_transform_queue, record_queue);
	return ret;
}

static void rec_change(struct kunit *test, bool arm, unsigned int unreached,
		       unsigned int reached)
{
	rec = (typeof(rec)){ .test = test };
	kunit_activate_static_stub(test, arch_marker_transform_queue, record_queue);
	if (arm)
		KUNIT_EXPECT_EQ(test, kset(test, "kunit_fresh", "%d", record_probe, &hit), 0);
	else
		KUNIT_EXPECT_EQ(test, marker_disable_probe("kunit_fresh", record_probe, &hit), 0);
	kunit_deactivate_static_stub(test, arch_marker_transform_queue);
	KUNIT_EXPECT_EQ_MSG(test, rec.unreached, unreached, "%s", arm ? "arm" : "disarm");
	KUNIT_EXPECT_EQ_MSG(test, rec.reached, reached, "%s", arm ? "arm" : "disarm");
	KUNIT_EXPECT_EQ(test, rec.misplaced, 0);
	KUNIT_EXPECT_EQ(test, marker_check_consistency(), 0);
}

static void markers_test_unreached(struct kunit *test)
{
	unsigned int sites = marker_count_sites("kunit_fresh", NULL);

	KUNIT_ASSERT_EQ(test, sites, 1);
	/* Never armed: its CALL first, unreached, then its jump. */
	rec_change(test, true, 1, 1);
	memset(&hit, 0, sizeof(hit));
	fire_fresh(5);
	KUNIT_EXPECT_EQ(test, hit.nr, 1);
	KUNIT_EXPECT_EQ(test, hit.val[0], 5);
	/* Disarmed: the jump and the CALL, both live text. */
	rec_change(test, false, 0, 2);
	/*
	 * Armed again: a task may still be past the old jump, so the CALL
	 * goes to the probe only after a grace period (a promotion), as
	 * live text.
	 */
	rec_change(test, true, 0, 2);
	fire_fresh(6);
	KUNIT_EXPECT_EQ(test, hit.nr, 2);
	KUNIT_EXPECT_EQ(test, hit.val[0], 6);
	KUNIT_EXPECT_EQ(test, marker_disable_probe("kunit_fresh", record_probe, &hit), 0);
}

static void markers_test_unrolled(struct kunit *test)
{
	unsigned int sites;

	if (!IS_ENABLED(CONFIG_CC_IS_GCC))
		kunit_skip(test, "only GCC unrolls a loop with an asm goto");
	/*
	 * #pragma GCC unroll 4 makes four copies of the site, or more: on
	 * arm64, GCC also copies the site of an iteration onto the end of
	 * the out-of-line code of the one before, which jumps back past it.
	 */
	sites = marker_count_sites("kunit_unroll", NULL);
	KUNIT_EXPECT_GE(test, sites, 4);
	KUNIT_ASSERT_EQ(test, kset(test, "kunit_unroll", "%d", record_probe, &hit), 0);
	armed_expect(test, "kunit_unroll", sites, sites);
	memset(&hit, 0, sizeof(hit));
	fire_unrolled();
	KUNIT_EXPECT_EQ(test, hit.nr, 4);
	KUNIT_EXPECT_EQ(test, hit.val[0], 3);
	KUNIT_EXPECT_EQ(test, marker_disable_probe("kunit_unroll", record_probe, &hit), 0);
}

static void markers_test_dormant(struct kunit *test)
{
	side_effects = 0;
	fire_side_effect();
	KUNIT_EXPECT_EQ(test, side_effects, 0);
	KUNIT_EXPECT_FALSE(test, fire_guard());
	KUNIT_EXPECT_EQ(test, side_effects, 0);

	KUNIT_ASSERT_EQ(test, kset(test, "kunit_side", "%d", record_probe, &hit), 0);
	fire_side_effect();
	KUNIT_EXPECT_EQ(test, side_effects, 1);
	KUNIT_EXPECT_EQ(test, marker_disable_probe("kunit_side", record_probe, &hit), 0);
	fire_side_effect();
	KUNIT_EXPECT_EQ(test, side_effects, 1);

	/* MARK_ENABLED() follows its name: armed with any probe. */
	KUNIT_ASSERT_EQ(test, kset(test, "kunit_guard", "%d", record_probe, &hit), 0);
	armed_expect(test, "kunit_guard", 2, 2);
	KUNIT_EXPECT_TRUE(test, fire_guard());
	KUNIT_EXPECT_EQ(test, side_effects, 2);
	KUNIT_EXPECT_EQ(test, marker_disable_probe("kunit_guard", record_probe, &hit), 0);
	KUNIT_EXPECT_FALSE(test, fire_guard());
	KUNIT_EXPECT_EQ(test, side_effects, 2);
}

/*
 * Removal racing with a site that fires all the time on another CPU: the
 * probe lingers a while, so a marker_disable_probe() that returned
 * before running probes finished would be caught with race_inflight != 0.
 */
static atomic_t race_calls, race_inflight, race_late;
static bool race_removed;

static void race_probe(void *data, const char *fmt, va_list *args)
{
	int i;

	atomic_inc(&race_inflight);
	atomic_inc(&race_calls);
	if (READ_ONCE(race_removed))
		atomic_inc(&race_late);
	/* Linger, to widen the window a missing grace period would open. */
	for (i = 0; i < 2000; i++)
		cpu_relax();
	atomic_dec(&race_inflight);
}

static int race_thread(void *unused)
{
	int i = 0;

	while (!kthread_should_stop()) {
		fire_race(i++);
		if (!(i & 15))
			cond_resched();
	}
	return 0;
}

static void race_thread_stop(void *t)
{
	kthread_stop(t);
}

static void markers_test_remove_race(struct kunit *test)
{
	unsigned long timeout;
	struct task_struct *t;
	int round, calls;

	atomic_set(&race_calls, 0);
	atomic_set(&race_inflight, 0);
	atomic_set(&race_late, 0);
	t = kthread_run(race_thread, NULL, "marker-race");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, race_thread_stop, t), 0);

	for (round = 0; round < 20; round++) {
		WRITE_ONCE(race_removed, false);
		KUNIT_ASSERT_EQ(test, kset(test, "kunit_race", "%d", race_probe, NULL), 0);
		/* Wait (bounded) for the probe to run on the other CPU. */
		calls = atomic_read(&race_calls);
		timeout = jiffies + 5 * HZ;
		while (atomic_read(&race_calls) == calls && time_before(jiffies, timeout))
			usleep_range(100, 200);
		KUNIT_EXPECT_NE_MSG(test, atomic_read(&race_calls), calls, "round %d", round);
		KUNIT_ASSERT_EQ(test, marker_disable_probe("kunit_race", race_probe, NULL), 0);
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&race_inflight), 0, "round %d", round);
		WRITE_ONCE(race_removed, true);
		usleep_range(500, 1000);
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&race_late), 0, "round %d", round);
	}
	armed_expect(test, "kunit_race", 1, 0);
}

/*
 * A task preempted in a MARK() site, between its jump and the
 * preempt_disable_notrace() before its call, while the name is disarmed
 * and armed again with another probe. preempted_site() is MARK() with a
 * sleep in that window (the only change: a test's widening of it). When
 * the task goes on, no probe runs after its detach returned, and the new
 * probe gets its own data, whether the site is dormant by then or armed
 * again (slow, then direct once a grace period passed: see mark.c).
 */
struct preempt_probe {
	atomic_t calls;		/* calls with this probe's data */
	atomic_t late;		/* calls after its detach returned */
	bool detached;
};

static struct preempt_probe preempt_a, preempt_b;
static DECLARE_COMPLETION(preempt_in);
static DECLARE_COMPLETION(preempt_go);

static void preempt_probe(void *data, const char *fmt, va_list *args)
{
	struct preempt_probe *p = data;

	if (p != &preempt_a && p != &preempt_b)
		return;		/* another probe's data: calls stays 0 */
	atomic_inc(&p->calls);
	if (READ_ONCE(p->detached))
		atomic_inc(&p->late);
}

static noinline void preempted_site(int v)
{
	static struct marker_desc __marker_desc_kunit_preempted = MARKER_DESC_INIT;

	if (unlikely(arch_marker_branch(&__marker_desc_kunit_preempted,
					"kunit_preempted", "%d",
					MARKER_KIND_MARK))) {
		complete(&preempt_in);
		wait_for_completion(&preempt_go);
		preempt_disable_notrace();
		__MARK_HIT(&__marker_desc_kunit_preempted, "%d", v);
		preempt_enable_notrace();
	}
}

static int preempted_thread(void *unused)
{
	preempted_site(1);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/* Let a thread that is still in the window go, then stop it. */
static void preempted_thread_stop(void *t)
{
	complete_all(&preempt_go);
	kthread_stop(t);
}

/*
 * preempted_round: arm "kunit_preempted" with preempt_a, start a task
 * that stops in the site's window, detach preempt_a, arm preempt_b if
 * @rearm, let the task go and wait until it is through.
 */
static void preempted_round(struct kunit *test, bool rearm)
{
	struct task_struct *t;

	memset(&preempt_a, 0, sizeof(preempt_a));
	memset(&preempt_b, 0, sizeof(preempt_b));
	reinit_completion(&preempt_in);
	reinit_completion(&preempt_go);
	KUNIT_ASSERT_EQ(test, kset(test, "kunit_preempted", "%d", preempt_probe,
				   &preempt_a), 0);
	t = kthread_run(preempted_thread, NULL, "marker-preempted");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, preempted_thread_stop, t), 0);
	KUNIT_ASSERT_TRUE_MSG(test, wait_for_completion_timeout(&preempt_in, 10 * HZ),
			      "the task never took the site's jump");
	KUNIT_ASSERT_EQ(test, marker_disable_probe("kunit_preempted", preempt_probe,
						   &preempt_a), 0);
	WRITE_ONCE(preempt_a.detached, true);
	if (rearm)
		KUNIT_ASSERT_EQ(test, kset(test, "kunit_preempted", "%d",
					   preempt_probe, &preempt_b), 0);
	complete(&preempt_go);
	kunit_release_action(test, preempted_thread_stop, t);

	KUNIT_EXPECT_EQ(test, atomic_read(&preempt_a.calls), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&preempt_a.late), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&preempt_b.calls), rearm ? 1 : 0);
	if (rearm) {
		/* Again, the site slow or direct: the new probe, its data. */
		complete_all(&preempt_go);
		preempted_site(2);
		KUNIT_EXPECT_EQ(test, atomic_read(&preempt_b.calls), 2);
		KUNIT_EXPECT_EQ(test, marker_disable_probe("kunit_preempted",
							   preempt_probe, &preempt_b), 0);
	}
	armed_expect(test, "kunit_preempted", 1, 0);
}

static void markers_test_preempted(struct kunit *test)
{
	preempted_round(test, false);
	preempted_round(test, true);
}

/* The probes of kunit_multi: what each saw. */
static struct hit multi_hit[3];

static void multi_expect(struct kunit *test, const bool *attached, int v)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(multi_hit); i++) {
		KUNIT_EXPECT_EQ_MSG(test, multi_hit[i].nr, attached[i], "probe %d", i);
		if (!attached[i])
			continue;
		KUNIT_EXPECT_EQ_MSG(test, multi_hit[i].val[0], v, "probe %d", i);
		KUNIT_EXPECT_STREQ_MSG(test, multi_hit[i].str[1], "multi", "probe %d", i);
	}
	memset(multi_hit, 0, sizeof(multi_hit));
}

/*
 * A name with several probes: its sites call __marker_iterate() with the
 * probes as their data (no lookup), each probe with its own va_list, as
 * soon as the change that gave them is done; with one probe left, the
 * probe directly.
 */
static void markers_test_multi(struct kunit *test)
{
	memset(multi_hit, 0, sizeof(multi_hit));
	KUNIT_ASSERT_EQ(test, kset(test, "kunit_multi", "%d %s", record_probe,
				   &multi_hit[0]), 0);
	KUNIT_EXPECT_PTR_EQ(test, mark_name_callee("kunit_multi"), (void *)record_probe);
	fire_multi(1, "multi");
	multi_expect(test, (const bool[]){ 1, 0, 0 }, 1);

	/* 1 -> 2: through the slow path, then the iterator. */
	KUNIT_ASSERT_EQ(test, kset(test, "kunit_multi", "%d %s", record_probe,
				   &multi_hit[1]), 0);
	KUNIT_EXPECT_PTR_EQ(test, mark_name_callee("kunit_multi"), (void *)__marker_iterate);
	KUNIT_EXPECT_EQ(test, marker_check_consistency(), 0);
	fire_multi(2, "multi");
	multi_expect(test, (const bool[]){ 1, 1, 0 }, 2);

	/* 2 -> 3: the same callee, the new probes its data. */
	KUNIT_ASSERT_EQ(test, kset(test, "kunit_multi", "%d %s", record_probe,
				   &multi_hit[2]), 0);
	KUNIT_EXPECT_PTR_EQ(test, mark_name_callee("kunit_multi"), (void *)__marker_iterate);
	fire_multi(3, "multi");
	multi_expect(test, (const bool[]){ 1, 1, 1 }, 3);

	/* 3 -> 2 -> 1: the one probe left, directly. */
	KUNIT_ASSERT_EQ(test, marker_disable_probe("kunit_multi", record_probe,
						   &multi_hit[0]), 0);
	fire_multi(4, "multi");
	multi_expect(test, (const bool[]){ 0, 1, 1 }, 4);
	KUNIT_ASSERT_EQ(test, marker_disable_probe("kunit_multi", record_probe,
						   &multi_hit[1]), 0);
	KUNIT_EXPECT_PTR_EQ(test, mark_name_callee("kunit_multi"), (void *)record_probe);
	KUNIT_EXPECT_EQ(test, marker_check_consistency(), 0);
	fire_multi(5, "multi");
	multi_expect(test, (const bool[]){ 0, 0, 1 }, 5);
}

static int markers_test_init(struct kunit *test)
{
	memset(&hit, 0, sizeof(hit));
	return 0;
}

static struct kunit_case markers_test_cases[] = {
	KUNIT_CASE(markers_test_parse),
	KUNIT_CASE(markers_test_conversions),
	KUNIT_CASE(markers_test_errors),
	KUNIT_CASE(markers_test_api_checks),
	KUNIT_CASE(markers_test_init_gone),
	KUNIT_CASE(markers_test_exit_gone),
	KUNIT_CASE(markers_test_unprintable_site),
	KUNIT_CASE(markers_test_enomem),
	KUNIT_CASE(markers_test_classes),
	KUNIT_CASE(markers_test_order),
	KUNIT_CASE(markers_test_pending),
	KUNIT_CASE(markers_test_duplicates),
	KUNIT_CASE(markers_test_queue_full),
	KUNIT_CASE(markers_test_unreached),
	KUNIT_CASE(markers_test_unrolled),
	KUNIT_CASE(markers_test_dormant),
	KUNIT_CASE(markers_test_remove_race),
	KUNIT_CASE(markers_test_preempted),
	KUNIT_CASE(markers_test_multi),
	{}
};

static struct kunit_suite markers_test_suite = {
	.name = "markers",
	.init = markers_test_init,
	.test_cases = markers_test_cases,
};

kunit_test_suite(markers_test_suite);

MODULE_DESCRIPTION("KUnit tests for kernel markers");
MODULE_LICENSE("GPL");
