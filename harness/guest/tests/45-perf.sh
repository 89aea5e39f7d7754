# SPDX-License-Identifier: GPL-2.0
# Debian's perf (linux-perf, the real binary, run.sh -T) on marker events,
# as a user would run it, with exact counts: perf list finds the markers
# group, perf stat counts a MARK event and an SDT event over known hits,
# perf record + perf script show each record's typed fields. The sites
# are dormant again once perf is gone.
# needs: run.sh -T
. /harness/lib.sh

L=/sys/kernel/debug/markers/list
command -v perf > /dev/null || fail "no perf in the initramfs (run.sh -T)"
modprobe marker-example || fail "modprobe marker-example"
modprobe sdt-example || fail "modprobe sdt-example"
cd /tmp || fail "cd /tmp"

# perf list: every name of marker-example, as a tracepoint event.
perf list 'markers:*' > /tmp/perf-list 2>&1 || fail "perf list: $(tail -n 3 /tmp/perf-list)"
for e in subsys_open subsys_loop subsys_file subsys_read subsys_expensive; do
	grep -q "markers:$e  *\[Tracepoint event\]" /tmp/perf-list ||
		fail "perf list has no markers:$e: $(cat /tmp/perf-list)"
done

# perf 6.1's event parser takes a bare "read" after the colon for
# something else ("event syntax error: '..sdt_example:read'"): quoted, it
# is the name.
# perf stat: 5 opens of /proc/marker-example, 5 hits of subsys_open;
# 3 reads of /proc/sdt-example, 3 hits of sdt_example:read.
perf stat -x, -e markers:subsys_open -e "sdt_sdt_example:'read'" -o /tmp/perf-stat -- \
	sh -c 'for i in 1 2 3 4 5; do cat /proc/marker-example; done > /dev/null
	       for i in 1 2 3; do dd if=/proc/sdt-example bs=13 count=1 2> /dev/null; done' ||
	fail "perf stat: $(cat /tmp/perf-stat)"
cat /tmp/perf-stat
expect_eq "perf stat subsys_open" "$(grep ',markers:subsys_open,' /tmp/perf-stat | cut -d, -f1)" 5
expect_eq "perf stat sdt read" "$(grep ',sdt_sdt_example:read,' /tmp/perf-stat | cut -d, -f1)" 3

# perf record + perf script: 3 records of each, the typed fields printed
# by libtraceevent from the events' format (the SDT event's arg2 is
# read()'s count: dd's block size).
perf record -q -o /tmp/perf.data -e markers:subsys_open -e "sdt_sdt_example:'read'" -- \
	sh -c 'for i in 1 2 3; do cat /proc/marker-example; dd if=/proc/sdt-example bs=13 count=1 2> /dev/null; done > /dev/null' \
	> /tmp/perf-record 2>&1 || fail "perf record: $(tail -n 3 /tmp/perf-record)"
perf script -i /tmp/perf.data > /tmp/perf-script 2> /tmp/perf-script.err ||
	fail "perf script: $(tail -n 3 /tmp/perf-script.err)"
head -n 2 /tmp/perf-script
expect_eq "perf script subsys_open" \
	"$(grep -c ' markers:subsys_open: pid [0-9][0-9]* comm cat$' /tmp/perf-script)" 3
expect_eq "perf script sdt read" \
	"$(grep -c ' sdt_sdt_example:read: .*arg2=13 ' /tmp/perf-script)" 3
expect_eq "perf script records" "$(grep -c . /tmp/perf-script)" 6

# perf gone, the sites are dormant again.
grep -q '^subsys_open mark .* dormant 0 ' $L || fail "subsys_open still armed: $(grep ^subsys_open $L)"
wait_listing sdt_example:read ' dormant 0 ' || fail "sdt_example:read still armed: $(grep sdt_example:read $L)"
rmmod sdt_example marker_example
