#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: after the build, two workers share one queue of jobs: the
# host tests, and boots of the test kernel under QEMU (the KUnit suites
# and the integration tests in a few parts, the tests of Debian's perf
# and bpftrace, short boots: markers.enable=, retbleed=stuff, lockdown).
# Prints every result and
# ends with "N passed, N failed[, N skipped]". Every boot is judged whatever
# ended it: a timeout, a missing end line, a job that failed, a kernel
# splat in its console log each give a named FAIL line; so does a test or
# suite that gives no result (harness/expected-tests). Non-zero exit on any
# failure, or when no test ran.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

mkdir -p "$LOGS"
results=$LOGS/results.txt
: > "$results"
pass() { echo "PASS $1" >> "$results"; echo "ok: $1"; }
failt() { echo "FAIL $1" >> "$results"; echo "FAILED: $1"; }
t0=$(date +%s)

# 1. The build (done by the Makefile just before; its status is passed in).
if [ "${BUILD_RC:-0}" = 0 ]; then
	pass "host/build"
else
	failt "host/build"
fi

# 2. After the build, two workers (QEMU's TCG runs a guest on one host
#    core; the machine has two) take jobs from one queue until it is empty:
#    the host tests (harness/host-tests/*.sh), each its own job, and the
#    boots of the guest, each judged whole. The queue is ordered longest
#    job first, so that the two workers end close together.
#
#    Host tests: a test that passed is not run again while nothing it
#    could read has changed: the repository's files, the build's outputs
#    and the tools (MARKERS_NO_CACHE=1 runs everything). A test that exits
#    with 77 could not run here (a tool is missing): SKIP, with its reason
#    in its log. A test with a line "# gcc-only: REASON" runs in make
#    check, and make check LLVM=1 reports it as SKIP with that reason: what
#    it checks does not depend on the compiler.
host_key() {
	{ cd "$TOP" && git ls-files --cached --others --exclude-standard -z |
		xargs -0 -r sha256sum 2> /dev/null
	  find "$KOBJ" -maxdepth 1 -name vmlinux -o -maxdepth 1 -name .config |
		xargs -r sha256sum
	  sed 's|\.o$|.ko|' "$KOBJ/modules.order" | (cd "$KOBJ" && xargs -r sha256sum)
	  sha256sum "$KOBJ/scripts/markers/markers-list" "$KOBJ/$KIMAGE"
	  gcc --version; clang --version; sparse --version
	  # The tools the host tests run on the build: binutils, elfutils,
	  # gdb, python3, pahole, and libelf (scripts/markers links it).
	  readelf --version; eu-readelf --version; gdb --version
	  python3 --version; pahole --version
	  dpkg-query -W libelf1 libelf-dev libdw1 binutils elfutils
	} 2>&1 | sha256sum | cut -d' ' -f1
}
hres=$LOGS/host-results.d
rm -rf "$hres"
mkdir -p "$hres" "$LOGS/host-cache"
hkey=$(host_key)
# host_test NAME: one host test; its result line in $hres/NAME.
host_test() {
	local n=$1 t=$TOP/harness/host-tests/$1.sh stamp=$LOGS/host-cache/$1 why
	if [ -n "${LLVM:-}" ] && why=$(sed -n 's/^# gcc-only: //p' "$t") && [ -n "$why" ]; then
		echo "make check LLVM=1 does not run it, make check does: $why" > "$LOGS/$n.log"
		echo "SKIP host/$n" > "$hres/$n"
		return
	fi
	if [ "${MARKERS_NO_CACHE:-0}" != 1 ] && [ "$(cat "$stamp" 2>/dev/null)" = "$hkey" ]; then
		echo "PASS host/$n (cached: unchanged since it passed)" > "$hres/$n"
		return
	fi
	rm -f "$stamp"
	bash "$t" > "$LOGS/$n.log" 2>&1
	case $? in
	0)	echo "PASS host/$n" > "$hres/$n"
		echo "$hkey" > "$stamp" ;;
	77)	echo "SKIP host/$n" > "$hres/$n" ;;	# it could not run here: it says why
	*)	echo "FAIL host/$n" > "$hres/$n" ;;
	esac
}

