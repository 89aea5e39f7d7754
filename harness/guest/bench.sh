#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The `make bench` guest job: every row of marker-bench in one boot, then
# the int3 row with kprobe optimization off, then arming latency.
B=/lib/modules/$(uname -r)/kernel/samples/markers/marker-bench.ko
ITERS=${ITERS:-20000}
RUNS=${RUNS:-7}
insmod $B iters=$ITERS runs=$RUNS rows=abcdefghjk && rmmod marker_bench
echo 0 > /proc/sys/debug/kprobes-optimization
insmod $B iters=$ITERS runs=$RUNS rows=i && rmmod marker_bench
echo 1 > /proc/sys/debug/kprobes-optimization
insmod $B rows= latency=1 && rmmod marker_bench
dmesg | grep 'marker_bench: '
