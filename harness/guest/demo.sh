#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The `make demo` guest job: the markers subsystem at work.
L=/sys/kernel/debug/markers/list
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
run() { echo "# $*"; sh -c "$*"; }
P=/lib/modules/$(uname -r)/kernel/samples/markers/probe-example.ko
# x86_64 or aarch64 (make demo ARCH=arm64): arm64 arms SDT sites with a
# branch to their thunks (or a BRK kprobe), has no optimized kprobes, and
# boots without the host's perf and bpftrace.
M=$(uname -m)

step "Linux $(uname -r) under QEMU, $(nproc) CPUs"
step "The marker sites of vmlinux ($L)"
run "cat $L"
step "Load the sample with markers behind /proc/marker-example"
run "modprobe marker-example"
run "grep -E '^#|subsys_' $L"
step "A probe whose format does not match is refused (EPERM)"
run "insmod $P name=subsys_read 'format=\"%s\"'"
step "Attach probe-example to subsys_open, with a format it checks"
run "insmod $P name=subsys_open 'format=\"pid %d comm %s\"'"
run "grep subsys_open $L"
step "Fire the markers: open and read /proc/marker-example"
run "cat /proc/marker-example"
run "cat /proc/marker-example"
run "dmesg | grep probe_example"
step "Unload the sample under the probe: the probe stays, pending"
run "rmmod marker_example"
run "grep subsys_open $L"
run "rmmod probe_example"
step "The listing again"
run "grep -c . $L"
run "grep -E 'subsys_' $L || echo '(no sample sites)'"

S=/lib/modules/$(uname -r)/kernel/samples/markers/sdt-probe-example.ko
step "SDT sites: one NOP each, with a spec of where each argument lives"
run "modprobe sdt-example"
run "grep -E '^#| sdt ' $L"
run "cat /sys/kernel/debug/markers/sdt_mechanism"
step "Attach sdt-probe-example to sdt_example:types (8 arguments)"
run "insmod $S name=types nargs=8"
run "sleep 1; grep sdt_example:types $L"
run "cat /proc/sdt-example"
run "dmesg | grep 'sdt_probe_example: sdt_example:types'"
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
run "sleep 1; grep sdt_example:types $L"
run "cat /proc/sdt-example"
run "dmesg | grep 'sdt_probe_example: sdt_example:types' | tail -n 1"
[ ! -e $OPT ] || run "echo 1 > $OPT"
run "echo thunk > $MECH"
run "rmmod sdt_probe_example"

C=/sys/kernel/debug/markers/control
step "No module needed: enable markers by glob in $C"
run "modprobe marker-example"
run "echo 'enable name subsys_*; enable name sdt_example:read' > $C"
run "grep -E ' armed | call ' $C"
run "cat /proc/marker-example; cat /proc/sdt-example"
run "grep -v '^#' /sys/kernel/tracing/trace"
step "Disable them: no new lines"
run "echo 'disable name *' > $C"
run "cat /proc/marker-example; grep -vc '^#' /sys/kernel/tracing/trace"
run "echo 'enable name no_such_*' > $C"

E=/sys/kernel/tracing/events/markers
step "Markers are trace events: typed fields, a filter, a histogram"
run "cat $E/subsys_read/format"
run "echo > /sys/kernel/tracing/trace"
run "echo 'count > 1' > $E/subsys_read/filter"
run "echo 'hist:keys=count:vals=hitcount' > $E/subsys_read/trigger"
run "echo 1 > $E/subsys_read/enable"
run "cat /proc/marker-example > /dev/null; head -c 1 /proc/marker-example > /dev/null"
run "dd if=/proc/marker-example bs=7 count=1 2> /dev/null > /dev/null"
run "grep -v '^#' /sys/kernel/tracing/trace"
run "cat $E/subsys_read/hist"
run "echo 0 > $E/subsys_read/enable; echo '!hist:keys=count:vals=hitcount' > $E/subsys_read/trigger"
if [ "$M" != x86_64 ]; then
	run "rmmod sdt_example marker_example"
	step "Debian's perf and bpftrace: make demo on x86_64 (this image has none for $M)"
	exit 0
fi
step "Debian's perf and bpftrace on marker events"
run "perf stat -e markers:subsys_open -e sdt_sdt_example:types -- sh -c 'cat /proc/marker-example /proc/sdt-example > /dev/null' 2>&1 | grep -E 'markers|sdt_'"
run "bpftrace -e 'tracepoint:markers:subsys_open { @[str(args->comm)] = count(); }' -c 'cat /proc/marker-example' 2> /dev/null | grep '@'"
run "rmmod sdt_example marker_example"
exit 0
