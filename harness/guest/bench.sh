#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The `make bench` guest job: every row of marker-bench in one boot (row i
# with kprobe optimization off, row k after enabling its marker from the
# control file), then arming latency. ITERS and RUNS come from /extra/env.
[ -f /extra/bench.env ] && . /extra/bench.env
B=/lib/modules/$(uname -r)/kernel/samples/markers/marker-bench.ko
P=/sys/module/marker_bench/parameters/run
C=/sys/kernel/debug/markers/control
ITERS=${ITERS:-20000}
RUNS=${RUNS:-7}
set -e
insmod $B iters=$ITERS runs=$RUNS rows=abcdefghj
echo 'enable name marker_bench_k' > $C
echo k > $P
echo 'disable name marker_bench_k' > $C
echo 0 > /proc/sys/debug/kprobes-optimization
echo i > $P
echo 1 > /proc/sys/debug/kprobes-optimization
rmmod marker_bench
insmod $B rows= latency=1
rmmod marker_bench
dmesg | grep 'marker_bench: '
