# SPDX-License-Identifier: GPL-2.0
# CPU hotplug while names are armed and disarmed: CPU 1 goes offline and
# online in a loop while the control file, a probe module and a trace
# event arm and disarm marker-example's and sdt-example's names, and each
# round counts its hits exactly: every hit of an armed name reaches its
# probe once, none of a disarmed one, whichever CPUs are online.
. /harness/lib.sh

C=/sys/kernel/debug/markers/control
T=/sys/kernel/tracing/trace
E=/sys/kernel/tracing/events
L=/sys/kernel/debug/markers/list
H=/sys/devices/system/cpu/cpu1/online
ROUNDS=${HOTPLUG_ROUNDS:-5}
[ -w $H ] || fail "cpu1 cannot be taken offline"
modprobe marker-example || fail "modprobe marker-example"
modprobe sdt-example || fail "modprobe sdt-example"
lines() { grep -c "$1" $T; }

rm -f /tmp/hotplug.stop /tmp/hotplug.cycles
(
	n=0
	while [ ! -f /tmp/hotplug.stop ]; do
		echo 0 > $H || break
		echo 1 > $H || break
		n=$((n + 1))
	done
	echo $n > /tmp/hotplug.cycles
) &
hp=$!

r=0
while [ $r -lt "$ROUNDS" ]; do
	r=$((r + 1))
	echo > $T
	# The control file, a MARK() name and an SDT name in one write.
	echo 'enable name subsys_open; enable name sdt_example:read' > $C ||
		fail "round $r: enable"
	cat /proc/marker-example /proc/marker-example /proc/sdt-example > /dev/null
	echo 'disable name subsys_open; disable name sdt_example:read' > $C ||
		fail "round $r: disable"
	cat /proc/marker-example /proc/sdt-example > /dev/null
	expect_eq "round $r: subsys_open lines" "$(lines 'subsys_open: pid [0-9]* comm cat')" 2
	expect_eq "round $r: sdt_example:read lines" "$(lines 'sdt_example:read arg0=')" 1
	# A probe module.
	step_mark "round $r: probe_example"
	probe_example || fail "round $r: probe_example"
	cat /proc/marker-example /proc/marker-example /proc/marker-example > /dev/null
	rmmod probe_example || fail "round $r: rmmod probe_example"
	cat /proc/marker-example > /dev/null
	expect_eq "round $r: probe_example hits" \
		"$(step_dmesg | grep -c 'probe_example: subsys_open: pid [0-9]* comm cat$')" 3
	# A trace event.
	echo > $T
	echo 1 > $E/markers/subsys_open/enable || fail "round $r: enable the event"
	cat /proc/marker-example /proc/marker-example > /dev/null
	echo 0 > $E/markers/subsys_open/enable || fail "round $r: disable the event"
	cat /proc/marker-example > /dev/null
	expect_eq "round $r: event lines" "$(lines 'subsys_open: pid [0-9]* comm cat')" 2
done
touch /tmp/hotplug.stop
wait $hp
cycles=$(cat /tmp/hotplug.cycles)
echo "rounds $ROUNDS, hotplug cycles $cycles"
[ "$cycles" -gt 0 ] || fail "cpu1 never went offline and back"
expect_eq "cpu1 online" "$(cat $H)" 1
for n in subsys_open sdt_example:read; do
	grep "^$n " $L | grep -q ' dormant 0 ' || fail "$n left armed: $(grep "^$n " $L)"
done
rmmod sdt_example marker_example
exit 0
