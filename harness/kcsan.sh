#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make kcsan: the storm, module churn and CPU hotplug tests of make check
# (harness/guest/kcsan.sh) in one boot of the KCSAN test kernel
# (FLAVOUR=kcsan), preempt=full, 4 CPUs.
# Prints each test's result, then every data race KCSAN reported, each
# as its two functions and whether a frame of its stacks is marker code. Non-zero exit on a failed test or
# any report.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

guest_tools || die "cannot build the guest tools"
log=$LOGS/kcsan.log
# As make check's main boots: 4 CPUs that take turns (single-threaded
# TCG; under multi-threaded TCG both arches run stale translated code,
# see run.sh). QEMU_ACCEL=tcg,thread=multi lets KCSAN's watchpoints see
# the other CPUs' accesses at the same instant, with that caveat.
GUEST_APPEND="preempt=full" QEMU_SMP=${QEMU_SMP:-4} \
	"$TOP/harness/run.sh" \
	-t "${KCSAN_TIMEOUT:-3600}" -l "$log" "$TOP/harness/guest/kcsan.sh" \
	$GUEST_TOOLS > /dev/null
rc=$?
grep -aE '^(MARKERS-TEST|MARKERS-TIME|storm|churn|hotplug)' "$log"
# One report: from "BUG: KCSAN:" to its closing line of '='s.
awk '/BUG: KCSAN:/ { r = 1; t = $0; ours = 0; next }
     r && /(marker|sdt_|stress_|churn)/ { ours = 1 }
     r && /^====/ { print (ours ? "ours:  " : "other: ") t; r = 0 }' "$log" |
	sed 's/.*BUG: KCSAN: //' | sort | uniq -c | sort -rn > "$LOGS/kcsan-reports.txt"
n=$(grep -c . "$LOGS/kcsan-reports.txt")
echo "kcsan: $n distinct reports ($(grep -c 'ours:' "$LOGS/kcsan-reports.txt") with marker code in their stacks):"
sed 's/^/  /' "$LOGS/kcsan-reports.txt"
[ "$rc" = 0 ] || echo "kcsan: guest status $rc (3: a splat, KCSAN's included; see $log)"
exit $rc
