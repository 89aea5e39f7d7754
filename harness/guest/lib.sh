# SPDX-License-Identifier: GPL-2.0
# Helpers for guest tests. Sourced by each test under /harness/tests/.
# A test fails by exiting non-zero; fail() says why first.

fail() {
	echo "  FAIL: $*"
	exit 1
}

# The kernel log of this test's own step. step_mark [WHAT] writes a line of
# its own into the kernel log (through /dev/kmsg, at KERN_INFO: not on the
# console); step_dmesg prints the kernel log after the last step_mark of
# this test, or nothing, with an error, when that line is not there. A
# test whose pass condition is a message in the kernel log greps
# step_dmesg, not dmesg: an earlier test, a module loaded before or the
# boot cannot have printed what it finds. Sourcing this file marks the
# start of the test.
# The tag ends with ':' (step 1 is not a prefix of step 10) and does not
# start with '<', which busybox's dmesg strips as a level prefix.
STEP_N=0
step_mark() {
	STEP_N=$((STEP_N + 1))
	STEP_TAG="MARKERS-STEP ${0##*/} $$ $STEP_N:"
	echo "<6>$STEP_TAG${1:+ $1}" > /dev/kmsg || fail "cannot write to /dev/kmsg"
}
step_dmesg() {
	dmesg | awk -v tag="$STEP_TAG" 'found { print } index($0, tag) { found = 1 } END { exit !found }'
	# 1: not found (awk killed by SIGPIPE from "grep -q" gives 141).
	[ $? != 1 ] || { echo "  step_dmesg: no \"$STEP_TAG\" in the kernel log" >&2; return 1; }
}
step_mark

# The listing's state of an SDT site armed by the default mechanism, a
# grep pattern: its thunk (or the trampoline) on x86_64, its thunk on
# arm64, which has no trampoline. Which one a site must have, from its
# operands: sdt_misarmed below.
case $(uname -m) in
aarch64) SDT_ARMED=thunk ;;
*) SDT_ARMED='\(thunk\|call\)' ;;
esac

# sdt_misarmed KEY: the listing lines of the SDT sites of KEY (a grep
# pattern) that are not armed by the mechanism their spec calls for, each
# with what it should be: on arm64 its thunk; on x86_64 its thunk, or the
# trampoline ("call") when an operand is memory a thunk cannot read
# without the risk of a fault (arch_sdt_thunk_why()): through a register
# other than %rsp, %gs: through a register, with an index, or at a
# numeric address. One awk for all the sites: 15-sdt-operands has 340.
sdt_misarmed() {
	grep "^$1 sdt \"" /sys/kernel/debug/markers/list |
	awk -v arm64="$([ "$(uname -m)" = aarch64 ] && echo 1)" '
	function mech(spec,	n, ops, i, op, gs) {
		if (arm64)
			return "thunk"
		n = split(spec, ops, " ")
		for (i = 1; i <= n; i++) {
			op = ops[i]
			sub(/^-?[0-9]+@/, "", op)
			if (op ~ /^\$/ || op ~ /^%[a-z0-9]+$/)
				continue		# immediate, register
			gs = sub(/^%gs:/, "", op)
			if (op ~ /\(%rip\)$/)
				continue		# a symbol, %rip-relative
			if (op ~ /\(/ && (gs || (op !~ /\(%rsp\)$/)))
				return "call"		# through a register
			if (op !~ /\(/ && op ~ /^-?[0-9]/)
				return "call"		# a numeric address
		}
		return "thunk"
	}
	{
		rest = substr($0, index($0, "\"") + 1)
		spec = substr(rest, 1, index(rest, "\"") - 1)
		want = mech(spec)
		if (substr(rest, length(spec) + 2) !~ (" " want " [0-9]"))
			print $0 " (want " want ")"
	}'
}

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}

# expect_err ERRNO_NAME COMMAND...: the command must fail and print ERRNO_NAME
# (busybox prints strerror text, so match on the text).
expect_fail() {
	if "$@" 2>/tmp/err.$$; then
		fail "'$*' succeeded, expected failure"
	fi
}

# write_expect_err FILE TEXT ERROR: writing TEXT to FILE fails with ERROR,
# whether the open or the write refuses it (the shell reports a refused
# open on its own stderr, hence the subshell).
write_expect_err() {
	if (echo "$2" > "$1") 2>/tmp/werr.$$; then
		fail "write '$2' to $1 succeeded"
	fi
	grep -q "$3" /tmp/werr.$$ || fail "write '$2' to $1: $(cat /tmp/werr.$$), want $3"
}

# fixture_load: markers_fixture (harness/modules/) loaded afresh,
# its counters at zero.
fixture_load() {
	rmmod markers_fixture 2> /dev/null
	insmod "/lib/modules/$(uname -r)/extra/markers_fixture.ko" ||
		fail "insmod markers_fixture"
}

# Load probe-example with parameters. insmod, not busybox modprobe, which
# does not keep quoted parameter values such as format="pid %d comm %s".
probe_example() {
	insmod "/lib/modules/$(uname -r)/kernel/samples/markers/probe-example.ko" "$@"
}

# Load sdt-probe-example with parameters.
sdt_probe_example() {
	insmod "/lib/modules/$(uname -r)/kernel/samples/markers/sdt-probe-example.ko" "$@"
}

# The listing line of $1 matches $2. Arming and disarming are done when
# the write, the module load or unload, or the consumer's exit that asked
# for them returns: the line must match at once. Only an optimized
# kprobe (" optimized ") comes later, from kprobes' optimizer (a delayed
# work): for it, wait up to 10 s.
wait_listing() {
	i=0
	while ! grep "^$1 " /sys/kernel/debug/markers/list | grep -q "$2"; do
		case $2 in *' optimized '*) ;; *) return 1 ;; esac
		i=$((i + 1))
		[ $i -lt 100 ] || return 1
		sleep 0.1
	done
}

