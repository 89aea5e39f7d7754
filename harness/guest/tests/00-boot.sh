# SPDX-License-Identifier: GPL-2.0
# The guest has what every other test relies on: debugfs, tracefs, kprobes,
# a writable trace buffer, and modules that load and unload.
. /harness/lib.sh

grep -q ' /sys/kernel/debug debugfs' /proc/mounts || fail "debugfs not mounted"
grep -q ' /sys/kernel/tracing tracefs' /proc/mounts || fail "tracefs not mounted"
[ -r /sys/kernel/debug/kprobes/list ] || fail "no kprobes debugfs list"
echo "boot-test-$$" > /sys/kernel/tracing/trace_marker || fail "trace_marker write"
grep -q "boot-test-$$" /sys/kernel/tracing/trace || fail "trace_marker line not in trace"
echo > /sys/kernel/tracing/trace
# Every CPU the machine has came up (QEMU describes all but the first in
# ACPI's MADT only).
expect_eq "online cpus" "$(cat /sys/devices/system/cpu/online)" "$(cat /sys/devices/system/cpu/present)"
[ "$(cat /sys/devices/system/cpu/online)" != 0 ] || fail "one CPU online"
# make check boots the PREEMPT_DYNAMIC kernel fully preemptible.
dmesg | grep -q 'Dynamic Preempt: full$' || fail "not preempt=full: $(dmesg | grep 'Dynamic Preempt')"
modprobe kunit-example-test || fail "modprobe kunit-example-test"
grep -q '^kunit_example_test ' /proc/modules || fail "module not listed"
rmmod kunit_example_test || fail "rmmod kunit_example_test"
grep -q '^kunit_example_test ' /proc/modules && fail "module still listed"
exit 0
