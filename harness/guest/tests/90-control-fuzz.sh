# SPDX-License-Identifier: GPL-2.0
# Bad input: FUZZ_COUNT random and mutated writes to the control file
# (harness/tools/control-fuzz.c, built static on the host): 400 in make
# check (each compares the whole listing, with its dynamic debug sites,
# about 0.1 s on the debugging kernel: 1,000 took 118 s), 10,000 in make
# stress.
. /harness/lib.sh

[ -x /extra/control-fuzz ] || fail "no /extra/control-fuzz"
modprobe marker-example || fail "modprobe marker-example"
modprobe sdt-example || fail "modprobe sdt-example"
/extra/control-fuzz ${FUZZ_COUNT:-400} 1 || fail "control-fuzz"
echo 'disable name *' > /sys/kernel/debug/markers/control || fail "cleanup"
grep -q ' armed ' /sys/kernel/debug/markers/control && fail "still armed after cleanup"
rmmod sdt_example marker_example
exit 0