# Wait until the fixture's fixture_coexist() has completed $1 more runs
# than it had on entry (its counter is bumped after its sites, and runs
# are serial, so with $1 >= 2 at least one whole run passed its sites
# after the call). Gives up after about 30 s.
wait_coexist_runs() {
	_r0=$(cut -d' ' -f2 /sys/kernel/debug/markers_fixture/coexist)
	_i=0
	while [ $(($(cut -d' ' -f2 /sys/kernel/debug/markers_fixture/coexist) - _r0)) -lt $1 ]; do
		_i=$((_i + 1))
		[ $_i -lt 300 ] || return 1
		sleep 0.1
	done
}

# A background storm of a coexistence test counts the writes it made in
# /tmp/$1.n as it goes and creates /tmp/$1.held once its held step (one
# switch kept until fixture_coexist() ran whole under it) is done.
# storm_begin NAME clears them and starts a 120-s clock (a bound for a
# storm that hangs, not a budget). storm_short NAME MIN: that step is not
# done yet, or fewer than MIN writes were made. storm_on NAME MIN J ROUNDS:
# the foreground, in its round J, fires on: fewer than ROUNDS rounds or the
# storm still short, and the clock not run out.
storm_begin() {
	rm -f /tmp/$1.stop /tmp/$1.held /tmp/$1.n
	storm_end=$(($(date +%s) + 120))
}
storm_short() {
	[ ! -f /tmp/$1.held ] || [ "$(cat /tmp/$1.n 2>/dev/null || echo 0)" -lt $2 ]
}
# storm_count NAME N: the storm's writer has made N writes. Renamed into
# place, so that storm_short, in the other shell, never reads the file
# empty between the writer's truncation and its write ("bad number").
storm_count() {
	echo $2 > /tmp/$1.n.new && mv /tmp/$1.n.new /tmp/$1.n
}
storm_on() {
	[ "$(date +%s)" -lt $storm_end ] && { [ $3 -lt $4 ] || storm_short $1 $2; }
}

