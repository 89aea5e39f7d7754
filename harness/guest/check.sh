#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The `make check` guest job: KUnit suites (as modules), then the shell
# integration tests. Results go to the console for harness/check.sh:
# a KTAP document between KTAP markers, and one MARKERS-TEST line per test.
#
# /extra/check-part, when there, says what this boot runs (make check
# splits the tests over several boots): the word "kunit" for the KUnit
# suites, and the names of the shell tests it runs. Without
# it, everything runs.

fails=0
t0=$(date +%s)
part=$(cat /extra/check-part 2> /dev/null || echo all)
# Without forks: the loop below asks for each of some 40 tests, and a fork
# costs tens of milliseconds in a guest with KASAN under TCG.
part=" $(echo $part) "
in_part() { case $part in " all "|*" $1 "*) return 0 ;; esac; return 1; }

# KUnit: load the modules of the suites (harness/expected-tests, passed as
# /extra/expected-tests), and only those: the fixtures the shell tests
# load stay out until then. Each runs its suites on load.
kunit() {
	echo "--- KUnit"
	E=/extra/expected-tests
	mods=$(sed -n 's/^kunit[[:space:]]\{1,\}\([^[:space:]]\{1,\}\).*/\1/p' $E)
	[ -n "$mods" ] || { echo "no KUnit module in $E"; fails=$((fails + 1)); }
	for name in $mods; do
		timeout 300 modprobe "$name" || { echo "modprobe $name failed"; fails=$((fails + 1)); }
	done
	n=$(ls /sys/kernel/debug/kunit 2>/dev/null | wc -l)
	echo "<<< KTAP BEGIN >>>"
	echo "KTAP version 1"
	echo "1..$n"
	i=0
	for d in /sys/kernel/debug/kunit/*/; do
		[ -f "$d/results" ] || continue
		i=$((i + 1))
		# Drop the per-file header, renumber the suite's result line.
		sed -e '1,2d' -e '$s/^ok 1 /ok '"$i"' /' \
			-e '$s/^not ok 1 /not ok '"$i"' /' "$d/results"
	done
	echo "<<< KTAP END >>>"
	echo "MARKERS-TIME kunit $(( $(date +%s) - t0 ))"
	for name in $mods; do
		rmmod "$name" 2>/dev/null
	done
}
in_part kunit && kunit

# Shell-level integration tests.
#
# Each has 600 s, or what a line "# timeout: SECONDS" in it says: a bound
# for a hung test, not a budget.
test_timeout() {
	sed -n 's/^# timeout: \([0-9]\{1,\}\)$/\1/p' "$1" | grep . || echo 600
}
# After a test that failed, stop the programs it left running (timeout
# kills the test's shell only) and unload the modules it left loaded
# (those not in $1), so that its failure does not become the next tests'
# too: a fixture left loaded keeps names and formats that a later test
# expects to be its own.
unload_new() {
	for f in /extra/*; do
		[ -f "$f" ] && [ -x "$f" ] && killall -q -KILL "${f##*/}"
	done
	sleep 1
	for m in $(cut -d' ' -f1 /proc/modules); do
		echo " $1 " | tr '\n' ' ' | grep -q " $m " && continue
		rmmod "$m" 2>/dev/null && echo "unloaded $m, left by the failed test"
	done
}
# The subsystem's own warnings and errors (pr_warn() and pr_err() with
# "markers: ", at levels 0 to 4: which the splat scan does not see; not a
# module's "my_markers: ") that a test's run left in the kernel log, but
# those its lines "# warns: ERE" name: a test that provokes one says so;
# any other fails the test.
# From the line check.sh wrote before the test (busybox's dmesg -r keeps
# each line's level as "<N>").
unexpected_warnings() {
	dmesg -r | awk -v tag="MARKERS-TEST-START $1 $2" \
		'found && /^<[0-4]>/ && /(^|[^A-Za-z0-9_])markers: / { sub(/^<[0-9]>(\[[ 0-9.]*\] )?/, ""); print }
		 index($0, tag) { found = 1 }' > /tmp/warnings
	sed -n 's/^# warns: //p' "$3" > /tmp/warns
	if [ -s /tmp/warns ]; then
		grep -v -E -f /tmp/warns /tmp/warnings
	else
		cat /tmp/warnings
	fi
}
# The SDT arming mechanism is the default (thunk) after each test: a test
# that changes it puts it back, or the next tests run under another one
# than they think (make demo's did, after 50-coexist-fprobe-fentry left
# "call"). Put back after a test that failed.
MECH=/sys/kernel/debug/markers/sdt_mechanism
mechanism_kept() {
	[ -f $MECH ] || return 0
	m=$(cat $MECH)
	[ "$m" = thunk ] && return 0
	echo "  FAIL: the test left sdt_mechanism at '$m'"
	echo thunk > $MECH
	return 1
}
echo "--- integration tests"
# The tree's tests, then those of harness/README.md's guide (in /extra/,
# passed to the boot that runs them).
for t in /harness/tests/*.sh /extra/[0-9][0-9]-*.sh; do
	[ -f "$t" ] || continue
	name=${t##*/}
	name=${name%.sh}
	in_part "$name" || continue
	echo "--- $name"
	t1=$(date +%s)
	mods=$(cut -d' ' -f1 /proc/modules)
	echo "<6>MARKERS-TEST-START $name $t1" > /dev/kmsg
	if timeout "$(test_timeout "$t")" sh "$t" &&
	   ! unexpected_warnings "$name" "$t1" "$t" | sed 's/^/  FAIL: unexpected warning: /' | grep . &&
	   mechanism_kept; then
		echo "MARKERS-TEST: PASS $name"
	else
		echo "MARKERS-TEST: FAIL $name"
		fails=$((fails + 1))
		unload_new "$mods"
		[ ! -f $MECH ] || echo thunk > $MECH
	fi
	echo "MARKERS-TIME $name $(( $(date +%s) - t1 ))"
done
exit $((fails > 0))
