# SPDX-License-Identifier: GPL-2.0
# A real tracer: Debian's trace-cmd records markers:* around a workload
# and its report shows the events with their field values, parsed from
# the events' format files by libtraceevent.
# arch: x86_64: the guest's trace-cmd is the host's binary
. /harness/lib.sh

command -v trace-cmd > /dev/null || fail "no trace-cmd in the initramfs"
modprobe marker-example || fail "modprobe marker-example"
cd /tmp || fail "cd /tmp"
trace-cmd record -q -e 'markers:*' -o /tmp/markers.dat \
	sh -c 'cat /proc/marker-example > /dev/null' > /dev/null 2>&1 || fail "trace-cmd record"
trace-cmd report -i /tmp/markers.dat > /tmp/report 2>&1 || fail "trace-cmd report: $(tail -n 3 /tmp/report)"
grep ' subsys_' /tmp/report | head -n 8
grep -q 'subsys_open: *pid [0-9][0-9]* comm cat$' /tmp/report || fail "no subsys_open in the report"
expect_eq "subsys_loop records" "$(grep -c 'subsys_loop: *iteration [0-2] of 3$' /tmp/report)" 3
grep -q 'subsys_read: *count 65536 pos 0$' /tmp/report || fail "no subsys_read in the report"
rmmod marker_example
