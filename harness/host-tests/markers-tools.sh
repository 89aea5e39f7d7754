#!/bin/bash
# Host tools (scripts/markers): markers-list builds -Wall -Wextra clean,
# its catalog of our build matches the committed reference, markers-diff
# flags incompatible formats, a corpus of 1,000 malformed ELF files (cuts
# and bit flips of real objects) gets exit status 0 or 1 and never a crash
# or a hang, and a short libFuzzer run of the ELF reader finds no crash.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"

ML=$TOP/scripts/markers/markers-list
rm -f "$B/tools/markers-list"
"$ML" --help > /dev/null 2>&1
[ -x "$B/tools/markers-list" ] || { echo "markers-list does not build -Wall -Wextra -Werror"; exit 1; }
rc=0

# 1. The catalog of our build against the reference.
objs=("$KOBJ/vmlinux" $(cd "$KOBJ" && find . -name '*.ko' | LC_ALL=C sort | sed "s|^\.|$KOBJ|"))
"$ML" --catalog "${objs[@]}" > "$LOGS/catalog.txt" || { echo "markers-list --catalog failed"; exit 1; }
if ! "$TOP/scripts/markers/markers-diff" "$TOP/scripts/markers/catalog.ref" "$LOGS/catalog.txt" > "$LOGS/catalog.diff" ||
   [ -s "$LOGS/catalog.diff" ]; then
	echo "the marker catalog differs from scripts/markers/catalog.ref:"
	cat "$LOGS/catalog.diff"
	echo "(if intended: scripts/markers/markers-list --catalog ... > scripts/markers/catalog.ref)"
	rc=1
fi
echo "catalog: $(wc -l < "$LOGS/catalog.txt") markers, $(awk '{ n += $(NF - 2) } END { print n }' "$LOGS/catalog.txt") sites"

# 2. markers-diff: an incompatible change is flagged.
printf 'a mark "%%d" sites 1 modules m\nb mark "%%s" sites 1 modules m\n' > "$LOGS/cat-old"
printf 'a mark "%%ld" sites 1 modules m\nb mark "%%-8s" sites 1 modules m\n' > "$LOGS/cat-new"
out=$("$TOP/scripts/markers/markers-diff" "$LOGS/cat-old" "$LOGS/cat-new") && { echo "markers-diff missed an incompatible change"; rc=1; }
echo "$out" | grep -q 'changed: mark a "%d" -> "%ld" INCOMPATIBLE' || { echo "markers-diff: $out"; rc=1; }
echo "$out" | grep -q 'changed: mark b "%s" -> "%-8s"$' || { echo "markers-diff: $out"; rc=1; }

# 3. Malformed files: cuts and bit flips of real objects, deterministic.
mal=$B/malformed
rm -rf "$mal"
mkdir -p "$mal"
python3 - "$mal" "$KOBJ/samples/markers/sdt-example.ko" "$KOBJ/samples/markers/marker-example.ko" \
	"$KOBJ/samples/markers/sdt-example-c.o" "$KOBJ/kernel/module/main.o" <<'PY'
import random, sys
out, srcs = sys.argv[1], sys.argv[2:]
rnd = random.Random(1)
for i in range(1000):
    data = bytearray(open(srcs[i % len(srcs)], "rb").read())
    if i % 2:
        data = data[:rnd.randrange(len(data))]
    else:
        for _ in range(rnd.choice((1, 2, 4, 8, 32))):
            data[rnd.randrange(len(data))] ^= 1 << rnd.randrange(8)
    open("%s/%04d.elf" % (out, i), "wb").write(data)
PY
ok=0 err=0 bad=0
for f in "$mal"/*.elf; do
	for mode in "" --notes; do
		timeout 5 "$B/tools/markers-list" $mode "$f" > /dev/null 2>&1
		case $? in
		0) ok=$((ok + 1)) ;;
		1) err=$((err + 1)) ;;
		*) bad=$((bad + 1)); echo "markers-list $mode $f: status $?" ;;
		esac
	done
done
echo "malformed corpus: 1000 files, 2000 runs: $ok listed, $err rejected with an error, $bad crashed or hung"
[ $bad = 0 ] || rc=1

# 4. A short libFuzzer run of the ELF reader (clang from Debian).
if command -v clang > /dev/null; then
	fz=$B/fuzz
	rm -rf "$fz"
	mkdir -p "$fz/corpus"
	cp "$KOBJ/samples/markers/sdt-example-c.o" "$KOBJ/samples/markers/marker-example.ko" "$fz/corpus/"
	if clang -g -O1 -fsanitize=fuzzer,address,undefined -o "$fz/fuzz-markers-list" \
		"$TOP/scripts/markers/fuzz-markers-list.c" -lelf > "$fz/build.log" 2>&1; then
		(cd "$fz" && ASAN_OPTIONS=detect_leaks=0 timeout 120 ./fuzz-markers-list -detect_leaks=0 \
			-max_total_time=${FUZZ_SECONDS:-20} -rss_limit_mb=1024 -seed=1 corpus > run.log 2>&1)
		st=$?
		runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$fz/run.log")
		crashes=$(ls "$fz"/crash-* "$fz"/timeout-* "$fz"/oom-* 2>/dev/null | wc -l)
		echo "libFuzzer: ${runs:-?} execs in ${FUZZ_SECONDS:-20} s, $crashes crash(es), status $st"
		[ "$st" = 0 ] && [ "$crashes" = 0 ] || { tail -n 20 "$fz/run.log"; rc=1; }
	else
		cat "$fz/build.log"; rc=1
	fi
else
	echo "libFuzzer: no clang, skipped"
fi
exit $rc
