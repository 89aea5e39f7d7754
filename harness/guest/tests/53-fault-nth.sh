# SPDX-License-Identifier: GPL-2.0
# Fault injection, load by load (module-churn.c "nth", through
# /proc/self/fail-nth: one allocation of the load, whatever the
# probability), in two passes:
# - each allocation made under the registry's code (kernel/markers/:
#   adding the module's sites, the clients' notifiers that make their
#   trace events) failed once: fault injection's stack filter counts only
#   those, from the text range the host read in System.map
#   (harness/lib.sh markers_text, /extra/markers-text);
# - every NTH_STRIDE-th allocation of the whole load failed once (every
#   17th in make check, every one in make stress): the loader's own,
#   before the registry sees the module and after (a load that fails after
#   the COMING notifier takes the module's sites away again).
# A load that fails must fail with an error; a load that succeeds all the
# same leaves its names' trace events as one without failure, or, where
# one is missing, "enable" succeeds, makes it and enables them all; and
# the registry agrees with the text and kprobes after each, and vmlinux's
# events are still there at the end. On the names
# fresh_* and fresh:*, which no other test enables: the events of names
# once enabled stay, and are no longer made at each load. The making of
# the events failed in some loads ("no trace event for").
#
# A load takes about half a second under TCG with the test kernel's
# debugging. Failing each of a load's 790 allocations in turn took 400 s
# (2026-12-05), most of it in the loader's, which the second pass
# samples (make stress fails them all); the two passes, 215 and 36 loads
# (2026-12-07: 614 allocations a load), about 130 s.
# It runs whole, in the last part of make check (harness/check.sh).
# timeout: 1200
# warns: ^markers: no trace event for 
# warns: ^markers: events: 
. /harness/lib.sh

# As in 42-fault-injection: SDT sites by the trampoline (x86_64).
MECH=/sys/kernel/debug/markers/sdt_mechanism
# arm64, which has no trampoline: kprobes.
MECH_UNDER_FAULTS=call
[ "$(uname -m)" = x86_64 ] || MECH_UNDER_FAULTS=kprobe
echo $MECH_UNDER_FAULTS > $MECH || fail "sdt_mechanism $MECH_UNDER_FAULTS"

M=/lib/modules/$(uname -r)/extra
S=/sys/kernel/debug/markers_stress
rmmod markers_stress 2>/dev/null	# left by an earlier test's failure
insmod $M/markers_stress.ko || fail "insmod markers_stress"
# fail-nth counts the allocations that fault injection may fail.
fault_setup 0
# require_range START END: fail only allocations with a frame in
# [START, END) (addresses in hex).
require_range() {
	for d in failslab fail_page_alloc; do
		echo "$1" > /sys/kernel/debug/$d/require-start || fail "$d require-start $1"
		echo "$2" > /sys/kernel/debug/$d/require-end || fail "$d require-end $2"
	done
}
# The registry's text: offsets from _stext (KASLR moves the whole image).
read -r off_s off_e nsyms < /extra/markers-text || fail "no /extra/markers-text"
stext=$(awk '$3 == "_stext" { print $1; exit }' /proc/kallsyms)
# at OFFSET: _stext + OFFSET, in hex (busybox's arithmetic is signed: the
# upper half of the address is kept as it is).
at() {
	lo=$((0x${stext#????????} + $1))
	[ $lo -le $((0xffffffff)) ] || fail "_stext $stext + $1 crosses 4 GiB"
	printf '0x%s%08x' "${stext%????????}" $lo
}
start=$(at "$off_s") end=$(at "$off_e")
# The range is the registry's: its module notifier lies in it, a function
# of the loader does not (the lower halves compared: the upper ones are
# _stext's).
low() { v=${1#0x}; echo $((0x${v#????????})); }
inside() {
	a=$(awk -v f="$1" '$3 == f { print $1; exit }' /proc/kallsyms)
	[ -n "$a" ] || fail "no $1 in /proc/kallsyms"
	[ "$(low "$a")" -ge "$(low "$start")" ] && [ "$(low "$a")" -lt "$(low "$end")" ]
}
inside marker_module_notify || fail "marker_module_notify is not in $start..$end"
inside load_module && fail "load_module is in $start..$end"
echo "registry text: $start..$end ($nsyms symbols)"

# The events of the module's other names (churn_*, churn:*, fixture_layout)
# made once and kept (an event once enabled stays when its sites go), so
# that each load makes only the fresh names' events, which this test is
# about: a third of the allocations under the registry's code each. Two
# of the names have sites only in the module's init text, which are gone
# once insmod returns: their events go at the next module load or unload
# anywhere unless they were used, so one that came between insmod and
# the enabling took them (they are made again at the next load). After
# the unload, the events left are those used: all five, or load again.
T=/sys/kernel/tracing/events
for try in 1 2 3; do
	insmod $M/markers_churn.ko || fail "insmod markers_churn"
	for e in $T/markers/churn_*/ $T/markers/fixture_layout/ $T/sdt_churn/*/; do
		[ -d "$e" ] || continue
		echo 1 > "$e/enable" && echo 0 > "$e/enable" || fail "enable $e"
	done
	rmmod markers_churn
	n=0
	for e in $T/markers/churn_*/ $T/markers/fixture_layout/ $T/sdt_churn/*/; do
		[ -d "$e" ] && n=$((n + 1))
	done
	[ $n = 5 ] && break
	echo "load $try: $n of the other names' events used:" \
		$(cd $T && ls -d markers/churn_* markers/fixture_layout sdt_churn/* 2>/dev/null)
done
expect_eq "the other names' events" $n 5

require_range "$start" "$end"
# Each of a load's first 40 allocations under the registry's code failed
# in turn: whatever the load did, the events of vmlinux's names, which it
# does not touch, are there right after it (a failed walk of the names
# in the events' sync took away the events of the names it had not
# reached, until a later load made them again).
for n in $(seq 40); do
	sh -c "echo $n > /proc/self/fail-nth && exec insmod $M/markers_churn.ko" 2> /dev/null
	for e in markers/module_live sdt_module/live; do
		[ -d $T/$e ] || fail "the event $e went when allocation $n of a load failed"
	done
	rmmod markers_churn 2> /dev/null
done
r=$(/extra/module-churn $M/markers_churn.ko markers_churn fresh 1000 nth 2>&1) ||
	fail "module-churn, one allocation of the registry's failed in each load: $r"
echo "registry's: $r"
echo "$r" | grep -q '^nth allocations [0-9]* failed [0-9]* of the last, every 1: .* bad 0$' || fail "$r"
n=$(echo "$r" | sed -n 's/^nth allocations \([0-9]*\) .*/\1/p')
[ "$n" -ge 20 ] || fail "only $n allocations under the registry's code in a load"
echo "$r" | grep -q ' failed-loads [1-9]' || fail "no load failed: $r"
step_dmesg | grep -q 'markers: no trace event for fresh' ||
	fail "no failure in the making of the events"

require_range 0 0xffffffffffffffff
r=$(/extra/module-churn $M/markers_churn.ko markers_churn fresh 1000 nth ${NTH_STRIDE:-17} 2>&1) ||
	fail "module-churn, one allocation of the load failed in each: $r"
echo "whole load: $r"
echo "$r" | grep -q '^nth allocations [0-9]* failed [0-9]* of the last, every [0-9]*: .* bad 0$' || fail "$r"
expect_eq "inconsistent sites at the end" "$(cat $S/check)" 0
rmmod markers_stress
echo thunk > $MECH
exit 0
