// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "markers_dyndbg": dynamic debug sites as marker sites
 * (kernel/markers/dyndbg.c), on this module's own pr_debug()s. Its
 * pr_fmt() has an argument of its own, which probes must not see.
 */
#define pr_fmt(fmt) "%s: " fmt, __func__

#include <kunit/test.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/printk.h>

#include "../internal.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define KEY(fn)		KBUILD_MODNAME "." #fn

struct dd_hit {
	int nr;
	int a;
	char s[16];
	unsigned long long x;
	const char *fmt;
};

static void dd_probe(void *data, const char *fmt, va_list *args)
{
	struct dd_hit *h = data;

	h->nr++;
	h->fmt = fmt;
	h->a = va_arg(*args, int);
	strscpy(h->s, va_arg(*args, const char *), sizeof(h->s));
	h->x = va_arg(*args, unsigned long long);
}

static void dd_int_probe(void *data, const char *fmt, va_list *args)
{
	struct dd_hit *h = data;

	h->nr++;
	h->fmt = fmt;
	h->a = va_arg(*args, int);
}

static noinline void dd_site(int a, const char *s, unsigned long long x)
{
	pr_debug("a %d s %s x %llx\n", a, s, x);
}

static noinline void dd_sites(int a)
{
	pr_debug("first %d\n", a);
	pr_debug("second %d\n", a);
}

static void dd_undo(void *p)
{
	marker_disable_probe(KEY(dd_site), dd_probe, p);
}

/*
 * A key is indexed when a probe asks for it; the probe gets the site's
 * own format and its arguments, past those of pr_fmt()'s prefix; the
 * site is dormant again once the probe goes.
 */
static void markers_dyndbg_test_probe(struct kunit *test)
{
	struct dd_hit h = {};
	unsigned int armed;

	dd_site(1, "none", 1);
	KUNIT_ASSERT_EQ(test, marker_set_probe(KEY(dd_site), "%d %s %llx", dd_probe, &h), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, dd_undo, &h), 0);
	KUNIT_EXPECT_EQ(test, marker_count_sites(KEY(dd_site), &armed), 1);
	KUNIT_EXPECT_EQ(test, armed, 1);
	dd_site(-5, "dyndbg", 0x123456789ULL);
	KUNIT_ASSERT_EQ(test, h.nr, 1);
	KUNIT_EXPECT_EQ(test, h.a, -5);
	KUNIT_EXPECT_STREQ(test, h.s, "dyndbg");
	KUNIT_EXPECT_EQ(test, h.x, 0x123456789ULL);
	KUNIT_EXPECT_STREQ(test, h.fmt, "a %d s %s x %llx\n");

	KUNIT_EXPECT_EQ(test, marker_disable_probe(KEY(dd_site), dd_probe, &h), 0);
	KUNIT_EXPECT_EQ(test, marker_count_sites(KEY(dd_site), &armed), 1);
	KUNIT_EXPECT_EQ(test, armed, 0);
	dd_site(2, "off", 2);
	KUNIT_EXPECT_EQ(test, h.nr, 1);
}

/* The second site of a function is FUNCTION.2, and only that site. */
static void markers_dyndbg_test_ordinal(struct kunit *test)
{
	struct dd_hit h1 = {}, h2 = {};

	KUNIT_ASSERT_EQ(test, marker_set_probe(KEY(dd_sites), "%d", dd_int_probe, &h1), 0);
	KUNIT_ASSERT_EQ(test, marker_set_probe(KEY(dd_sites) ".2", "%d", dd_int_probe, &h2), 0);
	dd_sites(7);
	KUNIT_EXPECT_EQ(test, h1.nr, 1);
	KUNIT_EXPECT_EQ(test, h2.nr, 1);
	KUNIT_EXPECT_EQ(test, h2.a, 7);
	KUNIT_EXPECT_STREQ(test, h1.fmt, "first %d\n");
	KUNIT_EXPECT_STREQ(test, h2.fmt, "second %d\n");
	KUNIT_EXPECT_EQ(test, marker_disable_probe(KEY(dd_sites), dd_int_probe, &h1), 0);
	KUNIT_EXPECT_EQ(test, marker_disable_probe(KEY(dd_sites) ".2", dd_int_probe, &h2), 0);
	KUNIT_EXPECT_EQ(test, marker_count_sites(KEY(dd_sites) ".3", NULL), 0);
}

/* Bad keys and formats are refused, and change nothing. */
static void markers_dyndbg_test_errors(struct kunit *test)
{
	struct dd_hit h = {};
	unsigned int armed;

	KUNIT_EXPECT_EQ(test, marker_set_probe(KEY(dd_site), "%s", dd_probe, &h), -EPERM);
	KUNIT_EXPECT_EQ(test, marker_count_sites(KEY(dd_site), &armed), 1);
	KUNIT_EXPECT_EQ(test, armed, 0);
	KUNIT_EXPECT_EQ(test, marker_set_probe("a..b", NULL, dd_probe, &h), -EINVAL);
	KUNIT_EXPECT_EQ(test, marker_set_probe("a.b.c.d", NULL, dd_probe, &h), -EINVAL);
	KUNIT_EXPECT_EQ(test, marker_set_probe(".b", NULL, dd_probe, &h), -EINVAL);
	KUNIT_EXPECT_EQ(test, marker_set_probe("a.b-c", NULL, dd_probe, &h), -EINVAL);
	dd_site(3, "bad", 3);
	KUNIT_EXPECT_EQ(test, h.nr, 0);
}

static struct kunit_case markers_dyndbg_cases[] = {
	KUNIT_CASE(markers_dyndbg_test_probe),
	KUNIT_CASE(markers_dyndbg_test_ordinal),
	KUNIT_CASE(markers_dyndbg_test_errors),
	{}
};

static struct kunit_suite markers_dyndbg_suite = {
	.name = "markers_dyndbg",
	.test_cases = markers_dyndbg_cases,
};

kunit_test_suite(markers_dyndbg_suite);

MODULE_DESCRIPTION("KUnit tests of dynamic debug sites as kernel markers");
MODULE_LICENSE("GPL");
