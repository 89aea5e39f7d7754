# SPDX-License-Identifier: GPL-2.0
# Marker trace events in tracefs: one per name (markers/<name>) and per SDT
# provider:name (sdt_<provider>/<name>), appearing with their module;
# typed fields and a print fmt from the format; enable, filter, triggers
# (hist, stacktrace, snapshot), set_event, the group's enable, the
# control file's "to trace"; bad filters and triggers refused; no event
# for names whose sites disagree; a module unloaded while its event is
# enabled and read loses nothing.
. /harness/lib.sh

T=/sys/kernel/tracing
E=$T/events
L=/sys/kernel/debug/markers/list
C=/sys/kernel/debug/markers/control
trace_has() { grep -v '^#' $T/trace | grep -c "$1"; }
fire() { cat /proc/marker-example > /dev/null; }

# vmlinux's names are there from boot, a module's come with it (and, but
# for those used, go with it: see the end, and the fixture's below).
[ -d $E/markers/module_live ] || fail "no markers/module_live"
[ -d $E/sdt_module/live ] || fail "no sdt_module/live"
modprobe marker-example || fail "modprobe marker-example"
modprobe sdt-example || fail "modprobe sdt-example"
for e in subsys_open subsys_loop subsys_file subsys_read subsys_expensive; do
	[ -d $E/markers/$e ] || fail "no markers/$e"
done
for e in read types in_asm from_asm; do
	[ -d $E/sdt_sdt_example/$e ] || fail "no sdt_sdt_example/$e"
done

# Typed fields, named after the format, and the site's own print fmt.
F=$E/markers/subsys_open/format
grep -q '	field:int pid;	offset:8;	size:4;	signed:1;' $F || fail "pid field: $(cat $F)"
grep -q '	field:__data_loc char\[\] comm;	offset:12;	size:4;	signed:0;' $F || fail "comm field"
grep -qx 'print fmt: "pid %d comm %s", REC->pid, __get_str(comm)' $F || fail "print fmt: $(grep 'print fmt' $F)"
F=$E/markers/subsys_file/format
grep -q 'field:void \* file;' $F || fail "file field: $(cat $F)"
grep -q 'field:unsigned int flags;.*size:4;	signed:0;' $F || fail "flags field"
grep -q 'field:long long size;.*size:8;	signed:1;' $F || fail "size field"
grep -q 'field:size_t count;.*size:8;	signed:0;' $E/markers/subsys_read/format || fail "count field"
F=$E/markers/subsys_loop/format
grep -q 'field:int iteration;' $F || fail "iteration field: $(cat $F)"
grep -q 'field:unsigned int of;' $F || fail "of field"
F=$E/sdt_sdt_example/types/format
grep -q 'field:s64 arg0;.*size:8;	signed:1;' $F || fail "sdt arg0: $(cat $F)"
grep -q 'field:u64 arg1;.*size:8;	signed:0;' $F || fail "sdt arg1"

# enable: binary records, formatted when read.
echo > $T/trace
echo 1 > $E/markers/subsys_open/enable || fail "enable subsys_open"
grep -q '^subsys_open mark .* armed ' $L || fail "not armed: $(grep ^subsys_open $L)"
fire
expect_eq "subsys_open records" "$(trace_has "subsys_open: pid [0-9]* comm cat$")" 1
echo 0 > $E/markers/subsys_open/enable
grep -q '^subsys_open mark .* dormant ' $L || fail "still armed after disable"
fire
expect_eq "records after disable" "$(trace_has subsys_open:)" 1

# filter: by string glob and by value.
echo > $T/trace
echo 'comm ~ "ca*"' > $E/markers/subsys_open/filter || fail "filter comm"
echo 1 > $E/markers/subsys_open/enable
fire; head -c 1 /proc/marker-example > /dev/null
expect_eq "filtered on comm" "$(trace_has 'subsys_open: pid [0-9]* comm cat')" 1
expect_eq "head filtered out" "$(trace_has 'comm head')" 0
echo 'pid > 1000000' > $E/markers/subsys_open/filter || fail "filter pid"
fire
expect_eq "filtered on pid" "$(trace_has subsys_open:)" 1
write_expect_err $E/markers/subsys_open/filter 'nosuchfield == 1' 'Invalid argument'
write_expect_err $E/markers/subsys_open/filter 'pid > ' 'Invalid argument'
echo 0 > $E/markers/subsys_open/filter
echo 0 > $E/markers/subsys_open/enable

# Triggers: a histogram on a field, stacktrace, snapshot.
echo 'hist:keys=comm:vals=hitcount' > $E/markers/subsys_open/trigger || fail "hist trigger"
fire; fire; head -c 1 /proc/marker-example > /dev/null
H=$E/markers/subsys_open/hist
grep -q '{ comm: cat  *} hitcount:  *2$' $H || fail "hist cat: $(cat $H)"
grep -q '{ comm: head  *} hitcount:  *1$' $H || fail "hist head: $(cat $H)"
echo '!hist:keys=comm:vals=hitcount' > $E/markers/subsys_open/trigger
write_expect_err $E/markers/subsys_read/trigger 'hist:keys=nosuchfield' 'Invalid argument'
write_expect_err $E/markers/subsys_read/trigger 'nosuchtrigger' 'Invalid argument'
echo > $T/trace
echo 'stacktrace' > $E/markers/subsys_read/trigger || fail "stacktrace trigger"
echo 1 > $E/markers/subsys_read/enable
fire
grep -q 'marker_example_read' $T/trace || fail "no stack trace: $(tail -n 20 $T/trace)"
echo '!stacktrace' > $E/markers/subsys_read/trigger
echo 'snapshot:1' > $E/markers/subsys_read/trigger || fail "snapshot trigger"
fire
grep -q 'subsys_read: count [0-9]* pos 0' $T/snapshot || fail "no snapshot: $(tail -n 5 $T/snapshot)"
echo '!snapshot:0' > $E/markers/subsys_read/trigger
echo 0 > $E/markers/subsys_read/enable
echo 0 > $T/snapshot

