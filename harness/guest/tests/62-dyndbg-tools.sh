# SPDX-License-Identifier: GPL-2.0
# Debian's perf and bpftrace (run.sh -T) on the events of dynamic debug
# sites (CONFIG_MARKERS_DYNDBG): perf stat counts marker_example's read
# pr_debug() over known reads, bpftrace sums one of its fields; the site
# is dormant again once they are gone.
# needs: run.sh -T
. /harness/lib.sh

L=/sys/kernel/debug/markers/list
C=/sys/kernel/debug/markers/control
E=dyndbg_marker_example:marker_example_read
command -v perf > /dev/null || fail "no perf in the initramfs (run.sh -T)"
command -v bpftrace > /dev/null || fail "no bpftrace in the initramfs (run.sh -T)"
modprobe marker-example || fail "modprobe marker-example"
cd /tmp || fail "cd /tmp"

# The event exists once asked for: the control file makes it, on and off.
echo 'enable name marker_example.marker_example_read to trace' > $C || fail "enable"
echo 'disable name marker_example.marker_example_read to trace' > $C || fail "disable"
[ -d /sys/kernel/tracing/events/dyndbg_marker_example/marker_example_read ] ||
	fail "no event"

# perf stat: 4 reads of 9 bytes, 4 hits.
perf stat -x, -e $E -o /tmp/perf-dd -- \
	sh -c 'for i in 1 2 3 4; do dd if=/proc/marker-example of=/dev/null bs=9 count=1 2> /dev/null; done' ||
	fail "perf stat: $(cat /tmp/perf-dd)"
expect_eq "perf stat $E" "$(grep ",$E," /tmp/perf-dd | cut -d, -f1)" 4

# bpftrace: the count field of 3 reads of 11 bytes, summed (its -c
# splits words itself: the loop is a script of its own).
echo 'for i in 1 2 3; do dd if=/proc/marker-example of=/dev/null bs=11 count=1 2> /dev/null; done' \
	> /tmp/bt-dd.sh
bpftrace -e "tracepoint:$E { @n = count(); @c = sum(args->count); }" -c 'sh /tmp/bt-dd.sh' \
	> /tmp/bt-dd 2>&1 || fail "bpftrace: $(tail -n 5 /tmp/bt-dd)"
grep -q '^@n: 3$' /tmp/bt-dd || fail "bpftrace count: $(cat /tmp/bt-dd)"
grep -q '^@c: 33$' /tmp/bt-dd || fail "bpftrace sum: $(cat /tmp/bt-dd)"

grep -q '^marker_example.marker_example_read dyndbg .* dormant 0 ' $L ||
	fail "armed after perf and bpftrace: $(grep '^marker_example.marker_example_read ' $L)"
rmmod marker_example
exit 0
