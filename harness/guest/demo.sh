#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The `make demo` guest job: the markers subsystem at work.
L=/sys/kernel/debug/markers/list
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
# run CMD [REGEX...]: show CMD and its output; it must exit 0, and each
# REGEX (grep -E) must match a line of its output. run_err CMD: CMD must
# fail. Each command that does not do what the demo shows is counted,
# and the demo exits 1 at the end (make check runs it: guest/56-demo).
nbad=0 nrun=0
run() {
	_c=$1
	shift
	echo "# $_c"
	nrun=$((nrun + 1))
	_o=$(sh -c "$_c" 2>&1)
	_rc=$?
	[ -z "$_o" ] || printf '%s\n' "$_o"
	if [ $_rc != 0 ]; then
		echo "DEMO-FAIL: exit status $_rc: $_c"
		nbad=$((nbad + 1))
		return
	fi
	for _re in "$@"; do
		printf '%s\n' "$_o" | grep -Eq -- "$_re" && continue
		echo "DEMO-FAIL: no line matches '$_re': $_c"
		nbad=$((nbad + 1))
	done
}
run_err() {
	echo "# $1"
	nrun=$((nrun + 1))
	if sh -c "$1"; then
		echo "DEMO-FAIL: it succeeded: $1"
		nbad=$((nbad + 1))
	fi
}
# done_demo: the tally, and the demo's exit status.
done_demo() {
	echo "demo: $nrun commands, $nbad did not do what the demo shows"
	exit $((nbad > 0))
}
P=/lib/modules/$(uname -r)/kernel/samples/markers/probe-example.ko
# x86_64 or aarch64 (make demo ARCH=arm64): arm64 arms SDT sites with a
# branch to their thunks (or a BRK kprobe), has no optimized kprobes, and
# boots without the host's perf and bpftrace.
M=$(uname -m)

step "Linux $(uname -r) under QEMU, $(nproc) CPUs"
step "The marker sites of vmlinux ($L)"
run "cat $L" '^# name kind' ' mark '
step "Load the sample with markers behind /proc/marker-example"
run "modprobe marker-example"
run "grep -E '^#|subsys_' $L" '^subsys_open mark .* dormant '
step "A probe whose format does not match is refused (EPERM)"
run_err "insmod $P name=subsys_read 'format=\"%s\"'"
step "Attach probe-example to subsys_open, with a format it checks"
run "insmod $P name=subsys_open 'format=\"pid %d comm %s\"'"
run "grep subsys_open $L" ' armed 1 '
step "Fire the markers: open and read /proc/marker-example"
run "cat /proc/marker-example"
run "cat /proc/marker-example"
run "dmesg | grep probe_example" 'probe_example: subsys_open: pid [0-9]+ comm cat'
step "Unload the sample under the probe: the probe stays, pending"
run "rmmod marker_example"
run "grep subsys_open $L" '^subsys_open - .* pending 1 '
run "rmmod probe_example"
step "The listing again"
run "grep -c . $L" '^[0-9]+$'
run "grep -E 'subsys_' $L || echo '(no sample sites)'"

S=/lib/modules/$(uname -r)/kernel/samples/markers/sdt-probe-example.ko
step "SDT sites: one NOP each, with a spec of where each argument lives"
run "modprobe sdt-example"
run "grep -E '^#| sdt ' $L" '^sdt_example:types sdt .* dormant '
run "cat /sys/kernel/debug/markers/sdt_mechanism" 'thunk'
step "Attach sdt-probe-example to sdt_example:types (8 arguments)"
run "insmod $S name=types nargs=8"
run "sleep 1; grep sdt_example:types $L" ' (thunk|call) 1 '
run "cat /proc/sdt-example"
run "dmesg | grep 'sdt_probe_example: sdt_example:types'" 'sdt_example:types'
# The mechanism applies to sites armed after the change: the probe is
# attached again under it.
MECH=/sys/kernel/debug/markers/sdt_mechanism
OPT=/proc/sys/debug/kprobes-optimization
if [ "$M" = x86_64 ]; then
	step "The same through an int3 kprobe (kprobe mechanism, optimization off)"
else
	step "The same through a BRK kprobe (kprobe mechanism)"
fi
run "rmmod sdt_probe_example"
run "echo kprobe > $MECH"
[ ! -e $OPT ] || run "echo 0 > $OPT"
run "insmod $S name=types nargs=8"
run "sleep 1; grep sdt_example:types $L" ' kprobe 1 '
run "cat /proc/sdt-example"
run "dmesg | grep 'sdt_probe_example: sdt_example:types' | tail -n 1" 'sdt_example:types'
[ ! -e $OPT ] || run "echo 1 > $OPT"
run "echo thunk > $MECH"
run "rmmod sdt_probe_example"

C=/sys/kernel/debug/markers/control
step "No module needed: enable markers by glob in $C"
run "modprobe marker-example"
run "echo 'enable name subsys_*; enable name sdt_example:read' > $C"
run "grep -E '^(subsys_open|sdt_example:read) ' $L" '^subsys_open mark .* armed ' '^sdt_example:read sdt .* (thunk|call) '
run "echo > /sys/kernel/tracing/trace"
run "cat /proc/marker-example; cat /proc/sdt-example"
run "grep -v '^#' /sys/kernel/tracing/trace" 'subsys_open: pid [0-9]+ comm cat$' ' read: '
step "Disable them: no new lines"
run "echo 'disable name *' > $C"
run "echo > /sys/kernel/tracing/trace"
run "cat /proc/marker-example; grep -v '^#' /sys/kernel/tracing/trace | wc -l" '^ *0$'
run_err "echo 'enable name no_such_*' > $C"

E=/sys/kernel/tracing/events/markers
step "Markers are trace events: typed fields, a filter, a histogram"
run "cat $E/subsys_read/format" 'field:size_t count;' 'field:long long pos;'
run "echo > /sys/kernel/tracing/trace"
run "echo 'count > 1' > $E/subsys_read/filter"
run "echo 'hist:keys=count:vals=hitcount' > $E/subsys_read/trigger"
run "echo 1 > $E/subsys_read/enable"
run "cat /proc/marker-example > /dev/null; head -c 1 /proc/marker-example > /dev/null"
run "dd if=/proc/marker-example bs=7 count=1 2> /dev/null > /dev/null"
run "grep -v '^#' /sys/kernel/tracing/trace" 'subsys_read: count 7 pos 0$'
run "cat $E/subsys_read/hist" 'Hits: [1-9]'
run "echo 0 > $E/subsys_read/enable; echo '!hist:keys=count:vals=hitcount' > $E/subsys_read/trigger; echo 0 > $E/subsys_read/filter"
if [ "$M" != x86_64 ]; then
	run "rmmod sdt_example marker_example"
	step "Debian's perf and bpftrace: make demo on x86_64 (this image has none for $M)"
	done_demo
fi
step "Debian's perf and bpftrace on marker events"
run "perf stat -e markers:subsys_open -e sdt_sdt_example:types -- sh -c 'cat /proc/marker-example /proc/sdt-example > /dev/null' 2>&1 | grep -E 'markers|sdt_'" '^ *1 +markers:subsys_open' '^ *[1-9][0-9]* +sdt_sdt_example:types'
run "bpftrace -e 'tracepoint:markers:subsys_open { @[str(args->comm)] = count(); }' -c 'cat /proc/marker-example' 2> /dev/null | grep '@'" '^@\[cat\]: 1$'
run "rmmod sdt_example marker_example"
done_demo