#    Boots: the KUnit suites and the shell tests (harness/guest/tests/*.sh)
#    in the parts below; the tests that run Debian's perf and bpftrace
#    (a line "# needs: run.sh -T") in a boot with the tools image; short
#    boots: markers.enable= on the command line, call depth tracking
#    (retbleed=stuff), and lockdown at each level. Each worker has a guest
#    image directory of its own (GUEST_DIR), since run.sh rebuilds its
#    images in place. A boot's exit status goes to $bstat.
#    The parts, by test name, of 7 to 11 minutes of guest time each on
#    the GCC test kernel, machine busy (the cold make check of
#    2026-12-05, before 52 and 53 were shortened: KUnit 101 s; 00- to 39-
#    240 s; 40-storm 80 s, 42-fault-injection 85 s, 41-module-churn
#    223 s, 48- and 49-coexist 202 and 178 s; then 52-dynamic-events
#    130 s and 53-fault-nth 150 s, measured alone; every other test
#    under 70 s); a test that no part names goes to the last, as 41, 52
#    and 53 do.
main_parts=(
	"kunit 0* 1* 2* 3* 40* 42* 43* 44*"
	"4[5-9]* 5[019]* 6* 9*"
	"*"
)
# ARCH=arm64: the arm64 kernel's own tests, on two boots: the KUnit
# suites and the guest's shell tests, and the host tests that read its
# build ($arm64_host_tests below). The other host tests, the tools boot
# and the short boots are make check's (x86_64). A KUnit module or a shell
# test that cannot apply on arm64 says so: a "# x86_64: REASON" comment
# on its line of harness/expected-tests (and one of arm64's, "# arm64:
# REASON", on x86_64), a line "# arch: x86_64: REASON" in the test; each
# is a SKIP with its reason, never a PASS.
# On arm64 (no checkers: a boot's start is seconds) two parts of about
# 80 s each (2026-12-07: KUnit and 00- to 39- 50 s, 40-storm 16 to 41 s,
# 41-module-churn 25 s; the rest 85 s).
if [ "$KARCH" = arm64 ]; then
	main_parts=("kunit 0* 1* 2* 3* 40* 41*" "*")
fi
# The host tests that read the arm64 build: the SDT notes as readelf,
# eu-readelf, gdb and markers-list see them, the operand forms, and
# sparse and W=1 on its objects (lint-objects: arm64's alone, host/lint
# covers x86_64's), and the registers of a MARK() CALL under a sanitizer's
# calls (marker-call-regs: arm64's site binds them as register variables,
# x86_64's passes them as asm operands), and that the objects it
# .incbin's are the build's (build-cache: its vDSO, its certificate).
arm64_host_tests="sdt-notes sdt-consumers lint-objects marker-call-regs build-cache"
arm64_only_host_tests="lint-objects marker-call-regs"
# The KUnit modules this arch's guest loads, for harness/guest/check.sh.
# A module's line that ends with "# ARCH: REASON" (x86_64 or arm64) is
# that arch's alone: on the other, its suites are skipped, with the reason.
expected=$LOGS/expected-tests
: > "$expected"
while IFS= read -r line; do
	case $line in
	kunit*'# x86_64:'*|kunit*'# arm64:'*)
		only=${line#*# }
		only=${only%%:*}
		if [ "$only" = "$KARCH" ]; then
			echo "${line%%#*}" >> "$expected"
			continue
		fi
		read -r _ _ suites <<< "${line%%#*}"
		for st in $suites; do
			echo "SKIP kunit/$st" >> "$results"
			echo "skipped: kunit/$st: $only only:${line#*# "$only":}"
		done ;;
	*)	echo "$line" >> "$expected" ;;
	esac
