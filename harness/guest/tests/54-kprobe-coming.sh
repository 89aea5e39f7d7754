# SPDX-License-Identifier: GPL-2.0
# A kprobe put on the CALL of a MARK() site of a module as it comes, from
# a module notifier that runs before the registry's (markers_kprobe_coming),
# is refused: the registry has not indexed the module yet, but arming the
# site would write its CALL over the kprobe's int3.
. /harness/lib.sh

M=/lib/modules/$(uname -r)/extra
K=/sys/kernel/debug/kprobes/list
nk=$(wc -l < $K)
insmod $M/markers_kprobe_coming.ko || fail "insmod markers_kprobe_coming"
step_mark "insmod markers_fixture"
insmod $M/markers_fixture.ko || fail "insmod markers_fixture"
step_dmesg | grep -q 'markers_kprobe_coming: kprobe on the CALL of [a-z_]*+0x[0-9a-f]*/0x[0-9a-f]* \[markers_fixture\] as markers_fixture comes: -16$' ||
	fail "$(step_dmesg | grep 'markers_kprobe_coming: ' || echo 'no kprobe tried')"
expect_eq "kprobes" "$(wc -l < $K)" "$nk"
rmmod markers_fixture markers_kprobe_coming || fail "rmmod"
exit 0
