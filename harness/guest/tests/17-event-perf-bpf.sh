# SPDX-License-Identifier: GPL-2.0
# A marker event for perf and BPF: perf_event_open(PERF_TYPE_TRACEPOINT)
# counts and samples markers/subsys_open with its pid field, and a
# BPF_PROG_TYPE_TRACEPOINT program attached with PERF_EVENT_IOC_SET_BPF
# reads the field and counts the hits (harness/tools/marker-perf.c), with
# exact counts. The probe goes when perf does.
. /harness/lib.sh

L=/sys/kernel/debug/markers/list
modprobe marker-example || fail "modprobe marker-example"
/extra/marker-perf perf markers/subsys_open pid 25 /proc/marker-example || fail "perf"
/extra/marker-perf bpf markers/subsys_open pid 17 /proc/marker-example || fail "bpf"
grep -q '^subsys_open mark .* dormant 0 ' $L || fail "still armed: $(grep ^subsys_open $L)"
rmmod marker_example
