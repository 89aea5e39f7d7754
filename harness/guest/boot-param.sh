#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Booted with markers.enable=module_*,subsys_open,sdt_example:read,[bad:
# names armed at boot and when modules load later; and with preempt=none,
# the PREEMPT_DYNAMIC kernel's other end.
. /harness/lib.sh
C=/sys/kernel/debug/markers/control
T=/sys/kernel/tracing/trace
t() {
	if ( "$@" ); then echo "MARKERS-TEST: PASS $1"; else echo "MARKERS-TEST: FAIL $1"; rc=1; fi
}
rc=0
boot_armed() {
	grep '^module_live ' $C | grep -q ' armed 1 ' || fail "module_live: $(grep '^module_live ' $C)"
	# The whole log, not step_dmesg: the warning is the boot's own, printed
	# as the command line is parsed, before any job runs.
	dmesg | grep -q 'markers.enable: ignoring malformed glob "\[bad"' || fail "no warning for [bad"
}
later_modules() {
	modprobe marker-example || fail "modprobe"
	grep '^subsys_open ' $C | grep -q ' armed 1 ' || fail "subsys_open: $(grep '^subsys_open ' $C)"
	grep '^subsys_read ' $C | grep -q ' dormant 0 ' || fail "subsys_read armed"
	cat /proc/marker-example > /dev/null
	grep -q 'subsys_open: pid [0-9]* comm cat' $T || fail "no subsys_open line"
	grep -q 'module_live: name marker_example text' $T || fail "no module_live line"
	modprobe sdt-example || fail "modprobe sdt-example"
	wait_listing sdt_example:read ' \(thunk\|call\) 1 ' || fail "sdt_example:read not armed"
	expect_eq "armed otherwise" "$(sdt_misarmed sdt_example:read)" ""
	cat /proc/sdt-example
	grep -q 'sdt_example:read arg0=' $T || fail "no sdt_example:read line"
}
preempt_none() {
	dmesg | grep -q 'Dynamic Preempt: none$' || fail "$(dmesg | grep 'Dynamic Preempt')"
}
t boot_armed
t later_modules
t preempt_none
exit $rc
