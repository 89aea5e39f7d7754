// SPDX-License-Identifier: GPL-2.0
/*
 * markers_many: 5000 MARK_ENABLED() guards of distinct names, many_m1000
 * ... many_m5999, for a test of the control file against many names.
 * Writing anything to
 * /sys/kernel/debug/markers_many/fire logs how many of them are armed.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/marker.h>
#include <linux/module.h>

static struct dentry *many_dir;

/* One guard per name, summed: armed ones count 1. */
#define M1(n)		MARK_ENABLED(many_m##n)
#define M10(n)		(M1(n##0) + M1(n##1) + M1(n##2) + M1(n##3) + M1(n##4) + \
			 M1(n##5) + M1(n##6) + M1(n##7) + M1(n##8) + M1(n##9))
#define M100(n)		(M10(n##0) + M10(n##1) + M10(n##2) + M10(n##3) + \
			 M10(n##4) + M10(n##5) + M10(n##6) + M10(n##7) + \
			 M10(n##8) + M10(n##9))

/* A hundred guards a function keeps each function's frame small. */
#define MANY_FN(n)	static noinline int many_##n(void) { return M100(n); }
MANY_FN(10) MANY_FN(11) MANY_FN(12) MANY_FN(13) MANY_FN(14)
MANY_FN(15) MANY_FN(16) MANY_FN(17) MANY_FN(18) MANY_FN(19)
MANY_FN(20) MANY_FN(21) MANY_FN(22) MANY_FN(23) MANY_FN(24)
MANY_FN(25) MANY_FN(26) MANY_FN(27) MANY_FN(28) MANY_FN(29)
MANY_FN(30) MANY_FN(31) MANY_FN(32) MANY_FN(33) MANY_FN(34)
MANY_FN(35) MANY_FN(36) MANY_FN(37) MANY_FN(38) MANY_FN(39)
MANY_FN(40) MANY_FN(41) MANY_FN(42) MANY_FN(43) MANY_FN(44)
MANY_FN(45) MANY_FN(46) MANY_FN(47) MANY_FN(48) MANY_FN(49)
MANY_FN(50) MANY_FN(51) MANY_FN(52) MANY_FN(53) MANY_FN(54)
MANY_FN(55) MANY_FN(56) MANY_FN(57) MANY_FN(58) MANY_FN(59)

static int many_armed(void)
{
	int (* const fns[])(void) = {
		many_10, many_11, many_12, many_13, many_14, many_15, many_16,
		many_17, many_18, many_19, many_20, many_21, many_22, many_23,
		many_24, many_25, many_26, many_27, many_28, many_29, many_30,
		many_31, many_32, many_33, many_34, many_35, many_36, many_37,
		many_38, many_39, many_40, many_41, many_42, many_43, many_44,
		many_45, many_46, many_47, many_48, many_49, many_50, many_51,
		many_52, many_53, many_54, many_55, many_56, many_57, many_58,
		many_59,
	};
	unsigned int i;
	int n = 0;

	for (i = 0; i < ARRAY_SIZE(fns); i++)
		n += fns[i]();
	return n;
}

static ssize_t many_fire(struct file *file, const char __user *buf,
			 size_t len, loff_t *ppos)
{
	pr_info("%d of the many guards armed\n", many_armed());
	return len;
}

static const struct file_operations many_fire_fops = {
	.write = many_fire,
};

static int __init many_init(void)
{
	many_dir = debugfs_create_dir("markers_many", NULL);
	debugfs_create_file("fire", 0200, many_dir, NULL, &many_fire_fops);
	return 0;
}

static void __exit many_exit(void)
{
	debugfs_remove(many_dir);
}

module_init(many_init);
module_exit(many_exit);
MODULE_DESCRIPTION("Kernel markers: 5000 names for the guest tests");
MODULE_LICENSE("GPL");
