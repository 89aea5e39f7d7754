# SPDX-License-Identifier: GPL-2.0
# A MARK() name left with one of its two probes is made direct after the
# change's grace period (a promotion), with marker_mutex dropped in
# between. A module with the name's sites that goes in that window must
# take its queued promotions with it: they used to read the freed object
# and patch the freed text. markers_delay widens the window to 2 s.
. /harness/lib.sh

C=/sys/kernel/debug/markers/control
L=/sys/kernel/debug/markers/list
M=/lib/modules/$(uname -r)/extra
modprobe marker-example || fail "modprobe marker-example"
probe_example || fail "probe-example"
echo 'enable name subsys_open to printk' > $C || fail "enable subsys_open"
grep '^subsys_open ' $L | grep -q ' armed 2 ' || fail "not armed with two probes: $(grep '^subsys_open ' $L)"
insmod $M/markers_delay.ko delay_ms=2000 || fail "insmod markers_delay"

# The detach leaves probe-example alone: a promotion, 2 s after the
# grace period. The module goes meanwhile.
step_mark
P=/sys/module/markers_delay/parameters/cancelled
c=$(cat $P)
(echo 'disable name subsys_open' > $C; echo "detach $?" > /tmp/detach) &
sleep 1
rmmod marker_example || fail "rmmod marker_example in the window"
wait
# In the window: the module's going cancelled the promotion.
expect_eq "promotions cancelled" "$(cat $P)" "$((c + 1))"
expect_eq "detach" "$(cat /tmp/detach)" "detach 0"
step_dmesg | grep -Eq 'BUG|KASAN|Oops|WARNING' && fail "splat: $(step_dmesg | grep -E -A5 'BUG|KASAN|Oops|WARNING' | head -n 8)"
grep -q '^subsys_open - "" - pending 1 ' $L || fail "probe-example not pending: $(grep subsys_open $L)"

# The sites come back: direct, with the one probe left, firing once.
modprobe marker-example || fail "modprobe marker-example again"
grep '^subsys_open ' $L | grep -q ' armed 1 ' || fail "not armed: $(grep '^subsys_open ' $L)"
n=$(step_dmesg | grep -c 'probe_example: subsys_open')
cat /proc/marker-example > /dev/null
expect_eq "probe-example hits" "$(step_dmesg | grep -c 'probe_example: subsys_open')" "$((n + 1))"
rmmod markers_delay probe_example marker_example
exit 0
