# SPDX-License-Identifier: GPL-2.0
# Sites in init text (vmlinux's __init code, a module's init function) work
# while the init code runs, and are "gone" once it is freed (with those of
# vmlinux's __exit code, which never runs): never patched
# or kprobed, never counted as armed, and never printed with a raw address.
. /harness/lib.sh

L=/sys/kernel/debug/markers/list
K=/sys/kernel/debug/kprobes/list
M=/lib/modules/$(uname -r)/extra

# vmlinux: markers_init and markers:init, in marker_init() (__init).
grep -q '^markers_init mark "sites %td error %d" marker_init+0x[0-9a-f]*/0x[0-9a-f]* gone 0 - ' $L ||
	fail "$(grep '^markers_init ' $L)"
grep -q '^markers:init sdt "[^"]*" marker_init+0x[0-9a-f]*/0x[0-9a-f]* gone 0 0 ' $L ||
	fail "$(grep '^markers:init ' $L)"
nk=$(wc -l < $K)
probe_example name=markers_init format= || fail "probe on markers_init"
sdt_probe_example provider=markers name=init || fail "SDT probe on markers:init"
grep -q '^markers_init mark .* gone 1 ' $L || fail "$(grep '^markers_init ' $L)"
grep -q '^markers:init sdt .* gone 1 ' $L || fail "$(grep '^markers:init ' $L)"
expect_eq "kprobes" "$(wc -l < $K)" "$nk"
rmmod probe_example sdt_probe_example

# vmlinux's __exit code (tests/markers_exit.c, built in) never runs and
# is freed with the init memory: its sites are gone from then on, and
# arming them writes nothing (it would write freed memory).
grep -q '^markers_test_exit mark "value %d" markers_exit_sites+0x[0-9a-f]*/0x[0-9a-f]* gone 0 - ' $L ||
	fail "$(grep '^markers_test_exit ' $L)"
grep -q '^markers_test:exit sdt "[^"]*" markers_exit_sites+0x[0-9a-f]*/0x[0-9a-f]* gone 0 0 ' $L ||
	fail "$(grep '^markers_test:exit ' $L)"
step_mark "arm the sites of __exit code"
probe_example name=markers_test_exit format= || fail "probe on markers_test_exit"
sdt_probe_example provider=markers_test name=exit || fail "SDT probe on markers_test:exit"
grep -q '^markers_test_exit mark .* gone 1 ' $L || fail "$(grep '^markers_test_exit ' $L)"
grep -q '^markers_test:exit sdt .* gone 1 ' $L || fail "$(grep '^markers_test:exit ' $L)"
expect_eq "kprobes" "$(wc -l < $K)" "$nk"
expect_eq "messages of arming gone sites" "$(step_dmesg | grep -c 'markers: ')" 0
rmmod probe_example sdt_probe_example

# A module: its init sites fire during init, with pending probes...
probe_example name=fixture_init 'format="value %d"' || fail "pending probe on fixture_init"
sdt_probe_example provider=fixture name=init nargs=1 || fail "pending SDT probe on fixture:init"
sdt_probe_example provider=fixture name=init_bad 2> /dev/null && fail "a second sdt_probe_example loaded"
step_mark "insmod markers_fixture"
insmod $M/markers_fixture.ko value=7 || fail "insmod markers_fixture"
step_dmesg | grep -q 'probe_example: fixture_init: value 7$' || fail "fixture_init did not fire in init"
step_dmesg | grep -q 'sdt_probe_example: fixture:init arg0=7$' || fail "fixture:init did not fire in init"
# ... and are gone once the module is live.
for s in 'fixture_init mark' 'fixture:init sdt' 'fixture:init_bad sdt'; do
	grep "^$s " $L | grep -q ' gone ' || fail "$s: $(grep "^$s " $L)"
done
expect_eq "kprobes" "$(wc -l < $K)" "$nk"
rmmod sdt_probe_example
# Arming a gone site whose spec would not decode: nothing happens at all.
sdt_probe_example provider=fixture name=init_bad || fail "probe on fixture:init_bad"
grep '^fixture:init_bad ' $L | grep -q ' gone 1 ' || fail "$(grep '^fixture:init_bad ' $L)"
dmesg | grep -q 'fixture:init_bad.*cannot decode' && fail "a gone site was decoded"
expect_eq "kprobes" "$(wc -l < $K)" "$nk"
rmmod sdt_probe_example probe_example markers_fixture

# Our messages never carry a raw kernel address.
if dmesg | grep 'markers: ' | grep -E '0x[0-9a-f]{8,}'; then
	fail "a raw kernel address in the log"
fi
exit 0
