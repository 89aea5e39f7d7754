// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "markers_control": the parser of the markers control file.
 */

#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../control.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static int control_parse(struct kunit *test, const char *text,
			 struct marker_cmd *cmds, unsigned int max)
{
	char *buf = kunit_kstrdup(test, text, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	return marker_control_parse(buf, cmds, max);
}

static int boot_parse(struct kunit *test, const char *text, struct marker_cmd *cmd)
{
	char *buf = kunit_kstrdup(test, text, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	return marker_boot_parse(buf, cmd);
}

static void markers_test_control_parse(struct kunit *test)
{
	static const char * const bad[] = {
		"enabl name x", "enable", "enable name", "enable name x to",
		"enable name x to file", "enable name x foo bar", "enable name [ab",
		"enable name a]b", "enable name a b", "enable name x name y",
		"enable name x to trace to printk", "enable name x module bad/name",
		"enable name x provider a:b", "enable name a/b", "enable name \xc3\x28",
		"disable module m", "enable name x module", "ENABLE name x",
	};
	struct marker_cmd cmds[4];
	char *longglob;
	unsigned int i;
	int n;

	n = control_parse(test, "enable name foo", cmds, 4);
	KUNIT_ASSERT_EQ(test, n, 1);
	KUNIT_EXPECT_TRUE(test, cmds[0].enable);
	KUNIT_EXPECT_STREQ(test, cmds[0].name, "foo");
	KUNIT_EXPECT_EQ(test, cmds[0].sink, MARKER_SINK_TRACE);
	KUNIT_EXPECT_NULL(test, cmds[0].module);

	n = control_parse(test, "  disable  name foo*\t", cmds, 4);
	KUNIT_ASSERT_EQ(test, n, 1);
	KUNIT_EXPECT_FALSE(test, cmds[0].enable);
	KUNIT_EXPECT_TRUE(test, cmds[0].any_sink);

	n = control_parse(test, "enable name a*; disable name b to printk\n"
			  "enable name p:n* module sdt_example provider p to printk # c\n"
			  "# a comment; enable name nothing\n; ;", cmds, 4);
	KUNIT_ASSERT_EQ(test, n, 3);
	KUNIT_EXPECT_STREQ(test, cmds[0].name, "a*");
	KUNIT_EXPECT_FALSE(test, cmds[1].enable);
	KUNIT_EXPECT_FALSE(test, cmds[1].any_sink);
	KUNIT_EXPECT_EQ(test, cmds[1].sink, MARKER_SINK_PRINTK);
	KUNIT_EXPECT_STREQ(test, cmds[2].name, "p:n*");
	KUNIT_EXPECT_STREQ(test, cmds[2].module, "sdt_example");
	KUNIT_EXPECT_STREQ(test, cmds[2].provider, "p");
	KUNIT_EXPECT_EQ(test, cmds[2].sink, MARKER_SINK_PRINTK);

	KUNIT_EXPECT_EQ(test, control_parse(test, " ;\n\n; ", cmds, 4), 0);
	KUNIT_EXPECT_EQ(test, control_parse(test, "enable name [a-c]?x*", cmds, 4), 1);

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, control_parse(test, bad[i], cmds, 4),
				    -EINVAL, "\"%s\"", bad[i]);
	/* One bad command spoils the write. */
	KUNIT_EXPECT_EQ(test, control_parse(test, "enable name a; enable nam b", cmds, 4),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, control_parse(test, "enable name a;enable name b;"
					    "enable name c;enable name d;enable name e",
					    cmds, 4), -E2BIG);

	longglob = kunit_kzalloc(test, MARKER_GLOB_MAX + 16, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, longglob);
	memcpy(longglob, "enable name ", 12);
	memset(longglob + 12, 'x', MARKER_GLOB_MAX);
	KUNIT_EXPECT_EQ(test, control_parse(test, longglob, cmds, 4), 1);
	longglob[12 + MARKER_GLOB_MAX] = 'y';
	KUNIT_EXPECT_EQ(test, control_parse(test, longglob, cmds, 4), -EINVAL);
}

/* "file" and "line": a place in the source, as dynamic debug asks for one. */
static void markers_test_control_parse_place(struct kunit *test)
{
	static const char * const bad[] = {
		"enable name x line 0", "enable name x line 5-4", "enable name x line -4",
		"enable name x line 4-", "enable name x line a", "enable name x line 1-2-3",
		"enable name x line 4294967296", "enable name x line 1 line 2",
		"enable name x file a file b", "enable name x file a\\b",
		"enable name x file [a", "enable name x file a:b", "enable name x file",
	};
	struct marker_cmd cmds[2];
	unsigned int i;

	KUNIT_ASSERT_EQ(test, control_parse(test, "enable name x", cmds, 2), 1);
	KUNIT_EXPECT_NULL(test, cmds[0].file);
	KUNIT_EXPECT_EQ(test, cmds[0].first, 0);

	KUNIT_ASSERT_EQ(test, control_parse(test,
					    "enable name *.* file samples/markers/*.c line 12",
					    cmds, 2), 1);
	KUNIT_EXPECT_STREQ(test, cmds[0].file, "samples/markers/*.c");
	KUNIT_EXPECT_EQ(test, cmds[0].first, 12);
	KUNIT_EXPECT_EQ(test, cmds[0].last, 12);

	KUNIT_ASSERT_EQ(test, control_parse(test, "disable name * line 3-40 file marker-example.c",
					    cmds, 2), 1);
	KUNIT_EXPECT_STREQ(test, cmds[0].file, "marker-example.c");
	KUNIT_EXPECT_EQ(test, cmds[0].first, 3);
	KUNIT_EXPECT_EQ(test, cmds[0].last, 40);

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, control_parse(test, bad[i], cmds, 2),
				    -EINVAL, "\"%s\"", bad[i]);

