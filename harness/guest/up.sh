#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The uniprocessor kernel (FLAVOUR=up: CONFIG_SMP, CONFIG_MARKERS_CONTROL
# and CONFIG_MARKERS_EVENTS off), booted by host/up-kernel. Per-CPU
# variables are plain addresses there, and %gs: is not their segment: the
# SDT thunks' hit counter and preempt count, and the operand decoder's
# %gs:, must not take it for one. The SDT suites and the registry's run
# whole; a skipped case fails unless it is named below, with its reason.
. /harness/lib.sh
t() {
	if ( "$@" ); then echo "MARKERS-TEST: PASS $1"; else echo "MARKERS-TEST: FAIL $1"; rc=1; fi
}
rc=0
uniprocessor() {
	[ "$(cat /sys/devices/system/cpu/possible)" = 0 ] ||
		fail "possible CPUs: $(cat /sys/devices/system/cpu/possible)"
	[ -e /sys/devices/system/cpu/cpu0/online ] && fail "CPU hotplug on a UP kernel"
	grep -q 'PREEMPT_DYNAMIC' /proc/version || fail "not PREEMPT_DYNAMIC: $(cat /proc/version)"
}
# The registry without its two optional parts: a listing, no control
# file, no markers/ trace events.
no_control_no_events() {
	[ -r /sys/kernel/debug/markers/list ] || fail "no listing"
	[ -e /sys/kernel/debug/markers/control ] && fail "a control file with CONFIG_MARKERS_CONTROL=n"
	mount -t tracefs nodev /sys/kernel/tracing 2> /dev/null
	[ -d /sys/kernel/tracing/events ] || fail "no tracefs"
	ls -d /sys/kernel/tracing/events/markers /sys/kernel/tracing/events/sdt_* 2> /dev/null &&
		fail "marker trace events with CONFIG_MARKERS_EVENTS=n"
	true
}
# suite MODULE SUITE [CASE...]: load MODULE; SUITE passes, and every case
# ran but the CASEs named, which must skip.
suite() {
	m=$1 s=$2
	shift 2
	R=/sys/kernel/debug/kunit/$s/results
	modprobe "$m" || fail "modprobe $m"
	grep -v '^        ' $R | grep -E '# .*(EXPECTATION|Expected)|^    not ok' && fail "$s failed"
	grep -q "^ok [0-9]* $s\$" $R || fail "$s: $(tail -n 1 $R)"
	skipped=$(sed -n 's/^    ok [0-9]* \([a-z0-9_]*\) # SKIP.*/\1/p' $R | sort | tr '\n' ' ')
	want=$(for c in "$@"; do echo "$c"; done | sort | tr '\n' ' ')
	[ "$skipped" = "$want" ] || fail "$s: skipped '$skipped', expected '$want'"
	echo "$s: $(grep -c '^    ok ' $R) cases passed or skipped as expected"
}
markers_sdt() { suite markers_sdt_test markers_sdt; }
# sdt_thunk_test_in_use fires a site on one CPU while another retires it.
markers_sdt_thunk() { suite markers_sdt_thunk_kunit markers_sdt_thunk sdt_thunk_test_in_use; }
markers_sdt_diff() { suite markers_sdt_diff_kunit markers_sdt_diff; }
markers() { suite markers_kunit markers; }
t uniprocessor
t no_control_no_events
t markers_sdt
t markers_sdt_thunk
t markers_sdt_diff
t markers
exit $rc
