#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The `make bench` guest job: every row of marker-bench in one boot (the
# SDT trampoline and kprobe rows after switching the SDT mechanism, on
# x86_64; the int3 one with kprobe optimization off; the event rows after
# enabling their events, the BPF rows with marker-perf attaching their
# programs), then arming. On arm64, the rows it has (see marker-bench.c).
# ITERS and RUNS may come from /extra/bench.env.
[ -f /extra/bench.env ] && . /extra/bench.env
B=/lib/modules/$(uname -r)/kernel/samples/markers/marker-bench.ko
P=/sys/module/marker_bench/parameters/run
M=/sys/kernel/debug/markers/sdt_mechanism
ITERS=${ITERS:-20000}
RUNS=${RUNS:-7}
set -e
insmod $B iters=$ITERS runs=$RUNS rows=all arming=1
if [ "$(uname -m)" = x86_64 ]; then
	echo call > $M
	echo sdt_call_1arg,sdt_call_4args,sdt_call_12args > $P
	echo kprobe > $M
	echo sdt_optprobe_1arg > $P
	echo 0 > /proc/sys/debug/kprobes-optimization
	echo sdt_int3_1arg > $P
	echo 1 > /proc/sys/debug/kprobes-optimization
	echo thunk > $M
else
	# arm64: no trampoline, and kprobes are never optimized: the
	# module says why it skips those rows (and the per-CPU operand's).
	echo sdt_call_1arg,sdt_call_4args,sdt_call_12args > $P
	echo kprobe > $M
	echo sdt_optprobe_1arg > $P
	echo sdt_int3_1arg > $P
	echo thunk > $M
fi
E=/sys/kernel/tracing/events
for r in mark_event:markers/marker_bench_k trace_event:marker_bench/marker_bench_ev \
	 sdt_event:sdt_marker_bench/sdt_k; do
	echo 1 > $E/${r#*:}/enable
	echo ${r%%:*} > $P
	echo 0 > $E/${r#*:}/enable
done
# BPF: the same program on the marker event and on the TRACE_EVENT, and
# on its raw tracepoint (harness/tools/marker-perf.c).
# A program that did not attach or never ran fails the job: the row
# would time the bare event.
T=/extra/marker-perf
$T bench markers/marker_bench_k v bpf_mark_event || exit 1
$T bench marker_bench/marker_bench_ev v bpf_trace_event || exit 1
$T bench-raw marker_bench_ev bpf_raw_tp || exit 1
# The same raw program by marker name and by SDT key (kernel/markers/bpf.c).
$T bench-raw marker_bench_k bpf_mark_raw || exit 1
$T bench-raw marker_bench:sdt_k bpf_sdt_raw || exit 1
# A pr_debug() to its trace event: the control file indexes its key and
# enables the event.
C=/sys/kernel/debug/markers/control
echo 'enable name marker_bench.fn_dyndbg to trace' > $C
echo dyndbg_event > $P
echo 'disable name marker_bench.fn_dyndbg to trace' > $C
# The memory of thunks: arm the SDT keys with 1, 100 and 1000 sites, one
# after the other (1, 101, 1101 sites armed), by their trace events (each
# site its thunk), and count the pages their thunks are in
# (/proc/kallsyms): a pack is a page of execmem.
L=/sys/kernel/debug/markers/list
for n in 1 100 1000; do
	echo "enable name marker_bench:many_$n" > $C
	k="marker_bench:many_\(1\|100\|1000\) "
	s=$(grep -c "^$k.* thunk " $L || true)
	# A thunk's page: its address but the last 3 hex digits.
	packs=$(grep ' sdt_thunk_marker_bench_many_' /proc/kallsyms |
		cut -c1-13 | sort -u | wc -l)
	echo "marker_bench: thunk_memory sites $s packs $packs" > /dev/kmsg
done
echo 'disable name marker_bench:many_*' > $C
# The pr_debug() printed, with the console at a level that drops it: its
# lines would push the other rows out of the log, kept first.
R=/tmp/bench-rows.$$
dmesg | grep 'marker_bench: ' > $R
echo 1 > /proc/sys/kernel/printk
echo 'func fn_dyndbg +p' > /proc/dynamic_debug/control
echo dyndbg_printk > $P
echo 'func fn_dyndbg -p' > /proc/dynamic_debug/control
dmesg | grep 'marker_bench: row dyndbg_printk ' >> $R
rmmod marker_bench
cat $R
rm -f $R
