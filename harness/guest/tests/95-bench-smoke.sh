# SPDX-License-Identifier: GPL-2.0
# A short run of the benchmark (make bench): every row produces a number,
# and the arming latencies come out. Asserts no timing.
. /harness/lib.sh

ITERS=200 RUNS=3 sh /harness/bench.sh > /tmp/bench.out 2>&1 || { cat /tmp/bench.out; fail "bench.sh"; }
for r in a b c d e f g h i j k K; do
	grep -q "marker_bench: row $r median [0-9.]* min [0-9.]* max [0-9.]* ns" /tmp/bench.out ||
		fail "row $r: no figure"
done
expect_eq "latency lines" "$(grep -c 'marker_bench: latency sites [0-9]* arm [0-9]* us' /tmp/bench.out)" "3"
grep -q 'latency sites 1000 ' /tmp/bench.out || fail "the 1000-site name does not have 1000 sites"
exit 0
