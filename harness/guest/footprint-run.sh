#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The run-time memory of a site of each kind (harness/footprint.sh --run,
# for make bench): for each kind, load its module without sites and its
# module with $N sites (/extra/fp_KIND_0.ko, /extra/fp_KIND_N.ko), then
# enable the sites' trace events (their first use: MARK() and SDT names
# through the markers control file, TRACE_EVENTs and DEFINE_EVENTs through
# tracefs; a bare tracepoint has no event; pr_debug() sites through the
# control file, which indexes them, when their modules are there).
# Prints, in kB, what slab and per-CPU memory gained at each load, and
# what slab, per-CPU and vmalloc memory gained at first use
# (/proc/meminfo, its per-CPU counters folded first; page-granular, hence
# the many sites), as "footprint_run KIND SITES load_kb L use_kb U".
T=/sys/kernel/tracing
C=/sys/kernel/debug/markers/control
N=$(ls /extra/fp_mark2_*.ko | sed 's/.*_\([0-9]*\)\.ko/\1/' | sort -n | tail -1)
# The counters folded from every CPU first (vm.stat_refresh).
mem() {
	echo 1 > /proc/sys/vm/stat_refresh
	awk '/^(Slab|Percpu):/ { n += $2 } END { print n }' /proc/meminfo
}
used() {
	echo 1 > /proc/sys/vm/stat_refresh
	awk '/^(Slab|Percpu|VmallocUsed):/ { n += $2 } END { print n }' /proc/meminfo
}
settle() { sync; sleep 2; }
# The ring buffer grows on the first event enabled: now, not in a row.
echo "$(sed 's/.*expanded: \([0-9]*\).*/\1/' $T/buffer_size_kb)" > $T/buffer_size_kb
for k in mark2 sdt1 trace_event define_event declare_trace pr_debug; do
	[ -f /extra/fp_${k}_0.ko ] || continue
	for n in 0 $N; do
		settle
		m0=$(mem)
		insmod /extra/fp_${k}_$n.ko || { echo "footprint_run: insmod fp_${k}_$n failed"; exit 1; }
		settle
		m1=$(mem)
		u0=$(used)
		case $k in
		mark*) [ "$n" = 0 ] || echo "enable name fp_m*" > $C ;;
		sdt*) [ "$n" = 0 ] || echo "enable name fp:*" > $C ;;
		pr_debug) [ "$n" = 0 ] || echo "enable name fp_pr_debug_$n.*" > $C ;;
		trace_event | define_event)
			[ ! -d $T/events/fp_${k}_$n ] || echo 1 > $T/events/fp_${k}_$n/enable ;;
		esac || { echo "footprint_run: enabling fp_${k}_$n's sites was refused"; exit 1; }
		settle
		u1=$(used)
		echo "footprint_run $k $n load_kb $((m1 - m0)) use_kb $((u1 - u0))"
	done
	echo "disable name fp_*" > $C 2>/dev/null
	echo "disable name fp_*.*" > $C 2>/dev/null
	echo 0 > $T/events/enable
	for n in 0 $N; do
		rmmod fp_${k}_$n
	done
done
