# SPDX-License-Identifier: GPL-2.0
# Fault injection, load by load: each allocation of a module load (the
# last NTH_LOADS) failed once (module-churn.c "nth", through
# /proc/self/fail-nth: one allocation of the load, whatever the
# probability). A load that fails must fail with an error; a load that
# succeeds all the same leaves its names' trace events as one without
# failure, or, where one is missing, "enable" succeeds, makes it and
# enables them all; and the registry agrees with the text and kprobes
# after each. On the names fresh_* and fresh:*, which no other test
# enables: the events of names once enabled stay, and are no longer made
# at each load. The making of the events failed in some loads ("no trace
# event for"), or the window missed them.
#
# A test of its own, apart from 42-fault-injection: a load takes about
# half a second under TCG with the test kernel's debugging, and the
# markers_churn load makes about 740 allocations, so this runs 6 to 10
# minutes. It runs whole, in the last part of make check (harness/check.sh).
# timeout: 1200
. /harness/lib.sh

# As in 42-fault-injection: SDT sites by the trampoline (x86_64).
MECH=/sys/kernel/debug/markers/sdt_mechanism
# arm64, which has no trampoline: kprobes.
MECH_UNDER_FAULTS=call
[ "$(uname -m)" = x86_64 ] || MECH_UNDER_FAULTS=kprobe
echo $MECH_UNDER_FAULTS > $MECH || fail "sdt_mechanism $MECH_UNDER_FAULTS"

M=/lib/modules/$(uname -r)/kernel/kernel/markers/tests
S=/sys/kernel/debug/markers_stress
rmmod markers_stress 2>/dev/null	# left by an earlier test's failure
insmod $M/markers_stress.ko || fail "insmod markers_stress"
# fail-nth counts the allocations that fault injection may fail.
fault_setup 0

r=$(/extra/module-churn $M/markers_churn.ko markers_churn fresh ${NTH_LOADS:-1000} nth 2>&1) ||
	fail "module-churn, one allocation failed in each load: $r"
echo "$r"
echo "$r" | grep -q '^nth allocations [0-9]* failed [0-9]* of the last: .* bad 0$' || fail "$r"
step_dmesg | grep -q 'markers: no trace event for fresh' ||
	fail "no failure in the making of the events: widen NTH_LOADS"
expect_eq "inconsistent sites at the end" "$(cat $S/check)" 0
rmmod markers_stress
echo thunk > $MECH
exit 0
