# SPDX-License-Identifier: GPL-2.0
# fprobes and BPF trampolines beside markers, on the function that holds
# the sites (fixture_coexist() of markers_fixture: a MARK(), a static key,
# an SDT site): fprobe events on its entry (with its argument) and exit,
# and Debian's bpftrace (run.sh -T) with a kfunc (fentry) and a kretfunc
# (fexit) program on it, while its MARK() and SDT sites are armed (the
# SDT site by a call, then by a kprobe), disarmed and armed again under
# them, and, in a second run, the function tracer on it as well. Exact
# counts for all: marker and SDT events, fprobe entry and exit events and
# the sum of their arguments, bpftrace's counts and sum, function entries,
# the fixture's runs. No splat; all gone and dormant at the end.
# needs: run.sh -T
. /harness/lib.sh

F=/sys/kernel/debug/markers_fixture
C=/sys/kernel/debug/markers/control
L=/sys/kernel/debug/markers/list
MECH=/sys/kernel/debug/markers/sdt_mechanism
T=/sys/kernel/tracing
D=$T/dynamic_events
N=6
command -v bpftrace > /dev/null || fail "no bpftrace in the initramfs (run.sh -T)"
[ -f /sys/kernel/btf/vmlinux ] || fail "no /sys/kernel/btf/vmlinux"
fixture_load
echo 1 > /sys/kernel/rcu_expedited
cd /tmp || fail "cd /tmp"

echo 'f:cxfp/entry fixture_coexist i=$arg1:u64' >> $D || fail "fprobe event on fixture_coexist"
echo 'f:cxfp/exit fixture_coexist%return' >> $D || fail "fprobe exit event on fixture_coexist"
echo 1 > $T/events/cxfp/enable || fail "enable the fprobe events"
echo 'enable name fixture_coexist; enable name fixture:coexist' > $C || fail "arm"
grep -q '^fixture_coexist mark .* armed 1 ' $L || fail "not armed: $(grep '^fixture_coexist ' $L)"
grep -q '^fixture:coexist sdt .* \(thunk\|call\) 1 ' $L || fail "not a call: $(grep '^fixture:coexist ' $L)"
expect_eq "armed otherwise" "$(sdt_misarmed fixture:coexist)" ""
echo > $T/trace

# A run of bpftrace over the script $1: kfunc counts the calls and sums
# their argument, kretfunc counts the returns.
bt() {
	rm -f /tmp/cx50.err
	bpftrace -e 'kfunc:markers_fixture:fixture_coexist { @n = count(); @s = sum(args->i); }
		     kretfunc:markers_fixture:fixture_coexist { @r = count(); }' \
		-c "sh $1" > /tmp/cx50.bt 2>&1 || fail "bpftrace: $(tail -n 5 /tmp/cx50.bt)"
	[ -f /tmp/cx50.err ] && fail "$(cat /tmp/cx50.err)"
	cat /tmp/cx50.bt
	bn=$(sed -n 's/^@n: //p' /tmp/cx50.bt)
	bs=$(sed -n 's/^@s: //p' /tmp/cx50.bt)
	br=$(sed -n 's/^@r: //p' /tmp/cx50.bt)
}
# What the fixture's N runs sum to (i from 0 to N - 1).
SUM=$((N * (N - 1) / 2))
fp_sum() { awk '/ entry: \(fixture_coexist\+0x0\/0x[0-9a-f]* \[markers_fixture\]\) i=[0-9]*$/ { sub(/.*i=/, ""); s += $0 } END { print s + 0 }' $T/trace; }
count() { grep -c "$1" $T/trace; }
check() {
	expect_eq "$1: runs" "$(sed -n 's/^runs \([0-9]*\) .*/\1/p' $F/coexist)" $R
	expect_eq "$1: bpftrace @n" "$bn" $2
	expect_eq "$1: bpftrace @s" "$bs" $(($2 * SUM / N))
	expect_eq "$1: bpftrace @r" "$br" $2
	expect_eq "$1: fprobe entries" "$(count ' entry: (fixture_coexist+0x0/')" $FP
	expect_eq "$1: fprobe entries' i" "$(fp_sum)" $((FP * SUM / N))
	expect_eq "$1: fprobe exits" "$(count ' exit: (fixture_coexist_write+0x[0-9a-f]*/0x[0-9a-f]* \[markers_fixture\] <- fixture_coexist')" $FP
	expect_eq "$1: marker events" "$(count ' fixture_coexist: i [0-9]*$')" $EM
	expect_eq "$1: SDT events" "$(count ' coexist: fixture:coexist arg0=[0-9]*$')" $ES
}

