#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Booted with retbleed=force,stuff spectre_v2=retpoline: call depth
# tracking on (QEMU's CPU is not affected by Retbleed, hence "force").
# Its call accounting and return thunk change the flags, which an SDT
# site in asm must keep across the trampoline (markers_sdt
# sdt_test_flags), with AC cleared for the probe and set back
# (sdt_test_uaccess). The whole markers_sdt suite runs.
. /harness/lib.sh
t() {
	if ( "$@" ); then echo "MARKERS-TEST: PASS $1"; else echo "MARKERS-TEST: FAIL $1"; rc=1; fi
}
rc=0
call_depth_tracking() {
	dmesg | grep -q 'RETBleed: Mitigation: Stuffing' ||
		fail "no call depth tracking: $(dmesg | grep -i retbleed)"
}
markers_sdt() {
	R=/sys/kernel/debug/kunit/markers_sdt/results
	modprobe markers_sdt_test || fail "modprobe markers_sdt_test"
	grep -v '^        ' $R | grep -E '# .*(EXPECTATION|Expected)|^    not ok' && fail "markers_sdt failed"
	grep -q '^ok 1 markers_sdt' $R || fail "markers_sdt: $(tail -n 1 $R)"
	# Every case ran: a suite whose cases all skipped is "ok" too.
	sum=$(grep '^# markers_sdt: ' $R)
	n=${sum##*total:}
	[ "$sum" = "# markers_sdt: pass:$n fail:0 skip:0 total:$n" ] || fail "markers_sdt: $sum"
	echo "markers_sdt: $(grep -c '^    ok ' $R) cases passed"
}
t call_depth_tracking
t markers_sdt
exit $rc
