# SPDX-License-Identifier: GPL-2.0
# Dynamic debug sites as marker sites (CONFIG_MARKERS_DYNDBG): the listing
# shows every one of them (as many as /proc/dynamic_debug/control); a
# key is indexed when asked for; the control file turns a module's
# pr_debug()s into typed events (dyndbg_<module>/<function>[__N]) whose
# fields read back exactly, filter and histogram; "p" and the event at
# once give both the line and the record, and "-p" leaves the site armed;
# a probe module attaches by key; dynamic_events makes a user's event of
# one; the events outlive their module and are armed again when it comes
# back; the control file selects them by file and line too; dynamic
# debug's own flags are never touched.
. /harness/lib.sh

T=/sys/kernel/tracing
E=$T/events
L=/sys/kernel/debug/markers/list
C=/sys/kernel/debug/markers/control
D=/proc/dynamic_debug/control
G=$E/dyndbg_marker_example
K=marker_example.marker_example
records() { grep -v '^#' $T/trace | grep -c "$1"; }
# A read of COUNT bytes from /proc/marker-example, by a process of its own.
read_n() { dd if=/proc/marker-example of=/dev/null bs="$1" count=1 2> /dev/null; }

[ -f $D ] || fail "no $D: the kernel has no CONFIG_DYNAMIC_DEBUG"
modprobe marker-example || fail "modprobe marker-example"

# Every site is listed, indexed or not: as many as dynamic debug has.
nd=$(grep -vc '^#' $D)
expect_eq "dyndbg sites listed" "$(grep -c '^[^ ]* dyndbg "' $L)" "$nd"
[ "$nd" -gt 3 ] || fail "only $nd dynamic debug sites"
grep -qx "$K"'_open dyndbg "open pid %d comm %s\\n" marker_example_open \[marker_example\] dormant 0 0 -' $L ||
	fail "open: $(grep "^${K}_open " $L)"
grep -q "^${K}_open.2 dyndbg \"open flags %#x\\\\n\" " $L || fail "open.2: $(grep "^${K}_open" $L)"
grep -q "^${K}_read dyndbg \"read count %zu pos %lld comm %s pid %d mode %u ino %llx file %p\\\\n\" " $L ||
	fail "read: $(grep "^${K}_read " $L)"
[ -d $G ] && fail "events of dyndbg sites made before they were asked for"

# A site whose format printk renders from memory at the pointer (%*ph)
# has no event, and the listing says why; enabling it is refused and
# changes nothing.
k2=$(grep -m1 '^[^ ]* dyndbg "[^"]*%\*ph' $L | cut -d' ' -f1)
[ -n "$k2" ] || fail "no dynamic debug site with %*ph in the listing"
grep -qxF "# $k2: no trace event: format_reads_memory" $L || fail "no reason: $(grep -F "$k2" $L)"
echo "enable name $k2 to trace" 2> /dev/null > $C && fail "$k2 enabled to trace"
awk -v k="$k2" '$1 == k && ($2 != "dyndbg" || !/ dormant 0 0 -$/) { n++ } $1 == k { m++ }
	END { exit !(m && !n) }' $L || fail "$k2 after the refusal: $(grep -F "$k2" $L)"
flags=$(grep '\[marker_example\]' $D)

# The control file asks: the module's three sites get events, enabled.
step_mark "enable name marker_example.* to trace"
echo 'enable name marker_example.* to trace' > $C || fail "enable the module's pr_debug()s"
for e in marker_example_open marker_example_open__2 marker_example_read; do
	expect_eq "$e enabled" "$(cat $G/$e/enable 2>&1)" 1
done
expect_eq "armed sites" "$(grep -c "^$K.* dyndbg .* armed 1 " $L)" 3
expect_eq "dynamic debug's flags" "$(grep '\[marker_example\]' $D)" "$flags"
F=$G/marker_example_read/format
for f in 'size_t count;.*size:8;	signed:0;' 'long long pos;.*size:8;	signed:1;' \
	'__data_loc char\[\] comm;' 'int pid;.*size:4;	signed:1;' \
	'unsigned int mode;.*size:4;	signed:0;' 'unsigned long long ino;.*size:8;	signed:0;' \
	'void \* file;'; do
	grep -q "field:$f" $F || fail "field $f: $(cat $F)"
done
grep -qx 'print fmt: "read count %zu pos %lld comm %s pid %d mode %u ino %llx file %p\\n", REC->count, REC->pos, __get_str(comm), REC->pid, REC->mode, REC->ino, REC->file' $F ||
	fail "print fmt: $(grep 'print fmt' $F)"

# The fields read back exactly: the reader's pid, the file's mode and inode.
echo > $T/trace
sh -c 'echo $$ > /tmp/dd.pid; exec dd if=/proc/marker-example of=/dev/null bs=7 count=1 2> /dev/null'
pid=$(cat /tmp/dd.pid)
ino=$(printf %x "$(stat -c %i /proc/marker-example)")
mode=$(printf %u "0x$(stat -c %f /proc/marker-example)")
expect_eq "read record" "$(records "marker_example_read: read count 7 pos 0 comm dd pid $pid mode $mode ino $ino file ")" 1
expect_eq "open records" "$(records "marker_example_open: open pid $pid comm dd$")" 1
expect_eq "open.2 records" "$(records 'marker_example_open__2: open flags 0x[0-9a-f]*$')" 1
step_dmesg | grep -q 'marker_example: read count' && fail "printed without p"

