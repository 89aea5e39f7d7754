// SPDX-License-Identifier: GPL-2.0
/*
 * Sites in the __exit code of built-in code, for the markers KUnit suite.
 *
 * Built in, markers_exit_sites() never runs: its text is in .exit.text,
 * between __init_begin and __init_end, and is freed with the init memory
 * after boot. The registry must forget its sites then, as it forgets
 * those of __init code: arming them later would write freed memory.
 */

#include <linux/init.h>
#include <linux/marker.h>
#include <linux/sdt.h>

static int markers_exit_value;

static void __exit markers_exit_sites(void)
{
	MARK(markers_test_exit, "value %d", markers_exit_value);
	SDT_PROBE(markers_test, exit, markers_exit_value);
}

__exitcall(markers_exit_sites);