done < "$TOP/harness/expected-tests"
glog=$LOGS/check-guest.log
bstat=$LOGS/boot-status.txt
lockdown_levels="integrity confidentiality"
guest_ran=0
GUIDE_TESTS=
: > "$bstat"
if [ "${BUILD_RC:-0}" = 0 ] && [ -f "$KOBJ/$KIMAGE" ]; then
	guest_ran=1
	# The guest's test programs: static host binaries.
	guest_tools || failt "host/guest-tools"
	# The guest walk-throughs of Documentation/trace/markers.rst, as
	# scripts for the tools boot (guest/tests/NN-walkthrough-NAME.sh):
	# passed to that boot only, so that an edit of the guide reruns it
	# and no other. NAME-guest continues the host's NAME: with the
	# modules that NAME builds (walkthrough_modules), passed beside it.
	GUEST_WALKS=
	mkdir -p "$B/walkthroughs"
	for wt in $(cd "$TOP" && python3 harness/walkthrough.py Documentation/trace/markers.rst |
		    sed -n 's/ guest$//p'); do
		t=$(ls "$TOP"/harness/guest/tests/*-walkthrough-"$wt".sh 2> /dev/null) || continue
		[ -n "${LLVM:-}" ] && grep -q '^# gcc-only: ' "$t" && continue
		[ "$KARCH" = arm64 ] && grep -qx '# needs: run.sh -T' "$t" && continue
		(cd "$TOP" && python3 harness/walkthrough.py Documentation/trace/markers.rst "$wt") \
			> "$B/walkthroughs/walkthrough-$wt.sh" || failt "host/walkthrough-$wt"
		GUEST_WALKS="$GUEST_WALKS $B/walkthroughs/walkthrough-$wt.sh"
		case $wt in
		*-guest)
			kos=$(walkthrough_modules "${wt%-guest}") || failt "host/walkthrough-${wt%-guest}"
			GUEST_WALKS="$GUEST_WALKS $kos" ;;
		esac
	done
	# The guest tests of harness/README.md's guide (a walk-through's file
	# harness/guest/tests/NN-NAME.sh), as the guide writes them: tests
	# like the tree's (below), passed in /extra/ to the boot that runs
	# them.
	rm -rf "$B/guide-tests$SFX"
	mkdir -p "$B/guide-tests$SFX"
	# (A page walkthrough.py cannot read fails the run: its tests would
	# vanish from the run without a word.)
	(cd "$TOP" && python3 harness/walkthrough.py harness/README.md) > "$B/guide-tests$SFX.list" \
		2> "$B/guide-tests$SFX.err" ||
		failt "host/guide-tests ($(tail -n 1 "$B/guide-tests$SFX.err"))"
	while read -r wt _ path; do
		case $path in harness/guest/tests/[0-9][0-9]-*.sh) ;; *) continue ;; esac
		[ ! -e "$TOP/$path" ] ||
			{ failt "host/guide-test-$wt ($path is in the tree too)"; continue; }
		(cd "$TOP" && python3 harness/walkthrough.py harness/README.md "$wt" "$path") \
			> "$B/guide-tests$SFX/${path##*/}" || failt "host/guide-test-$wt"
		GUIDE_TESTS="$GUIDE_TESTS $B/guide-tests$SFX/${path##*/}"
	done < <(grep ' file ' "$B/guide-tests$SFX.list")
