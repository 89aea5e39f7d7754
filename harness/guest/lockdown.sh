#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Booted with lockdown=integrity or lockdown=confidentiality (and
# markers.enable=subsys_open): what each markers file does under each
# level (Documentation/trace/markers.rst, "Lockdown").
#  - Signed modules load (modules_install signs them; lockdown selects
#    MODULE_SIG), an unsigned one (the build tree's, /extra/) is refused.
#  - The control file and sdt_mechanism (debugfs, writable) refuse every
#    open with EPERM at both levels (debugfs' lockdown); the listing
#    (read-only, no hit counts) stays readable.
#  - tracefs: open under integrity; under confidentiality from boot,
#    tracing has no buffers and tracefs no files (marker events' neither);
#    raised to confidentiality at run time, tracefs' files refuse their
#    open with EPERM, marker events' included, but for the format file,
#    which the kernel leaves readable for every event. Nothing of markers
#    shows the records elsewhere (the boot-enabled event writes only to
#    the trace buffer, nothing to the kernel log). Lowering is refused.
. /harness/lib.sh
t() {
	if ( "$@" ); then echo "MARKERS-TEST: PASS $1"; else echo "MARKERS-TEST: FAIL $1"; rc=1; fi
}
rc=0
L=/sys/kernel/debug/markers/list
C=/sys/kernel/debug/markers/control
M=/sys/kernel/debug/markers/sdt_mechanism
T=/sys/kernel/tracing
level=$(sed -n 's/.*lockdown=\([a-z]*\).*/\1/p' /proc/cmdline)

# refused FILE: reading and writing FILE fail with EPERM.
refused() {
	if cat "$1" > /dev/null 2> /tmp/err; then fail "$1 readable"; fi
	grep -q 'Operation not permitted' /tmp/err || fail "read $1: $(cat /tmp/err)"
	write_expect_err "$1" "$2" 'Operation not permitted'
}

lockdown_level() {
	S=/sys/kernel/security
	[ -f $S/lockdown ] || mount -t securityfs none $S || fail "mount securityfs"
	echo "$S/lockdown: $(cat $S/lockdown)"
	grep -q "\[$level\]" $S/lockdown || fail "not locked down to $level: $(cat $S/lockdown)"
}
signed_module() {
	# Refused: the kernel says why (its key, the module's signature).
	modprobe marker-example ||
		fail "modprobe marker-example (signed): $(dmesg | grep -E 'X.509|Lockdown: modprobe|PKCS#7|signature' | tail -n 4)"
	grep -q '^subsys_open mark ' $L || fail "no subsys_open in the listing"
}
unsigned_module() {
	if insmod /extra/sdt-example.ko 2> /tmp/err; then fail "unsigned sdt-example loaded"; fi
	grep -q 'Operation not permitted' /tmp/err || fail "insmod unsigned: $(cat /tmp/err)"
	grep -q '^sdt_example ' /proc/modules && fail "sdt_example loaded"
	grep -q '^sdt_example:' $L && fail "sdt_example's sites listed"
	return 0
}
listing_readable() {
	head -n 1 $L
	grep -q '^subsys_open mark .* armed 1 ' $L || fail "subsys_open: $(grep ^subsys_open $L)"
}
control_refused() {
	refused $C 'enable name subsys_read to printk'
	refused $M 'kprobe'
	grep -q '^subsys_read mark .* dormant 0 ' $L || fail "subsys_read: $(grep ^subsys_read $L)"
}
tracefs() {
	cat /proc/marker-example > /dev/null
	if [ "$level" = integrity ]; then
		grep -q 'subsys_open: pid [0-9]* comm cat' $T/trace || fail "no subsys_open record"
		echo 1 > $T/events/markers/subsys_read/enable || fail "enable subsys_read"
		echo 0 > $T/events/markers/subsys_read/enable
	else
		# Locked down from boot: tracing has no buffers and tracefs
		# no files, marker events' included.
		dmesg | grep -q 'Tracing disabled due to lockdown' || fail "tracing not disabled"
		for f in trace trace_pipe available_events events/markers; do
			[ -e $T/$f ] && fail "$T/$f exists"
		done
		grep -q '^subsys_read mark .* dormant 0 ' $L || fail "subsys_read armed"
	fi
	dmesg | grep -q 'subsys_open: pid' && fail "marker records in the kernel log"
	return 0
}
# The level raised at run time (integrity to confidentiality): tracefs'
# files, marker events' included, refuse every open with EPERM, and the
# control file stays refused. Lowered: refused.
level_change() {
	S=/sys/kernel/security/lockdown
	if [ "$level" = confidentiality ]; then
		write_expect_err $S integrity 'Operation not permitted'
		grep -q '\[confidentiality\]' $S || fail "lowered: $(cat $S)"
		return 0
	fi
	echo confidentiality > $S || fail "raise to confidentiality"
	for f in trace trace_pipe available_events events/markers/subsys_open/filter \
		 events/markers/subsys_open/hist; do
		if cat $T/$f > /dev/null 2> /tmp/err; then fail "$f readable"; fi
		grep -q 'Operation not permitted' /tmp/err || fail "$f: $(cat /tmp/err)"
	done
	write_expect_err $T/events/markers/subsys_read/enable 1 'Operation not permitted'
	# A layout, as every event's format file (trace_format_open()).
	grep -q '^name: subsys_open$' $T/events/markers/subsys_open/format ||
		fail "format: $(cat $T/events/markers/subsys_open/format)"
	refused $C 'enable name subsys_read to printk'
	grep -q '^subsys_read mark .* dormant 0 ' $L || fail "subsys_read armed"
}
t lockdown_level
t signed_module
t unsigned_module
t listing_readable
t control_refused
t tracefs
t level_change
exit $rc
