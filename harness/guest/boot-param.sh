#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Booted with markers.enable="module_*,subsys_open,sdt_example:read,
# marker_example.marker_example_read,main.layout_sections,[bad,name
# marker_example.* file marker-example.c line N": names armed at boot
# and when modules load later, the keys of dynamic debug sites at boot
# (vmlinux's pr_debug() in layout_sections(), at every module load) and
# once their module is live, by key and by file and line (N: the second
# pr_debug() of marker_example_open()), and the series' ftracetest case
# of the parameter; and with preempt=none, the PREEMPT_DYNAMIC kernel's
# other end.
. /harness/lib.sh
C=/sys/kernel/debug/markers/control
T=/sys/kernel/tracing/trace
t() {
	if ( "$@" ); then echo "MARKERS-TEST: PASS $1"; else echo "MARKERS-TEST: FAIL $1"; rc=1; fi
}
rc=0
boot_armed() {
	grep '^module_live ' $C | grep -q ' armed 1 ' || fail "module_live: $(grep '^module_live ' $C)"
	grep '^main.layout_sections ' $C | grep -q ' armed 1 ' ||
		fail "main.layout_sections: $(grep '^main.layout_sections' $C)"
	# The whole log, not step_dmesg: the warning is the boot's own, printed
	# as the command line is parsed, before any job runs.
	dmesg | grep -q 'markers.enable: ignoring malformed item "\[bad"' || fail "no warning for [bad"
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
	grep '^marker_example.marker_example_read ' $C | grep -q ' armed 1 ' ||
		fail "marker_example.marker_example_read: $(grep '^marker_example.marker_example_read ' $C)"
	grep '^marker_example.marker_example_open ' $C | grep -q ' dormant 0 ' ||
		fail "marker_example.marker_example_open armed"
	grep -q 'marker_example_read: read count [0-9]* pos 0 comm cat ' $T ||
		fail "no marker_example_read record"
	# By file and line: the second site of marker_example_open(), alone.
	grep '^marker_example.marker_example_open.2 ' $C | grep -q ' armed 1 ' ||
		fail "marker_example.marker_example_open.2: $(grep '^marker_example.marker_example_open.2 ' $C)"
	grep -q 'marker_example_open__2: open flags ' $T || fail "no marker_example_open__2 record"
	grep -q 'marker_example_open: ' $T && fail "a marker_example_open record"
	grep -q 'layout_sections: Core section allocation order for marker_example:$' $T ||
		fail "no layout_sections record"
}
# The series' ftracetest case of markers.enable=, on the samples unloaded
# again: it loads marker_example and checks its names against the
# parameter (and needs a boot with it, which this is).
enable_param() {
	rmmod marker_example sdt_example || fail "rmmod the samples"
	F=/extra/ftrace-selftests.tar
	[ -f $F ] || fail "no $F (harness/lib.sh guest_tools makes it)"
	rm -rf /tmp/ftrace /tmp/ftracetest-logs && tar -C /tmp -xf $F || fail "unpack $F"
	r=0
	(cd /tmp/ftrace && sh ./ftracetest -l /tmp/ftracetest-logs \
		test.d/markers/enable_param.tc) > /tmp/ftracetest.out 2>&1 || r=$?
	res=$(sed -n 's/^\[1\] .*\[\([A-Z]*\)\]$/\1/p' /tmp/ftracetest.out)
	echo "  ftracetest enable_param.tc: ${res:-no result} (rc $r)"
	if [ "$res" != PASS ] || [ $r != 0 ]; then
		tail -n 20 /tmp/ftracetest.out
		tail -n 40 /tmp/ftracetest-logs/*-log.* 2> /dev/null
		fail "ftracetest enable_param.tc: ${res:-no result}"
	fi
}
preempt_none() {
	dmesg | grep -q 'Dynamic Preempt: none$' || fail "$(dmesg | grep 'Dynamic Preempt')"
}
t boot_armed
t later_modules
t enable_param
t preempt_none
exit $rc