# Grace periods an operation waits for: the waits (synchronize_rcu() and
# its expedited, tasks and SRCU kinds) whose stack has a frame of the
# subsystem (marker_*, mark_*, sdt_*), in whatever task they run (the
# writer's, a kworker's), each counted once (a wait inside another, as
# synchronize_rcu() calling synchronize_rcu_expedited() under
# rcu_expedited, is the outer one's). Kprobe events on each, with a
# stacktrace trigger, in the trace buffer; rcu_barrier() is not counted
# (it waits for callbacks, not for readers). gp_count_start clears the
# buffer and starts; gp_count prints the count since, and stops.
GP_FUNCS="synchronize_rcu synchronize_rcu_expedited synchronize_rcu_tasks
synchronize_rcu_tasks_rude synchronize_rcu_tasks_trace synchronize_srcu
synchronize_srcu_expedited"
gp_count_start() {
	T=/sys/kernel/tracing
	for f in $GP_FUNCS; do
		grep -q " $f\$" /proc/kallsyms || continue
		if [ ! -d $T/events/kprobes/markers_gp_$f ]; then
			echo "p:markers_gp_$f $f" >> $T/kprobe_events ||
				fail "kprobe event on $f"
		fi
		echo stacktrace > $T/events/kprobes/markers_gp_$f/trigger ||
			fail "stacktrace trigger on $f"
		echo 1 > $T/events/kprobes/markers_gp_$f/enable
	done
	echo > $T/trace
}
gp_count() {
	T=/sys/kernel/tracing
	for e in $T/events/kprobes/markers_gp_*; do
		echo 0 > $e/enable
		echo '!stacktrace' > $e/trigger
	done
	awk 'function done() { if (ev && ours && !nested) n++; ev = 0 }
	     / markers_gp_[a-z_]*: / { done(); ev = 1; ours = 0; nested = 0; self = $0
		sub(/.* markers_gp_/, "", self); sub(/:.*/, "", self); next }
	     ev && /^ => / { f = $2; sub(/\+.*/, "", f)
		if (f ~ /^(marker_|mark_|sdt_)/) ours = 1
		if (f != self && f ~ /^synchronize_(rcu|srcu)/) nested = 1 }
	     END { done(); print n + 0 }' $T/trace
}

# fault_setup PERCENT: failslab and fail_page_alloc fail PERCENT of the
# allocations of the tasks that ask for it (/proc/self/make-it-fail), or
# none but those of /proc/self/fail-nth with 0; quietly, GFP_KERNEL and
# page allocations of every order included; "times" counts down from
# 1000000 with each failure injected.
fault_setup() {
	for d in failslab fail_page_alloc; do
		d=/sys/kernel/debug/$d
		echo "$1" > $d/probability
		echo 1 > $d/interval
		echo 1000000 > $d/times
		echo 0 > $d/verbose
		echo Y > $d/task-filter
		echo N > $d/ignore-gfp-wait
		# No stack filter (53-fault-nth sets one).
		if [ -f $d/require-start ]; then
			echo 0 > $d/require-start
			echo 0xffffffffffffffff > $d/require-end
		fi
	done
	echo N > /sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem
	echo 0 > /sys/kernel/debug/fail_page_alloc/min-order
}
# walkthrough NAME: run /extra/walkthrough-NAME.sh, the walk-through NAME
# of Documentation/trace/markers.rst that harness/walkthrough.py made
# (harness/check.sh passes it to the tools boot), in /extra/, where the
# modules a host walk-through built are too: every command must exit 0
# and print the lines the guide shows under it, and the script must end
# with its tally.
walkthrough() {
	w=/extra/walkthrough-$1.sh
	[ -f "$w" ] || fail "no $w (harness/check.sh makes it)"
	(cd /extra && sh "$w") > /tmp/walk.log 2>&1
	wrc=$?
	cat /tmp/walk.log
	[ $wrc = 0 ] || fail "the walk-through failed (WALK-FAIL lines above)"
	grep -q "^walk-through $1: [0-9]* commands, 0 failed\$" /tmp/walk.log ||
		fail "the walk-through did not end with its tally"
}