# set_event, and the group's enable.
echo > $T/trace
echo 'markers:subsys_loop' > $T/set_event || fail "set_event"
expect_eq "enabled by set_event" "$(cat $E/markers/subsys_loop/enable)" 1
fire
expect_eq "subsys_loop records" "$(trace_has 'subsys_loop: iteration [0-2] of 3')" 3
echo > $T/set_event
echo 1 > $E/markers/enable || fail "markers/enable"
echo 1 > $E/sdt_sdt_example/enable || fail "sdt_sdt_example/enable"
echo > $T/trace
fire; cat /proc/sdt-example > /dev/null
for e in subsys_open subsys_loop subsys_file subsys_read subsys_expensive; do
	[ "$(trace_has " $e: ")" -ge 1 ] || fail "no $e record with the group enabled"
done
grep -q ' types: sdt_example:types arg0=-1 arg1=255 arg2=-2 arg3=65535 arg4=-3 arg5=4294967294 arg6=-4 arg7=18446744073709551615$' $T/trace ||
	fail "sdt types record: $(grep types: $T/trace)"
echo 0 > $E/markers/enable
echo 0 > $E/sdt_sdt_example/enable

# The control file's "to trace" is the event's enable.
echo 'enable name subsys_read to trace' > $C || fail "control enable"
expect_eq "enabled by the control file" "$(cat $E/markers/subsys_read/enable)" 1
echo 'disable name subsys_read' > $C || fail "control disable"
expect_eq "disabled by the control file" "$(cat $E/markers/subsys_read/enable)" 0

# No event for names whose sites disagree, and the listing says why.
insmod /lib/modules/$(uname -r)/extra/markers_fixture.ko || fail "insmod markers_fixture"
[ -d $E/markers/fixture_clash ] && fail "an event for fixture_clash"
[ -d $E/markers/fixture_intmax ] && fail "an event for fixture_intmax"
grep -qx '# fixture_clash: no trace event: sites_disagree_on_format' $L || fail "listing: $(grep fixture_clash $L)"
grep -qx '# fixture_intmax: no trace event: format_not_printable' $L || fail "listing: $(grep fixture_intmax $L)"
write_expect_err $C 'enable name fixture_clash to trace' 'Operation not permitted'
[ -d $E/sdt_fixture/init ] || fail "no sdt_fixture/init"
# Field names: a repeated one, a '*' width, common_*, none: argN.
F=$E/markers/fixture_fields/format
expect_eq "fixture_fields fields" "$(sed -n 's/^	field:\(.*\);	offset:.*/\1/p' $F | grep -v common_ | tr '\n' ',')" \
	"int arg0,int arg1,unsigned int y,int arg3,int arg4,int arg5,__data_loc char[] arg6,"
grep -qx 'print fmt: "x %d x %d y=%u %\*d common_pid %d: %s", REC->arg0, REC->arg1, REC->y, REC->arg3, REC->arg4, REC->arg5, __get_str(arg6)' $F ||
	fail "fixture_fields print fmt: $(grep 'print fmt' $F)"
rmmod markers_fixture
# Never used, its events go with it.
[ -d $E/sdt_fixture ] && fail "sdt_fixture stayed without sites"

# A module unloaded while its event is enabled, in two instances, one of
# them being read: the records stay readable, the event stays (it was
# used), enabling it with no site is harmless, and it serves the module
# again.
I=$T/instances/markers_rd
mkdir $I || fail "mkdir instance"
echo > $T/trace
echo 1 > $E/markers/subsys_open/enable
echo 1 > $I/events/markers/subsys_open/enable || fail "enable in the instance"
cat $I/trace_pipe > /tmp/pipe &
reader=$!
fire; fire
rmmod marker_example || fail "rmmod marker_example with its event enabled"
sleep 1
kill $reader
expect_eq "records kept" "$(trace_has 'subsys_open: pid [0-9]* comm cat')" 2
expect_eq "records read" "$(grep -c 'subsys_open: pid [0-9]* comm cat' /tmp/pipe)" 2
[ -d $E/markers/subsys_open ] || fail "a used event went with its sites"
echo 0 > $I/events/markers/subsys_open/enable
rmdir $I || fail "rmdir instance"
echo 0 > $E/markers/subsys_open/enable
echo 1 > $E/markers/subsys_open/enable || fail "enable with no site"
modprobe marker-example || fail "modprobe marker-example again"
echo > $T/trace
fire
expect_eq "records once back" "$(trace_has 'subsys_open: pid [0-9]* comm cat')" 1
echo 0 > $E/markers/subsys_open/enable
rmmod marker_example sdt_example
