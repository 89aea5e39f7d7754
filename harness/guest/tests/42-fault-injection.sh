# SPDX-License-Identifier: GPL-2.0
# Fault injection: with failslab and fail_page_alloc failing one allocation
# in ten (in a hundred for module loads) of the tasks under test, FAULT_CALLS
# calls of marker_set_probe(),
# sdt_set_probe() and their disable counterparts (markers_stress), and
# FAULT_LOADS loads of a module with sites alternating with control-file
# writes (module-churn). 53-fault-nth fails each allocation of a load in
# turn. Every call succeeds or fails with an error,
# detaching never fails, and the registry agrees with the text and kprobes
# after each. Each part injects failures of its own, or it tested nothing:
# failslab's and fail_page_alloc's "times" count down from 1000000 with
# every failure injected, and are reset before each part.
# An SDT site armed by a kprobe (arm64's fallback) whose registration ran
# out of memory says so, and stays dormant: the registry checks it.
# warns: ^markers: no trace event for 
# warns: ^markers: events: 
# warns: ^markers: .* cannot register a kprobe: -12$
. /harness/lib.sh

# SDT sites are armed with the trampoline here: a thunk's execmem_alloc()
# under injected failures makes vmalloc WARN in its own va_clip() (6.12
# mm/vmalloc.c: a failed GFP_NOWAIT node allocation), which is not ours.
MECH=/sys/kernel/debug/markers/sdt_mechanism
# arm64, which has no trampoline: kprobes.
MECH_UNDER_FAULTS=call
[ "$(uname -m)" = x86_64 ] || MECH_UNDER_FAULTS=kprobe
echo $MECH_UNDER_FAULTS > $MECH || fail "sdt_mechanism $MECH_UNDER_FAULTS"

# The events that the control writes enable record no comms here: 6.12's
# tracing_start_sched_switch() ignores a failed registration of the
# probes that record them (an injected -ENOMEM: "wakeup trace: Couldn't
# activate tracepoint probe to kernel_sched_wakeup"), and the event's
# disable then unregisters probes never registered: a WARNING in
# tracepoint_probe_unregister(), which is not ours.
RC=/sys/kernel/tracing/options/record-cmd
echo 0 > $RC || fail "record-cmd off"
trap 'echo 1 > $RC' EXIT

FI=/sys/kernel/debug
# injected_reset: the countdown of both back to 1000000.
injected_reset() {
	for d in failslab fail_page_alloc; do
		echo 1000000 > $FI/$d/times || fail "reset $d/times"
	done
}
# injected: the failures injected since injected_reset, of both.
injected() {
	echo $(( 2000000 - $(cat $FI/failslab/times) - $(cat $FI/fail_page_alloc/times) ))
}

M=/lib/modules/$(uname -r)/extra
S=/sys/kernel/debug/markers_stress
rmmod markers_stress 2>/dev/null	# left by an earlier test's failure
insmod $M/markers_stress.ko || fail "insmod markers_stress"
fault_setup 10

# The file is opened before allocations may fail: only the run may.
injected_reset
( exec 3> $S/fault; echo 1 > /proc/self/make-it-fail; echo ${FAULT_CALLS:-500} >&3 ) ||
	fail "fault run"
n1=$(injected)
r=$(cat $S/fault)
echo "$r"
echo "failures injected in the calls: $n1"
# Some of the calls must have failed for memory: "failed 0" would mean the
# injected failures never reached a call, and nothing was tested.
echo "$r" | grep -q "^fault calls ${FAULT_CALLS:-500} failed [1-9][0-9]* bad 0 inconsistent 0$" || fail "$r"
[ "$n1" -gt 0 ] || fail "no failure injected in the calls"
# A module load allocates a few hundred times: fail one in a hundred.
echo 1 > $FI/failslab/probability
echo 1 > $FI/fail_page_alloc/probability
injected_reset
r2=$(/extra/module-churn $M/markers_churn.ko markers_churn churn ${FAULT_LOADS:-50} fault 2>&1) ||
	fail "module-churn under fault injection: $r2"
n2=$(injected)
for d in failslab fail_page_alloc; do
	echo 0 > $FI/$d/probability
done
echo "$r2"
echo "failures injected in the module loads: $n2"
[ "$n2" -gt 0 ] || fail "no failure injected in the module loads"
expect_eq "inconsistent sites at the end" "$(cat $S/check)" 0
rmmod markers_stress
echo thunk > $MECH
exit 0
