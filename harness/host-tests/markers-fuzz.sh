#!/bin/bash
# A short libFuzzer run of markers-list's ELF reader
# (scripts/markers/fuzz-markers-list.c, built with Debian's clang) finds no
# crash, hang or leak of memory past its limit. Without clang (CLANG, by
# default clang, not found) it cannot run: exit status 77, which
# harness/check.sh reports as SKIP, with the last line printed as reason.
# gcc-only: it builds its fuzzer with clang in either check
set -uo pipefail
. "$(dirname "$0")/../lib.sh"

CLANG=${CLANG:-clang}
if ! command -v "$CLANG" > /dev/null; then
	echo "libFuzzer: no $CLANG (make deps installs clang): skipped"
	exit 77
fi
fz=$B/fuzz
rm -rf "$fz"
mkdir -p "$fz/corpus"
cp "$KOBJ/samples/markers/sdt-example-c.o" "$KOBJ/samples/markers/marker-example.ko" "$fz/corpus/" ||
	{ echo "no seed objects: run make build"; exit 1; }
if ! "$CLANG" -g -O1 -fsanitize=fuzzer,address,undefined -o "$fz/fuzz-markers-list" \
	"$TOP/scripts/markers/fuzz-markers-list.c" "$TOP/scripts/markers/format.c" -lelf \
	> "$fz/build.log" 2>&1; then
	cat "$fz/build.log"
	echo "libFuzzer: the fuzz target does not build"
	exit 1
fi
(cd "$fz" && ASAN_OPTIONS=detect_leaks=0 timeout 120 ./fuzz-markers-list -detect_leaks=0 \
	-max_total_time=${FUZZ_SECONDS:-20} -rss_limit_mb=1024 -seed=1 corpus > run.log 2>&1)
st=$?
runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$fz/run.log")
crashes=$(ls "$fz"/crash-* "$fz"/timeout-* "$fz"/oom-* 2>/dev/null | wc -l)
echo "libFuzzer: ${runs:-?} execs in ${FUZZ_SECONDS:-20} s, $crashes crash(es), status $st"
if [ "$st" != 0 ] || [ "$crashes" != 0 ] || [ -z "$runs" ]; then
	tail -n 20 "$fz/run.log"
	exit 1
fi
