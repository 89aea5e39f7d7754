# SPDX-License-Identifier: GPL-2.0
# A MARK() site loads its probe's data before its CALL. A task preempted
# between an armed site's jump and its preempt_disable() can resume after
# the site was disarmed and armed again with another probe, read the old
# data and call the new probe. So a site armed before goes direct only
# through the slow path and a promotion, one grace period later, which
# covers that read; a site never armed goes direct at once. Counted here
# in grace periods (what single-threaded TCG cannot do is hit the window).
. /harness/lib.sh

C=/sys/kernel/debug/markers/control
L=/sys/kernel/debug/markers/list
modprobe marker-example || fail "modprobe marker-example"
gp_count_start
echo 'enable name subsys_read to printk' > $C || fail "enable subsys_read"
expect_eq "grace periods to arm subsys_read the first time" "$(gp_count)" 0
echo 'disable name subsys_read' > $C || fail "disable subsys_read"
gp_count_start
echo 'enable name subsys_read to printk' > $C || fail "enable subsys_read again"
expect_eq "grace periods to arm subsys_read again" "$(gp_count)" 1
grep '^subsys_read ' $L | grep -q ' armed 1 ' || fail "not armed: $(grep '^subsys_read ' $L)"
step_mark
cat /proc/marker-example > /dev/null
step_dmesg | grep -q 'markers: subsys_read: ' || fail "no subsys_read line"
echo 'disable name subsys_read' > $C || fail "disable subsys_read"
rmmod marker_example
exit 0
