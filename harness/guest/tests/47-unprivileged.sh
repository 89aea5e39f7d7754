# SPDX-License-Identifier: GPL-2.0
# An unprivileged user (uid 1000, no capabilities), at the default
# perf_event_paranoid (2) and unprivileged_bpf_disabled (2): cannot read
# the listing or the control file (EACCES: debugfs and the files are
# root's), cannot write the control file, cannot open a marker event with
# perf_event_open (EACCES) nor load a BPF tracepoint program (EPERM), and
# cannot read tracefs. Each refusal is checked by its errno, and a marker
# stays dormant. busybox's setpriv (1.35) cannot change the uid; su
# does, with a passwd entry of the test's own.
. /harness/lib.sh

E=/sys/kernel/tracing/events
L=/sys/kernel/debug/markers/list
C=/sys/kernel/debug/markers/control
expect_eq "perf_event_paranoid" "$(cat /proc/sys/kernel/perf_event_paranoid)" 2
expect_eq "unprivileged_bpf_disabled" "$(cat /proc/sys/kernel/unprivileged_bpf_disabled)" 2
modprobe marker-example || fail "modprobe marker-example"
id=$(cat $E/markers/subsys_open/id) || fail "no id for markers/subsys_open"

mkdir -p /etc
grep -q "^markers:" /etc/passwd 2>/dev/null ||
	echo 'markers:x:1000:1000:markers test:/tmp:/bin/sh' >> /etc/passwd
user() { su -s /bin/sh markers -c "$1" > /tmp/unpriv.out 2>&1; }
# user CMD ERRNO_TEXT: CMD fails for the user with that errno's text.
refused() {
	if user "$1"; then
		fail "user: '$1' succeeded: $(cat /tmp/unpriv.out)"
	fi
	grep -q "$2" /tmp/unpriv.out || fail "user: '$1': $(cat /tmp/unpriv.out), want $2"
	echo "user: $1: $(tail -n 1 /tmp/unpriv.out)"
}
user 'id -u' || fail "su: $(cat /tmp/unpriv.out)"
expect_eq "uid" "$(cat /tmp/unpriv.out)" 1000
user 'grep CapEff /proc/self/status'
expect_eq "capabilities" "$(cat /tmp/unpriv.out)" "CapEff:	0000000000000000"

refused "cat $L" 'Permission denied'
refused "cat $C" 'Permission denied'
refused "echo 'enable name subsys_open to printk' > $C" 'Permission denied'
refused "cat $E/markers/subsys_open/format" 'Permission denied'
refused "echo 1 > $E/markers/subsys_open/enable" 'Permission denied'
user "/extra/marker-perf refused $id" || fail "perf and BPF: $(cat /tmp/unpriv.out)"
cat /tmp/unpriv.out

grep -q '^subsys_open mark .* dormant 0 ' $L || fail "subsys_open armed: $(grep ^subsys_open $L)"
rmmod marker_example