# A filter on an integer field, and a histogram of it.
echo > $T/trace
echo 'count == 7' > $G/marker_example_read/filter || fail "filter"
read_n 7; read_n 9; read_n 7
expect_eq "filtered records" "$(records 'marker_example_read: read count 7 ')" 2
expect_eq "unfiltered records" "$(records 'marker_example_read: ')" 2
echo 0 > $G/marker_example_read/filter
echo 'hist:keys=count' > $G/marker_example_read/trigger || fail "hist trigger"
read_n 7; read_n 9; read_n 9
H=$G/marker_example_read/hist
grep -q '{ count:          7 } hitcount:          1' $H || fail "hist: $(cat $H)"
grep -q '{ count:          9 } hitcount:          2' $H || fail "hist: $(cat $H)"
echo '!hist:keys=count' > $G/marker_example_read/trigger

# "p" and the event at once: the line and the record; "-p" leaves it armed.
echo 8 > /proc/sys/kernel/printk
echo 'module marker_example +p' > $D || fail "+p"
step_mark "+p"
echo > $T/trace
read_n 5
step_dmesg | grep -q 'marker_example: read count 5 pos 0 comm dd ' || fail "no line with +p: $(step_dmesg)"
expect_eq "records with +p" "$(records 'marker_example_read: read count 5 ')" 1
echo 'module marker_example -p' > $D || fail "-p"
step_mark "-p"
read_n 6
expect_eq "records after -p" "$(records 'marker_example_read: read count 6 ')" 1
step_dmesg | grep -q 'marker_example: read count 6' && fail "a line after -p"
grep -q "^${K}_read dyndbg .* armed 1 " $L || fail "-p disarmed: $(grep "^${K}_read " $L)"
echo 'module marker_example =_' > $D
expect_eq "armed after =_" "$(grep -c "^$K.* dyndbg .* armed 1 " $L)" 3

# A probe by key, beside the event; a user's event in dynamic_events.
step_mark "probe_example"
insmod /lib/modules/$(uname -r)/kernel/samples/markers/probe-example.ko \
	name=marker_example.marker_example_open.2 format= || fail "probe_example by key"
echo 'm:dd/myread marker_example.marker_example_read' >> $T/dynamic_events || fail "m: event"
echo 1 > $E/dd/myread/enable
echo > $T/trace
read_n 3
step_dmesg | grep -q 'probe_example: marker_example.marker_example_open.2: open flags 0x[0-9a-f]*$' ||
	fail "probe_example: $(step_dmesg)"
expect_eq "user event records" "$(records 'myread: read count 3 ')" 1
echo 0 > $E/dd/myread/enable
echo '-:dd/myread' >> $T/dynamic_events || fail "remove m: event"
rmmod probe_example

# The module goes with its events enabled: they stay; it comes back: armed.
rmmod marker_example || fail "rmmod marker_example"
grep -q "^${K}_read " $L || fail "no pending line for the read key"
[ -d $G/marker_example_read ] || fail "the used event went with its module"
modprobe marker-example || fail "modprobe marker-example again"
expect_eq "armed again" "$(grep -c "^$K.* dyndbg .* armed 1 " $L)" 3
echo > $T/trace
read_n 4
expect_eq "records after reload" "$(records 'marker_example_read: read count 4 ')" 1

# Loaded and unloaded DYNDBG_RELOADS times (40; 500 in make stress) with
# the events on (KASAN and kmemleak watch); a read in every tenth life is
# recorded.
ko=/lib/modules/$(uname -r)/kernel/samples/markers/marker-example.ko
echo > $T/trace
reloads=${DYNDBG_RELOADS:-40}
for i in $(seq $reloads); do
	rmmod marker_example && insmod "$ko" || fail "reload $i"
	[ $((i % 10)) = 0 ] && read_n 1
done
expect_eq "armed after reloads" "$(grep -c "^$K.* dyndbg .* armed 1 " $L)" 3
expect_eq "records in the reloads" "$(records 'marker_example_read: read count 1 ')" $((reloads / 10))

# Off: dormant, and dynamic debug's flags as they were.
echo 'disable name marker_example.* to trace' > $C || fail "disable"
expect_eq "armed after disable" "$(grep -c "^$K.* dyndbg .* armed " $L)" 0
echo > $T/trace
read_n 2
expect_eq "records after disable" "$(records 'marker_example_read:')" 0

# By place, with dynamic debug's query words: "file" (a glob on the path
# or on its last part) and "line" (N or N-M).
ln=$(sed -n 's/^[^:]*:\([0-9]*\) \[marker_example\]marker_example_read .*/\1/p' $D)
[ -n "$ln" ] || fail "no line of marker_example_read in $D"
echo "enable name * file marker-example.c line $ln to trace" > $C ||
	fail "enable by file and line $ln"
expect_eq "armed by file and line" "$(grep "^$K.* dyndbg .* armed 1 " $L | cut -d' ' -f1)" "${K}_read"
echo "enable name * file samples/markers/marker-e*.c line 1-$ln" > $C ||
	fail "enable by path and lines"
expect_eq "armed by path and lines" "$(grep -c "^$K.* dyndbg .* armed 1 " $L)" 3
echo "disable name * file */marker-example.c" > $C || fail "disable by file"
expect_eq "armed after disable by file" "$(grep -c "^$K.* dyndbg .* armed " $L)" 0
echo "enable name * file nothing.c" > $C 2> /dev/null && fail "a file with no site taken"
echo "enable name *.* file marker-example.c line 1" > $C 2> /dev/null &&
	fail "a line with no site taken"
expect_eq "dynamic debug's flags at the end" "$(grep '\[marker_example\]' $D)" "$flags"
rmmod marker_example
exit 0
