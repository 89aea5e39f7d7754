#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: after the build, one guest boot of the test kernel running
# the KUnit suites and the integration tests on one core, and on the other
# the host tests, then the boots of the second lane (the tests of Debian's
# perf and bpftrace, and short boots: markers.enable=, retbleed=stuff,
# lockdown). Prints every result and
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

# 2. Host tests (harness/host-tests/*.sh), each its own case, on the second
#    core while the guest runs on the first (QEMU's TCG is single-threaded).
#    A test that passed is not run again while nothing it could read has
#    changed: the repository's files, the build's outputs and the tools
#    (MARKERS_NO_CACHE=1 runs everything). A test that exits with 77 could
#    not run here (a tool is missing): SKIP, with its reason in its log.
host_key() {
	{ cd "$TOP" && git ls-files --cached --others --exclude-standard -z |
		xargs -0 -r sha256sum 2> /dev/null
	  find "$KOBJ" -maxdepth 1 -name vmlinux -o -maxdepth 1 -name .config |
		xargs -r sha256sum
	  sed 's|\.o$|.ko|' "$KOBJ/modules.order" | (cd "$KOBJ" && xargs -r sha256sum)
	  sha256sum "$KOBJ/scripts/markers/markers-list" "$KOBJ/arch/x86/boot/bzImage"
	  gcc --version; clang --version; sparse --version
	} 2>&1 | sha256sum | cut -d' ' -f1
}
host_tests() {
	local key
	key=$(host_key)
	mkdir -p "$LOGS/host-cache"
	for t in "$TOP"/harness/host-tests/*.sh; do
		[ -f "$t" ] || continue
		name=host/$(basename "$t" .sh)
		stamp=$LOGS/host-cache/$(basename "$t" .sh)
		if [ "${MARKERS_NO_CACHE:-0}" != 1 ] && [ "$(cat "$stamp" 2>/dev/null)" = "$key" ]; then
			echo "PASS $name (cached: unchanged since it passed)"
			continue
		fi
		rm -f "$stamp"
		bash "$t" > "$LOGS/$(basename "$t" .sh).log" 2>&1
		case $? in
		0)	echo "PASS $name"
			echo "$key" > "$stamp" ;;
		77)	echo "SKIP $name" ;;	# it could not run here: it says why
		*)	echo "FAIL $name" ;;
		esac
	done
}

# 3. The guests. On the first core, one boot runs the KUnit suites and
#    the integration tests (its part "main"). On the second, once the
#    host tests are done, further boots, each judged whole: the tests that
#    run Debian's perf and bpftrace (part "tools", with run.sh -T), then
#    short boots: markers.enable= on the command line, call depth tracking
#    (retbleed=stuff), and lockdown at each level. They use a guest image
#    directory of their own (GUEST_DIR), since run.sh rebuilds its images
#    in place; their exit statuses go to $lane2.
glog=$LOGS/check-guest.log
tlog=$LOGS/check-tools-guest.log
blog=$LOGS/boot-param-guest.log
slog=$LOGS/retbleed-stuff-guest.log
lane2=$LOGS/lane2-status.txt
lockdown_levels="integrity confidentiality"
guest_ran=0
: > "$lane2"
if [ "${BUILD_RC:-0}" = 0 ] && [ -f "$KOBJ/arch/x86/boot/bzImage" ]; then
	guest_ran=1
	# The guest's test programs: static host binaries.
	guest_tools || failt "host/guest-tools"
fi
# boot NAME LOG [run.sh options and job]: one boot of the second lane,
# its output in LOGS/NAME-run.txt, its status in $lane2.
boot() {
	local name=$1 log=$2 rc=0
	shift 2
	GUEST_DIR=$GUEST-2 "$TOP/harness/run.sh" -c -l "$log" "$@" \
		> "$LOGS/$name-run.txt" 2>&1 || rc=$?
	echo "$name $rc" >> "$lane2"
}
second_lane() {
	host_tests > "$LOGS/host-results.txt" 2>&1
	[ $guest_ran = 1 ] || return 0
	mkdir -p "$B/tools-part"
	echo tools > "$B/tools-part/check-part"
	boot check-tools "$tlog" -T -t "${CHECK_TIMEOUT:-1200}" \
		"$TOP/harness/guest/check.sh" "$B/tools-part/check-part" $GUEST_TOOLS
	GUEST_APPEND="markers.enable=module_*,subsys_open,sdt_example:read,[bad" \
		boot boot-param "$blog" -t 300 "$TOP/harness/guest/boot-param.sh"
	# Call depth tracking (retbleed=stuff) and the SDT suite.
	GUEST_APPEND="retbleed=force,stuff spectre_v2=retpoline" \
		boot retbleed-stuff "$slog" -t 300 "$TOP/harness/guest/retbleed-stuff.sh"
	# Lockdown: the build tree's sdt-example.ko is the unsigned module.
	for lv in $lockdown_levels; do
		GUEST_APPEND="lockdown=$lv markers.enable=subsys_open" \
			boot "lockdown-$lv" "$LOGS/lockdown-$lv-guest.log" -t 300 \
			"$TOP/harness/guest/lockdown.sh" "$KOBJ/samples/markers/sdt-example.ko"
	done
}
second_lane &
lane2_pid=$!

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

guest_rc=0
if [ $guest_ran = 1 ]; then
	mkdir -p "$B/main-part"
	echo main > "$B/main-part/check-part"
	# The main boot's tests take about 1150 s of guest time (the KUnit
	# suites and every shell test, ftracetest's cases included) when
	# the machine is quiet, more while the host tests build: room to
	# 1800 s, a bound for a hung guest and not a budget.
	"$TOP/harness/run.sh" -c -t "${CHECK_TIMEOUT:-1800}" -l "$glog" \
		"$TOP/harness/guest/check.sh" "$TOP/harness/expected-tests" \
		"$B/main-part/check-part" $GUEST_TOOLS || guest_rc=$?
else
	guest_rc=1
	echo "no kernel image: the build failed"
	failt "guest (not run: no kernel image)"
fi
# The second lane: the host tests, then its boots.
wait "$lane2_pid"
# A boot's status, or 1 for one that did not run.
lane2_rc() { awk -v n="$1" '$1 == n { r = $2 } END { print (r == "" ? 1 : r) }' "$lane2"; }
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
		if python3 "$TOP/harness/bench.py" "$glog" - "$KOBJ" "$LOGS" --smoke \
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
	# Integration tests.
	grep -a '^MARKERS-TEST: ' "$glog" | while read -r _ st name; do
		echo "$st guest/$name" >> "$results"
		[ "$st" = PASS ] || echo "FAILED: guest/$name"
	done
	echo "kernel log of the boot: $(sed -n '/<<< DMESG BEGIN >>>/,/<<< DMESG END >>>/p' "$glog" |
		sed '1d;$d' | wc -c) bytes (log_buf_len=8M: harness/run.sh)"
	boot_verdict guest "$guest_rc" "$glog" "$since"

	# The second lane's boots: the tools part's tests, then the short
	# boots' steps; each boot judged whole (one that never ran: status
	# 1, and no end line).
	since=$(grep -c '^FAIL ' "$results")
	grep -a '^MARKERS-TEST: ' "$tlog" 2> /dev/null | while read -r _ st name; do
		echo "$st guest/$name" >> "$results"
		[ "$st" = PASS ] || echo "FAILED: guest/$name"
	done
	[ "$(lane2_rc check-tools)" = 0 ] || tail -n 30 "$LOGS/check-tools-run.txt"
	boot_verdict guest/tools "$(lane2_rc check-tools)" "$tlog" "$since"
	short_boot boot-param "$(lane2_rc boot-param)" "$blog"
	short_boot retbleed-stuff "$(lane2_rc retbleed-stuff)" "$slog"
	for lv in $lockdown_levels; do
		short_boot "lockdown-$lv" "$(lane2_rc "lockdown-$lv")" "$LOGS/lockdown-$lv-guest.log"
	done
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
for t in "$TOP"/harness/host-tests/*.sh; do
	expect_result "host/$(basename "$t" .sh)"
done
if [ $guest_ran = 1 ]; then
	for t in "$TOP"/harness/guest/tests/*.sh; do
		expect_result "guest/$(basename "$t" .sh)"
	done
	for s in $(sed -n 's/^t \([A-Za-z0-9_]*\)$/\1/p' "$TOP/harness/guest/boot-param.sh"); do
		expect_result "guest/boot-param/$s"
	done
	for s in $(sed -n 's/^t \([A-Za-z0-9_]*\)$/\1/p' "$TOP/harness/guest/retbleed-stuff.sh"); do
		expect_result "guest/retbleed-stuff/$s"
	done
	for lv in $lockdown_levels; do
		for s in $(sed -n 's/^t \([A-Za-z0-9_]*\)$/\1/p' "$TOP/harness/guest/lockdown.sh"); do
			expect_result "guest/lockdown-$lv/$s"
		done
	done
	for s in $(awk '$1 == "kunit" { for (i = 3; i <= NF; i++) print $i }' "$TOP/harness/expected-tests"); do
		expect_result "kunit/$s"
	done
fi

npass=$(grep -c '^PASS ' "$results")
nfail=$(grep -c '^FAIL ' "$results")
nskip=$(grep -c '^SKIP ' "$results")
echo "check: $(( $(date +%s) - t0 ))s; results in $results"
if [ "$nskip" -gt 0 ]; then
	echo "$npass passed, $nfail failed, $nskip skipped"
else
	echo "$npass passed, $nfail failed"
fi
[ "$nfail" = 0 ] && [ "$npass" -gt 0 ] && [ "$guest_rc" = 0 ] &&
	! awk '$2 != 0 { bad = 1 } END { exit !bad }' "$lane2"
