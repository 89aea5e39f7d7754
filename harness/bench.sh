#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: build the benchmark kernel (FLAVOUR=bench: markers.config
# alone, production-like, in build/obj-bench), boot it twice with
# marker-bench (harness/guest/bench.sh): once under plain TCG for times,
# once under -icount shift=0,sleep=off, where a guest nanosecond is one
# retired instruction, for instruction counts; then print the table and
# the targets, and write build/bench.csv and build/bench-arming.csv
# (ARCH=arm64: build/bench-arm64.csv and build/bench-arming-arm64.csv).
set -euo pipefail
export FLAVOUR=bench
. "$(dirname "$0")/lib.sh"

"$TOP/harness/graft.sh"
"$TOP/harness/build.sh"
# marker-perf attaches the BPF rows' programs.
guest_tools || die "cannot build the guest tools"
# shellcheck disable=SC2086
"$TOP/harness/run.sh" -t 1800 -l "$LOGS/bench-time.log" "$TOP/harness/guest/bench.sh" \
	$GUEST_TOOLS > /dev/null
# shellcheck disable=SC2086
QEMU_ACCEL="tcg,thread=single -icount shift=0,sleep=off" \
	"$TOP/harness/run.sh" -t 1800 -l "$LOGS/bench-icount.log" \
	"$TOP/harness/guest/bench.sh" $GUEST_TOOLS > /dev/null
python3 "$TOP/harness/bench.py" "$LOGS/bench-time.log" "$LOGS/bench-icount.log" "$KOBJ" "$B" \
	--arch="$KARCH"
echo
"$TOP/harness/footprint.sh" --run
