# SPDX-License-Identifier: GPL-2.0
# An eprobe on a marker event holds a reference to it, as on any dynamic
# event: the event stays while the eprobe does, even once the module with
# its sites is gone, and deleting the eprobe then frees nothing twice (it
# used to: "KASAN: slab-use-after-free in trace_event_probe_cleanup").
. /harness/lib.sh

T=/sys/kernel/tracing
D=$T/dynamic_events
modprobe marker-example || fail "modprobe marker-example"
echo 'e:myep markers/subsys_open p=$pid' >> $D || fail "eprobe on markers/subsys_open"
grep -q '^e:eprobes/myep markers.subsys_open' $D || fail "eprobe not listed: $(cat $D)"

# The module goes; the event stays for the eprobe that refers to it.
rmmod marker_example || fail "rmmod marker_example"
[ -d $T/events/markers/subsys_open ] || fail "marker event freed under its eprobe"
# It is the event of the sites again when they come back.
modprobe marker-example || fail "modprobe marker-example again"
echo 1 > $T/events/eprobes/myep/enable || fail "enable the eprobe"
echo > $T/trace
cat /proc/marker-example > /dev/null
expect_eq "eprobe lines" "$(grep -c 'myep: (markers.subsys_open) p=' $T/trace)" "1"
echo 0 > $T/events/eprobes/myep/enable

# Gone again, and the eprobe deleted after: nothing freed twice.
rmmod marker_example || fail "rmmod marker_example again"
echo '-:myep' >> $D || fail "delete the eprobe"
grep -q myep $D && fail "eprobe still listed"
exit 0