	/* An item of markers.enable= asks for a place the same way. */
	KUNIT_ASSERT_EQ(test, boot_parse(test, "name *.* file marker-example.c line 30-40",
					 &cmds[0]), 0);
	KUNIT_EXPECT_TRUE(test, cmds[0].enable);
	KUNIT_EXPECT_STREQ(test, cmds[0].name, "*.*");
	KUNIT_EXPECT_STREQ(test, cmds[0].file, "marker-example.c");
	KUNIT_EXPECT_EQ(test, cmds[0].first, 30);
	KUNIT_EXPECT_EQ(test, cmds[0].last, 40);
	KUNIT_EXPECT_EQ(test, boot_parse(test, "name x line 0", &cmds[0]), -EINVAL);
	KUNIT_EXPECT_EQ(test, boot_parse(test, "file a.c", &cmds[0]), -EINVAL);
}

/* An item of markers.enable=: a glob, or an enable command's words. */
static void markers_test_boot_parse(struct kunit *test)
{
	static const char * const bad[] = {
		"", " ", "[bad", "a/b", "enable name x", "name x to", "module m",
		"name x module", "name x module bad/name", "name x foo bar",
	};
	struct marker_cmd cmd;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, boot_parse(test, "subsys_*", &cmd), 0);
	KUNIT_EXPECT_TRUE(test, cmd.enable);
	KUNIT_EXPECT_STREQ(test, cmd.name, "subsys_*");
	KUNIT_EXPECT_EQ(test, cmd.sink, MARKER_SINK_TRACE);
	KUNIT_EXPECT_NULL(test, cmd.module);
	/* A single word is a glob, even a keyword's. */
	KUNIT_ASSERT_EQ(test, boot_parse(test, "name", &cmd), 0);
	KUNIT_EXPECT_STREQ(test, cmd.name, "name");

	KUNIT_ASSERT_EQ(test, boot_parse(test, " name p:* module sdt_example to printk ",
					 &cmd), 0);
	KUNIT_EXPECT_STREQ(test, cmd.module, "sdt_example");
	KUNIT_EXPECT_EQ(test, cmd.sink, MARKER_SINK_PRINTK);

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, boot_parse(test, bad[i], &cmd), -EINVAL,
				    "\"%s\"", bad[i]);
}

static struct kunit_case markers_control_test_cases[] = {
	KUNIT_CASE(markers_test_control_parse),
	KUNIT_CASE(markers_test_control_parse_place),
	KUNIT_CASE(markers_test_boot_parse),
	{}
};

static struct kunit_suite markers_control_test_suite = {
	.name = "markers_control",
	.test_cases = markers_control_test_cases,
};

kunit_test_suite(markers_control_test_suite);

MODULE_DESCRIPTION("KUnit tests for the kernel markers control file");
MODULE_LICENSE("GPL");
