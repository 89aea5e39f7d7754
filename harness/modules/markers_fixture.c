// SPDX-License-Identifier: GPL-2.0
/*
 * markers_fixture: sites for the integration tests of kernel markers,
 * which drive it from user space; not a sample.
 *
 * - fixture_init, a MARK(), and fixture:init, an SDT site, fire in the
 *   module's init function with its "value" parameter; fixture:init_bad,
 *   also there, has an operand spec that does not decode. All three are
 *   gone once the module is live and its init text freed.
 * - fixture_intmax: a MARK() whose format the kernel's vsnprintf() cannot
 *   print (%j); no probe may attach to it, and it has no trace event.
 * - fixture_clash: two MARK() sites of one name with different formats:
 *   no trace event either.
 * - fixture_fields: a format whose trace event fields are named from it,
 *   some argN (a repeated name, none, a '*' width, common_*).
 * - fixture_strings_bad: %s of an ERR_PTR() and a NULL, which
 *   vsnprintf() prints as "(efault)" and "(null)", then "end";
 *   fixture_strings_long: twelve strings longer than a marker event
 *   takes of one, more than it takes of all.
 * - fixture_layout: "x %d y %d z %d"; markers_churn has a site of that
 *   name with another format, so that its event changes layout.
 *
 * - fixture_coexist and fixture:coexist: a MARK() and an SDT site in one
 *   function with a static key of its own, fixture_coexist_key, so that
 *   three users of jump labels and text patching share that function's
 *   text. Writing N to .../coexist runs the function N times; reading
 *   it gives the runs and the runs that took the key's branch. Writing 1
 *   or 0 to .../coexist_key enables or disables the key.
 *
 * Writing anything to /sys/kernel/debug/markers_fixture/fire fires the
 * live sites.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/jump_label.h>
#include <linux/kstrtox.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/sdt.h>
#include <linux/string.h>

static int value = 42;
module_param(value, int, 0444);
MODULE_PARM_DESC(value, "the argument of the init sites");

static struct dentry *fixture_dir;

static noinline void fixture_intmax(long v)
{
	MARK(fixture_intmax, "%jd", v);
}

static noinline void fixture_clash(int v)
{
	MARK(fixture_clash, "value %d", v);
	MARK(fixture_clash, "name %s", "clash");
}

static noinline void fixture_fields(int v)
{
	MARK(fixture_fields, "x %d x %d y=%u %*d common_pid %d: %s", v, v + 1,
	     v + 2, 4, v + 3, v + 4, "s");
}

static char fixture_long[300];

static noinline void fixture_strings(void)
{
	const char *l = fixture_long;

	memset(fixture_long, 'x', sizeof(fixture_long) - 1);
	MARK(fixture_strings_bad, "%s %s %s",
	     (const char *)ERR_PTR(-EINVAL), (const char *)NULL, "end");
	MARK(fixture_strings_long, "%s %s %s %s %s %s %s %s %s %s %s %s",
	     l, l, l, l, l, l, l, l, l, l, l, "end");
}

static ssize_t fixture_fire(struct file *file, const char __user *buf,
			    size_t len, loff_t *ppos)
{
	fixture_intmax(-1);
	fixture_clash(1);
	fixture_fields(1);
	fixture_strings();
	MARK(fixture_layout, "x %d y %d z %d", 1, 2, 3);
	return len;
}

static const struct file_operations fixture_fire_fops = {
	.write = fixture_fire,
};

static DEFINE_STATIC_KEY_FALSE(fixture_coexist_key);
static unsigned long fixture_coexist_runs, fixture_coexist_keyed;

static noinline void fixture_coexist(unsigned long i)
{
	MARK(fixture_coexist, "i %lu", i);
	if (static_branch_unlikely(&fixture_coexist_key))
		fixture_coexist_keyed++;
	SDT_PROBE(fixture, coexist, i);
	fixture_coexist_runs++;
}

static ssize_t fixture_coexist_write(struct file *file, const char __user *buf,
				     size_t len, loff_t *ppos)
{
	unsigned long n, i;
	int ret;

	ret = kstrtoul_from_user(buf, len, 0, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		fixture_coexist(i);
	return len;
}

static ssize_t fixture_coexist_read(struct file *file, char __user *buf,
				    size_t len, loff_t *ppos)
{
	char s[64];
	int n;

	n = scnprintf(s, sizeof(s), "runs %lu keyed %lu\n",
		      fixture_coexist_runs, fixture_coexist_keyed);
	return simple_read_from_buffer(buf, len, ppos, s, n);
}

static const struct file_operations fixture_coexist_fops = {
	.read = fixture_coexist_read,
	.write = fixture_coexist_write,
};

static ssize_t fixture_coexist_key_write(struct file *file,
					 const char __user *buf, size_t len,
					 loff_t *ppos)
{
	bool on;
	int ret;

	ret = kstrtobool_from_user(buf, len, &on);
	if (ret)
		return ret;
	if (on)
		static_branch_enable(&fixture_coexist_key);
	else
		static_branch_disable(&fixture_coexist_key);
	return len;
}

static const struct file_operations fixture_coexist_key_fops = {
	.write = fixture_coexist_key_write,
};

static int __init fixture_init(void)
{
	MARK(fixture_init, "value %d", value);
	SDT_PROBE(fixture, init, value);
	/* "3@": no such size. */
	asm volatile(SDT_PROBE_ASM(fixture, init_bad, "3@%eax"));
	fixture_dir = debugfs_create_dir("markers_fixture", NULL);
	debugfs_create_file("fire", 0200, fixture_dir, NULL, &fixture_fire_fops);
	debugfs_create_file("coexist", 0600, fixture_dir, NULL,
			    &fixture_coexist_fops);
	debugfs_create_file("coexist_key", 0200, fixture_dir, NULL,
			    &fixture_coexist_key_fops);
	return 0;
}

static void __exit fixture_exit(void)
{
	debugfs_remove(fixture_dir);
}

module_init(fixture_init);
module_exit(fixture_exit);
MODULE_DESCRIPTION("Kernel markers: sites for the guest tests");
MODULE_LICENSE("GPL");