fi
# What each boot runs: $B/check-parts$SFX/NAME/check-part, the file its guest
# reads (harness/guest/check.sh).
nparts=${#main_parts[@]}
parts=$B/check-parts$SFX
rm -rf "$parts"
for p in tools $(seq -f 'main-%g' "$nparts"); do
	mkdir -p "$parts/$p"
	: > "$parts/$p/check-part"
	: > "$parts/$p/guide-tests"
done
echo kunit > "$parts/main-1/check-part"
for t in "$TOP"/harness/guest/tests/*.sh $GUIDE_TESTS; do
	n=$(basename "$t" .sh)
	if [ "$KARCH" = arm64 ] && why=$(sed -n 's/^# arch: x86_64: //p' "$t") && [ -n "$why" ]; then
		echo "SKIP guest/$n" >> "$results"
		echo "skipped: guest/$n: x86_64 only: $why"
		continue
	fi
	if [ -n "${LLVM:-}" ] && why=$(sed -n 's/^# gcc-only: //p' "$t") && [ -n "$why" ]; then
		echo "SKIP guest/$n" >> "$results"
		echo "skipped: guest/$n: gcc-only: $why"
		continue
	fi
	if [ "$KARCH" = arm64 ] && grep -qx '# needs: run.sh -T' "$t"; then
		echo "SKIP guest/$n" >> "$results"
		echo "skipped: guest/$n: x86_64 only: it runs the host's perf and bpftrace"
		continue
	fi
	case $t in "$B/guide-tests$SFX"/*) guide=$t ;; *) guide= ;; esac
	if grep -qx '# needs: run.sh -T' "$t"; then
		echo "$n" >> "$parts/tools/check-part"
		echo "$guide" >> "$parts/tools/guide-tests"
		continue
	fi
	i=0
	for p in "${main_parts[@]}"; do
		i=$((i + 1))
		for g in $p; do
			# shellcheck disable=SC2254
			case $n in $g) break 2 ;; esac
		done
	done
	echo "$n" >> "$parts/main-$i/check-part"
	echo "$guide" >> "$parts/main-$i/guide-tests"
done
# boot W NAME LOG [run.sh options and job]: one boot on worker W, its
# output in LOGS/NAME-run.txt, its status in $bstat.
boot() {
	local w=$1 name=$2 log=$3 rc=0
	shift 3
	GUEST_DIR=$GUEST-$w "$TOP/harness/run.sh" -c -l "$log" "$@" \
		> "$LOGS/$name-run.txt" 2>&1 || rc=$?
	echo "$name $rc" >> "$bstat"
}
# run_job W KIND NAME: one job of the queue, on worker W.
run_job() {
	local w=$1 kind=$2 name=$3
	case $kind/$name in
	host/*)	host_test "$name" ;;
	# A main part takes 5 to 11 minutes of guest time (above): room to
	# 1800 s, a bound for a hung guest and not a budget.
	# The kernel is PREEMPT_DYNAMIC, voluntary unless told: the main
	# boots and the tools boot run it fully preemptible, the
	# markers.enable= boot with no preemption, the others at its default.
	# The main boots have 4 CPUs, under single-threaded TCG: they take
	# turns, a slice of translated blocks each, so a site is hit on one
	# CPU between the instructions of a change on another (the storm,
	# churn, coexistence and hotplug tests). Not multi-threaded TCG,
	# where both arches run stale translated code (see run.sh).
	boot/main-*)
		GUEST_APPEND="preempt=full" QEMU_SMP=4 \
		boot "$w" "$name" "$LOGS/check-guest-${name#main-}.log" \
			-t "${CHECK_TIMEOUT:-1800}" "$TOP/harness/guest/check.sh" \
			"$expected" "$parts/$name/check-part" \
			$GUEST_TOOLS $(cat "$parts/$name/guide-tests") ;;
	boot/tools)
		GUEST_APPEND="preempt=full" \
		boot "$w" check-tools "$LOGS/check-tools-guest.log" -T -t 1200 \
			"$TOP/harness/guest/check.sh" "$parts/tools/check-part" \
			$GUEST_TOOLS $GUEST_WALKS $(cat "$parts/tools/guide-tests") ;;
	# The markers.enable= boot, with no preemption, and call depth
	# tracking (retbleed=stuff) with the SDT suite: one boot, whose
	# command line both need (a boot's start and its leak scans cost
	# about 35 s on the debugging kernel). Its items: globs, one
	# malformed, and a selection by file and line, of the second
	# pr_debug() of marker_example_open(), the line of "open flags".
	boot/boot-param)
		local ln
		ln=$(grep -n 'pr_debug("open flags ' "$KSRC/samples/markers/marker-example.c" | cut -d: -f1)
		GUEST_APPEND="preempt=none markers.enable=\"module_*,subsys_open,sdt_example:read,marker_example.marker_example_read,main.layout_sections,[bad,name marker_example.* file marker-example.c line $ln\" retbleed=force,stuff spectre_v2=retpoline" \
			boot "$w" boot-param "$LOGS/boot-param-guest.log" -t 600 \
			"$TOP/harness/guest/boot-param-retbleed.sh" $GUEST_TOOLS ;;
	# Lockdown: the build tree's sdt-example.ko is the unsigned module.
	boot/lockdown-*)
		GUEST_APPEND="lockdown=${name#lockdown-} markers.enable=subsys_open" \
			boot "$w" "$name" "$LOGS/$name-guest.log" -t 300 \
			"$TOP/harness/guest/lockdown.sh" "$KOBJ/samples/markers/sdt-example.ko" ;;
	esac
}
# The queue, longest job first (GCC test kernel, build/logs/jobs.txt of a
# cold run: the main parts and series-objects 7 to 11 minutes, up-kernel
# 4 (its build), the tools boot 3.5, series and add-site 1; the other
# host tests and the short boots a minute or less).
queue=$LOGS/queue.txt
if [ "$KARCH" = arm64 ]; then
	[ $guest_ran = 0 ] || seq -f 'boot main-%g' "$nparts"
	for t in $arm64_host_tests; do echo "host $t"; done
else
	if [ $guest_ran = 1 ]; then
		for i in $(seq "$nparts"); do
			echo "boot main-$i"
			[ "$i" = 1 ] && echo "host series-objects"
		done
	fi
	echo "host up-kernel"
	echo "host series"
	echo "host add-site"
	[ $guest_ran = 0 ] || echo "boot tools"
	for t in "$TOP"/harness/host-tests/*.sh; do
		case " series series-objects up-kernel add-site $arm64_only_host_tests " in
		*" $(basename "$t" .sh) "*) ;;
		*) echo "host $(basename "$t" .sh)" ;;
		esac
	done
	if [ $guest_ran = 1 ]; then
		echo "boot boot-param"
		for lv in $lockdown_levels; do echo "boot lockdown-$lv"; done
	fi
fi > "$queue"
echo 0 > "$queue.next"
# next_job: the next line of the queue, or nothing when it is empty.
next_job() {
	(
		flock 9
		n=$(cat "$queue.next")
		echo $((n + 1)) > "$queue.next"
		sed -n "$((n + 1))p" "$queue"
	) 9> "$queue.lock"
}
# Each job's worker, start and length in $LOGS/jobs.txt, for the timings
# in harness/README.md.
worker() {
	local job t
	while job=$(next_job) && [ -n "$job" ]; do
		t=$(date +%s)
		# shellcheck disable=SC2086
		run_job "$1" $job
		echo "worker $1 +$((t - t0))s $(( $(date +%s) - t ))s $job" >> "$LOGS/jobs.txt"
	done
}
: > "$LOGS/jobs.txt"
worker 1 &
w1=$!
worker 2
wait "$w1"
# The host tests' results, in name order.
for t in "$TOP"/harness/host-tests/*.sh; do
	cat "$hres/$(basename "$t" .sh)" 2> /dev/null
done > "$LOGS/host-results.txt"
# The main parts' console logs, one after the other, for the lines the
# checks below read (each boot is judged on its own log).
for i in $(seq "$nparts"); do
	cat "$LOGS/check-guest-$i.log" 2> /dev/null
done > "$glog"

# boot_verdict NAME STATUS LOG FAILS: the verdict on one boot, whatever
# ended it, from run.sh's STATUS and a scan of its console LOG (lib.sh's
# console_scan: splats, the end line, a complete kernel log dump). FAILS:
# the FAIL lines before this boot's results; a job that failed without a
# FAIL line of its own gets one.
boot_verdict() {
	local name=$1 rc=$2 log=$3 since=$4 why
	case $rc in
	0|3)	;;	# 3: a splat, named by the scan below
	124)	failt "$name/timeout" ;;
	2)	failt "$name/end-line (the guest ended without it)" ;;
	*)	[ "$(grep -c '^FAIL ' "$results")" -gt "$since" ] ||
			failt "$name/job (exit status $rc)" ;;
	esac
	if why=$(console_scan "$log"); then
		pass "$name/no-kernel-splat"
	else
		printf '%s\n' "$why"
		failt "$name/no-kernel-splat"
	fi
}

# short_boot NAME STATUS LOG: the results of a short boot's steps (its
# MARKERS-TEST lines), as guest/NAME/STEP, then the boot's verdict; its
# output (LOGS/NAME-run.txt) when it failed.
short_boot() {
	local name=$1 rc=$2 log=$3 since st step
	since=$(grep -c '^FAIL ' "$results")
	grep -a '^MARKERS-TEST: ' "$log" 2>/dev/null | while read -r _ st step; do
		echo "$st guest/$name/$step" >> "$results"
		echo "$st: guest/$name/$step"
	done
	[ "$rc" = 0 ] || tail -n 30 "$LOGS/$name-run.txt"
	boot_verdict "guest/$name" "$rc" "$log" "$since"
}

# A boot's status, or 1 for one that did not run.
boot_rc() { awk -v n="$1" '$1 == n { r = $2 } END { print (r == "" ? 1 : r) }' "$bstat"; }
if [ $guest_ran = 0 ]; then
	echo "no kernel image: the build failed"
	failt "guest (not run: no kernel image)"
fi
if [ $guest_ran = 1 ]; then
	since=$(grep -c '^FAIL ' "$results")
	# KUnit: the KTAP document, parsed by the kernel's own parser.
	sed -n '/<<< KTAP BEGIN >>>/,/<<< KTAP END >>>/p' "$glog" |
		sed '1d;$d' > "$LOGS/kunit.ktap"
	if [ -s "$LOGS/kunit.ktap" ]; then
		python3 "$KSRC/tools/testing/kunit/kunit.py" parse \
			--json="$LOGS/kunit.json" "$LOGS/kunit.ktap" > "$LOGS/kunit.txt" 2>&1
		kp=$?
		sed -n '/Testing complete/p' "$LOGS/kunit.txt"
		python3 - "$LOGS/kunit.json" >> "$results" <<'PY'
import json, sys
def walk(g, path):
    for c in g.get("test_cases", []):
        st = {"PASS": "PASS", "SKIP": "SKIP"}.get(c["status"], "FAIL")
        print(st, "kunit/" + "/".join(path + [c["name"]]))
    for s in g.get("sub_groups", []):
        walk(s, path + [s["name"]])
try:
    walk(json.load(open(sys.argv[1])), [])
except Exception as e:
    print("FAIL kunit/parse", e)
PY
		[ $kp = 0 ] || { grep -E 'FAIL|CRASH|ERROR' "$LOGS/kunit.txt" | head -n 20; }
		grep -E '^FAIL kunit/' "$results" | sed 's/^FAIL /FAILED: /'
	else
		failt "kunit/no-ktap-output"
	fi
	# The benchmark report, on the smoke run's figures: every row is there.
	if grep -q 'marker_bench: row' "$glog"; then
		if python3 "$TOP/harness/bench.py" "$glog" - "$KOBJ" "$LOGS" --smoke --arch="$KARCH" \
				> "$LOGS/bench-smoke.txt" 2>&1; then
			pass "host/bench-report"
		else
			tail -n 5 "$LOGS/bench-smoke.txt"
			failt "host/bench-report"
		fi
	fi
	# Offline (markers-list on the build) against the guest's listing.
	if grep -aq '^LISTING-COUNT ' "$glog"; then
		agree=1
		while read -r _ mod n; do
			case $mod in
			vmlinux) f=$KOBJ/vmlinux ;;
			*) f=$(find "$KOBJ/samples" -name "$(echo "$mod" | tr _ -).ko" | head -n 1) ;;
			esac
			off=$("$KOBJ/scripts/markers/markers-list" "$f" | wc -l)
			echo "sites of $mod: guest listing $n, markers-list $off"
			[ "$off" = "$n" ] || agree=0
		done < <(grep -a '^LISTING-COUNT ' "$glog" | tr -d '\r')
		if [ $agree = 1 ]; then pass "host/offline-counts"; else failt "host/offline-counts"; fi
	fi
	# test_lines LOG NAME: what the guest test NAME printed, its last 60
	# lines: a failure's reason, where a boot's last lines (below) show
	# the tests after it.
	test_lines() {
		sed -n "/^--- $2\r\{0,1\}\$/,/^MARKERS-TEST: [A-Z]* $2\r\{0,1\}\$/p" "$1" |
			tr -d '\r' | tail -n 60 | sed 's/^/  | /'
	}
	# Integration tests, and each main boot judged whole (one that never
	# ran: status 1, and no end line).
	for i in $(seq "$nparts"); do
		plog=$LOGS/check-guest-$i.log
		grep -a '^MARKERS-TEST: ' "$plog" 2> /dev/null | while read -r _ st name; do
			echo "$st guest/$name" >> "$results"
			[ "$st" = PASS ] || { echo "FAILED: guest/$name"; test_lines "$plog" "$name"; }
		done
		echo "kernel log of boot main-$i: $(sed -n '/<<< DMESG BEGIN >>>/,/<<< DMESG END >>>/p' "$plog" 2> /dev/null |
			sed '1d;$d' | wc -c) bytes (log_buf_len=8M: harness/run.sh)"
		[ "$(boot_rc "main-$i")" = 0 ] || tail -n 30 "$LOGS/main-$i-run.txt"
		boot_verdict "guest/main-$i" "$(boot_rc "main-$i")" "$plog" "$since"
		since=$(grep -c '^FAIL ' "$results")
	done

	if [ "$KARCH" != arm64 ]; then
		# The tools boot's tests, then the short boots' steps; each boot
		# judged whole: make check's, not on arm64.
		tlog=$LOGS/check-tools-guest.log
		grep -a '^MARKERS-TEST: ' "$tlog" 2> /dev/null | while read -r _ st name; do
			echo "$st guest/$name" >> "$results"
			[ "$st" = PASS ] || { echo "FAILED: guest/$name"; test_lines "$tlog" "$name"; }
		done
		[ "$(boot_rc check-tools)" = 0 ] || tail -n 30 "$LOGS/check-tools-run.txt"
		boot_verdict guest/tools "$(boot_rc check-tools)" "$tlog" "$since"
		short_boot boot-param "$(boot_rc boot-param)" "$LOGS/boot-param-guest.log"
		for lv in $lockdown_levels; do
			short_boot "lockdown-$lv" "$(boot_rc "lockdown-$lv")" "$LOGS/lockdown-$lv-guest.log"
		done
	fi
fi
# The host tests' results.
while read -r st name note; do
	echo "$st $name" >> "$results"
	case $st in
	PASS)	echo "ok: $name${note:+ $note}" ;;
	SKIP)	echo "skipped: $name: $(tail -n 1 "$LOGS/${name#host/}.log")" ;;
	*)	tail -n 30 "$LOGS/${name#host/}.log"
		echo "FAILED: $name" ;;
	esac
done < "$LOGS/host-results.txt"

# The guest's listing against what the SDT consumers read in the files
# (host/sdt-consumers), object by object.
if [ $guest_ran = 1 ]; then
	agree=1
	lines=$(grep -a '^SDT-LISTING ' "$glog" | tr -d '\r')
	[ -n "$lines" ] || { echo "no SDT-LISTING line in the guest log"; agree=0; }
	while read -r _ obj n; do
		[ -n "$obj" ] || continue
		want=$(awk -v o="$obj" '$1 == o { print $3 }' "$LOGS/sdt-consumers.txt" 2>/dev/null)
		echo "SDT sites of $obj: guest listing $n, readelf/eu-readelf/gdb/markers-list ${want:-?}"
		[ "$n" = "$want" ] || agree=0
	done <<< "$lines"
	if [ $agree = 1 ]; then pass "host/sdt-listing-counts"; else failt "host/sdt-listing-counts"; fi
fi

# Every test there is gives a result: the host tests and the guest's shell
# tests (one file each), the steps of the markers.enable= boot, and the
# KUnit suites of harness/expected-tests. One that gives none (a module
# that did not load, a test the job never reached) fails, named.
expect_result() {
	grep -Eq "^(PASS|FAIL|SKIP) $1( |/|\$)" "$results" || failt "$1 (no result)"
}
if [ "$KARCH" = arm64 ]; then
	for t in $arm64_host_tests; do expect_result "host/$t"; done
else
	for t in "$TOP"/harness/host-tests/*.sh; do
		case " $arm64_only_host_tests " in *" $(basename "$t" .sh) "*) continue ;; esac
		expect_result "host/$(basename "$t" .sh)"
	done
fi
if [ $guest_ran = 1 ]; then
	for t in "$TOP"/harness/guest/tests/*.sh $GUIDE_TESTS; do
		expect_result "guest/$(basename "$t" .sh)"
	done
fi
if [ $guest_ran = 1 ] && [ "$KARCH" != arm64 ]; then
	for s in $(sed -n 's/^t \([A-Za-z0-9_]*\)$/\1/p' "$TOP/harness/guest/boot-param.sh"); do
		expect_result "guest/boot-param/$s"
	done
	for s in $(sed -n 's/^t \([A-Za-z0-9_]*\)$/\1/p' "$TOP/harness/guest/retbleed-stuff.sh"); do
		expect_result "guest/boot-param/$s"
	done
	for lv in $lockdown_levels; do
		for s in $(sed -n 's/^t \([A-Za-z0-9_]*\)$/\1/p' "$TOP/harness/guest/lockdown.sh"); do
			expect_result "guest/lockdown-$lv/$s"
		done
	done
fi
if [ $guest_ran = 1 ]; then
	for s in $(awk '$1 == "kunit" { for (i = 3; i <= NF && $i !~ /^#/; i++) print $i }' "$TOP/harness/expected-tests"); do
		expect_result "kunit/$s"
	done
fi

# Every SKIP is one harness/expected-skips lists for this variant; any
# other (a test that could not run where it should) fails, named.
variant=$KARCH${LLVM:+-llvm}
unexpected_skip() {
	local vs pat why
	while read -r vs pat why; do
		case $vs in '#'*|'') continue ;; esac
		case ",$vs," in *",$variant,"*|',*,') ;; *) continue ;; esac
		# shellcheck disable=SC2254
		case $1 in $pat) return 1 ;; esac
	done < "$TOP/harness/expected-skips"
	return 0
}
while read -r _ name; do
	if unexpected_skip "$name"; then
		failt "$name (skipped: harness/expected-skips does not expect it on $variant)"
	fi
done < <(grep '^SKIP ' "$results")

npass=$(grep -c '^PASS ' "$results")
nfail=$(grep -c '^FAIL ' "$results")
nskip=$(grep -c '^SKIP ' "$results")
echo "check: $(( $(date +%s) - t0 ))s; results in $results"
if [ "$nskip" -gt 0 ]; then
	echo "$npass passed, $nfail failed, $nskip skipped"
else
	echo "$npass passed, $nfail failed"
fi
[ "$nfail" = 0 ] && [ "$npass" -gt 0 ] && [ $guest_ran = 1 ] &&
	! awk '$2 != 0 { bad = 1 } END { exit !bad }' "$bstat"