# Run 1: the sites armed (call) before bpftrace attaches; under it, fired,
# disarmed, fired, armed again by a kprobe, fired; it detaches with them
# armed.
cat > /tmp/cx50-1.sh <<EOF
e() { "\$@" || echo "\$*: failed" >> /tmp/cx50.err; }
e sh -c 'echo $N > $F/coexist'
e sh -c "echo 'disable name fixture_coexist; disable name fixture:coexist' > $C"
e sh -c 'echo $N > $F/coexist'
e sh -c 'echo kprobe > $MECH'
e sh -c "echo 'enable name fixture_coexist; enable name fixture:coexist' > $C"
grep -q '^fixture:coexist sdt .* \(kprobe\|optimized\) 1 ' $L || echo "not a kprobe: \$(grep '^fixture:coexist ' $L)" >> /tmp/cx50.err
e sh -c 'echo $N > $F/coexist'
EOF
bt /tmp/cx50-1.sh
R=$((3 * N)) FP=$((3 * N)) EM=$((2 * N)) ES=$((2 * N))
check "run 1" $((3 * N))

# Run 2: the function tracer on fixture_coexist too; armed by a kprobe
# (optimized) when bpftrace attaches; under it, fired, disarmed, fired,
# armed by a call, fired.
echo fixture_coexist > $T/set_ftrace_filter || fail "set_ftrace_filter"
echo function > $T/current_tracer || fail "current_tracer function"
wait_listing fixture:coexist ' optimized 1 ' || fail "not optimized: $(grep '^fixture:coexist ' $L)"
sed 's/echo kprobe/echo call/; s/\\(kprobe\\|optimized\\)/call/' /tmp/cx50-1.sh > /tmp/cx50-2.sh
bt /tmp/cx50-2.sh
# current_tracer=function cleared the buffer: run 2's records alone.
R=$((6 * N)) FP=$((3 * N)) EM=$((2 * N)) ES=$((2 * N))
check "run 2" $((3 * N))
expect_eq "run 2: function entries" "$(count ' fixture_coexist <-fixture_coexist_write$')" $((3 * N))
# Armed last under sdt_mechanism "call": the trampoline.
grep -q '^fixture:coexist sdt .* call 1 ' $L || fail "not a call: $(grep '^fixture:coexist ' $L)"

# All gone: the function untraced, the sites dormant, nothing recorded.
echo nop > $T/current_tracer
echo > $T/set_ftrace_filter
echo 'disable name fixture_coexist; disable name fixture:coexist' > $C || fail "disarm"
echo 0 > $T/events/cxfp/enable
echo '-:cxfp/entry' >> $D && echo '-:cxfp/exit' >> $D || fail "delete the fprobe events"
grep -q cxfp $D && fail "fprobe events left: $(cat $D)"
wait_listing fixture:coexist ' dormant 0 ' || fail "not dormant: $(grep '^fixture:coexist ' $L)"
grep -q '^fixture_coexist mark .* dormant 0 ' $L || fail "not dormant: $(grep '^fixture_coexist ' $L)"
n=$(grep -c . $T/trace)
echo $N > $F/coexist
expect_eq "trace lines once all gone" "$(grep -c . $T/trace)" $n
echo 0 > /sys/kernel/rcu_expedited
echo thunk > /sys/kernel/debug/markers/sdt_mechanism
echo "fprobe-fentry: runs $((R + N)) bpftrace-calls $((6 * N)) fprobe-entries/exits $((6 * N)) marker-events $((4 * N)) sdt-events $((4 * N)) function-entries $((3 * N))"
rmmod markers_fixture
exit 0
