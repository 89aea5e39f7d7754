# SPDX-License-Identifier: GPL-2.0
# A short run of the benchmark (make bench) on the test kernel: every row
# produces a number, with each SDT mechanism; arming 1, 100 and 1000 sites,
# of a MARK() name and of a static key, reports its syncs and grace
# periods. Asserts no timing.
# On arm64 the per-CPU operand, trampoline and optimized kprobe rows must
# say that they are skipped, and why (marker-bench.c bench_arch_why()).
. /harness/lib.sh

X86_ROWS=" sdt_thunk_percpu sdt_call_1arg sdt_call_4args sdt_call_12args sdt_optprobe_1arg "
ARM64=
[ "$(uname -m)" = x86_64 ] || ARM64=1

ITERS=200 RUNS=3 sh /harness/bench.sh > /tmp/bench.log 2>&1 || { cat /tmp/bench.log; fail "bench.sh"; }
# bench.sh prints the benchmark's lines of the whole kernel log: keep this
# run's (an earlier insmod of marker-bench, 20-listing-counts', logs too).
step_dmesg | grep 'marker_bench: ' > /tmp/bench.out
for r in baseline mark_dormant sdt_dormant tracepoint_dormant tracepoint_armed \
	 tracepoint_armed_2probes mark_armed \
	 mark_armed_2probes sdt_thunk_1arg sdt_thunk_4args sdt_thunk_12args \
	 sdt_thunk_stack_arg sdt_thunk_percpu sdt_call_1arg sdt_call_4args sdt_call_12args sdt_optprobe_1arg \
	 sdt_int3_1arg kprobe_entry mark_event trace_event sdt_event trace_printk \
	 bpf_mark_event bpf_trace_event bpf_raw_tp bpf_mark_raw bpf_sdt_raw \
	 dyndbg_dormant dyndbg_event dyndbg_printk \
	 live_base tracepoint_dormant_live mark_dormant_live sdt_dormant_live \
	 tracepoint_armed_live mark_armed_live sdt_armed_live; do
	if [ $ARM64 ] && [ "${X86_ROWS#* $r }" != "$X86_ROWS" ]; then
		grep -q "marker_bench: row $r skipped: ." /tmp/bench.out ||
			fail "row $r: not skipped on $(uname -m)"
		continue
	fi
	grep -q "marker_bench: row $r median [0-9.]* min [0-9.]* max [0-9.]* ns" /tmp/bench.out ||
		fail "row $r: no figure"
done
grep 'marker_bench: .*never ran\|marker_bench: rows .*: -' /tmp/bench.out && fail "a row whose probe did not run"
# The BPF rows timed their programs: each ran (marker-perf counts hits).
expect_eq "BPF programs that ran" "$(grep -c 'BPF on .*: hits [1-9]' /tmp/bench.log)" "5"
expect_eq "arming lines" "$(grep -c 'marker_bench: arming \(mark\|static_key\) sites [0-9]* arm_ns [0-9]* arm_syncs' /tmp/bench.out)" "6"
# GCC unrolls the benchmark's loops into 1000 sites; clang does not unroll
# a loop that holds an asm goto whole: it leaves one MARK() site, and
# unrolls the static key's loop by 4 (clang 19). Its count is its own.
for w in mark:marker_bench_1000 static_key:bench_key_1000; do
	if grep -q 'clang version' /proc/version; then
		grep -q "arming ${w%%:*} sites [1-9][0-9]\{0,2\} .*: ${w#*:}\$" /tmp/bench.out ||
			fail "clang: ${w#*:} has no sites, or 1000"
	elif [ $ARM64 ]; then
		# GCC 12 on arm64 copies the unrolled sites once more (1998
		# and 1999 of them): each copy is a site of the name.
		grep -q "arming ${w%%:*} sites [1-9][0-9]\{3\} .*: ${w#*:}\$" /tmp/bench.out ||
			fail "${w#*:} has fewer than 1000 sites"
	else
		grep -q "arming ${w%%:*} sites 1000 .*: ${w#*:}\$" /tmp/bench.out ||
			fail "${w#*:} does not have 1000 sites"
	fi
done
# Thunks share packs: the SDT keys' sites, armed by their thunks, take
# a page per 16 thunks or fewer (a page each before), whatever the
# compiler made of their loops.
expect_eq "thunk memory lines" "$(grep -c 'marker_bench: thunk_memory sites' /tmp/bench.out)" 3
l=$(grep 'marker_bench: thunk_memory sites' /tmp/bench.out | tail -1)
sites=$(echo "$l" | sed 's/.* sites \([0-9]*\) .*/\1/')
packs=$(echo "$l" | sed 's/.* packs \([0-9]*\).*/\1/')
echo "thunk memory: $l"
[ "$sites" -ge 3 ] || fail "thunk memory: $sites sites armed by a thunk"
[ "$packs" -ge 1 ] && [ "$packs" -le $(( (sites + 15) / 16 + 1 )) ] ||
	fail "thunk memory: $sites thunks in $packs pages"
expect_eq "SDT mechanism after the run" "$(cat /sys/kernel/debug/markers/sdt_mechanism)" thunk
exit 0
