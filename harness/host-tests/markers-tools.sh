#!/bin/bash
# Host tools (scripts/markers): markers-list (the kbuild host program of
# our build, build/obj/scripts/markers/markers-list) exists and its sources
# build -Wall -Wextra -Werror clean, its catalog of our build matches the
# committed reference (under LLVM=1, its names and formats), its --classes mode gives the kernel grammar's
# answers, markers-diff flags incompatible formats, a corpus of 1,000
# malformed ELF files (cuts and bit flips of real objects) gets exit status
# 0 or 1 and never a crash or a hang. (The libFuzzer run of the ELF reader
# is markers-fuzz.sh.)
set -uo pipefail
. "$(dirname "$0")/../lib.sh"

ML=$KOBJ/scripts/markers/markers-list
MD=$TOP/scripts/markers/markers-diff
export MARKERS_LIST=$ML
[ -x "$ML" ] || { echo "no $ML: kbuild builds it with CONFIG_MARKERS (scripts/markers/Makefile); run make build"; exit 1; }
elf_cflags=$(pkg-config libelf --cflags 2>/dev/null)
for c in markers-list.c format.c; do
	# shellcheck disable=SC2086
	gcc -O2 -std=gnu11 -Wall -Wextra -Werror -Wmissing-prototypes -Wstrict-prototypes $elf_cflags \
		-c -o /dev/null "$TOP/scripts/markers/$c" ||
		{ echo "scripts/markers/$c does not build -Wall -Wextra -Werror"; exit 1; }
done
rc=0

# 1. The catalog of our build (harness/catalog.sh) against the reference.
"$TOP/harness/catalog.sh" > "$LOGS/catalog.txt" || { echo "harness/catalog.sh failed"; exit 1; }
# The reference is the GCC build's: clang picks other operands for SDT
# sites, makes other numbers of copies of a site, and does not unroll the
# loop of kunit_unroll (markers_kunit's markers_test_unrolled, a skip
# there). Under LLVM=1 the names, kinds and formats must match all the
# same: every MARK() and guard with its format, every SDT name.
catalog_names() {
	awk '$1 != "kunit_unroll" { if ($2 == "sdt") print $1, $2; else print }' "$1" |
		sed 's/ sites [0-9]* modules .*//' | LC_ALL=C sort -u
}
if [ -n "${LLVM:-}" ]; then
	if ! diff -u <(catalog_names "$TOP/scripts/markers/catalog.ref") \
			<(catalog_names "$LOGS/catalog.txt") > "$LOGS/catalog.diff"; then
		echo "the names or formats of the catalog differ from scripts/markers/catalog.ref's:"
		cat "$LOGS/catalog.diff"
		rc=1
	else
		echo "catalog: LLVM=1: names and formats as in scripts/markers/catalog.ref (sites and SDT operands are the compiler's)"
	fi
elif ! "$MD" "$TOP/scripts/markers/catalog.ref" "$LOGS/catalog.txt" > "$LOGS/catalog.diff" ||
   [ -s "$LOGS/catalog.diff" ]; then
	echo "the marker catalog differs from scripts/markers/catalog.ref:"
	cat "$LOGS/catalog.diff"
	echo "(if intended, make refresh writes the build's catalog to scripts/markers/catalog.ref)"
	rc=1
fi
echo "catalog: $(wc -l < "$LOGS/catalog.txt") markers, $(awk '{ n += $(NF - 2) } END { print n }' "$LOGS/catalog.txt") sites"

# 2. markers-list --classes: the kernel grammar's answers, one line per
#    format ("" for no arguments; "%*5d" and "%f" are not formats).
printf '%s\n' '%d %s %ld' '' 'no arguments %%' '%*.*s' '%hhd %zu %p %pS %c' '%f' '%*5d' 'end %' |
	"$ML" --classes > "$LOGS/classes.txt" || { echo "markers-list --classes failed"; rc=1; }
if ! printf '%s\n' 'int,str,long' '' '' 'int,int,str' 'int,long,ptr,ptr,int' invalid invalid invalid |
	diff -u - "$LOGS/classes.txt"; then
	echo "markers-list --classes: wrong answers (expected -, got +)"; rc=1
fi
"$ML" --classes "$KOBJ/vmlinux" < /dev/null > /dev/null 2>&1 && { echo "markers-list --classes took a FILE"; rc=1; }

# 3. markers-diff, through markers-list --classes: an incompatible change
#    is flagged, a compatible one is not; SDT sites compare by argument
#    count; without markers-list it says so and exits 2.
printf 'a mark "%%d" sites 1 modules m\nb mark "%%s" sites 1 modules m\n' > "$LOGS/cat-old"
printf 'a mark "%%ld" sites 1 modules m\nb mark "%%-8s" sites 1 modules m\n' > "$LOGS/cat-new"
out=$("$MD" "$LOGS/cat-old" "$LOGS/cat-new"); st=$?
[ $st = 1 ] || { echo "markers-diff missed an incompatible change (status $st)"; rc=1; }
want='changed: mark a "%d" -> "%ld" INCOMPATIBLE
changed: mark b "%s" -> "%-8s"'
[ "$out" = "$want" ] || { echo "markers-diff: got"; echo "$out"; echo "instead of"; echo "$want"; rc=1; }
printf 'p:a sdt "8@%%rbx" sites 1 modules m\np:b sdt "8@%%rbx" sites 1 modules m\n' > "$LOGS/cat-old"
printf 'p:a sdt "-4@%%eax" sites 1 modules m\np:b sdt "8@%%rbx 8@%%rcx" sites 1 modules m\n' > "$LOGS/cat-new"
out=$("$MD" "$LOGS/cat-old" "$LOGS/cat-new"); st=$?
want='changed: sdt p:a "8@%rbx" -> "-4@%eax"
changed: sdt p:b "8@%rbx" -> "8@%rbx 8@%rcx" INCOMPATIBLE'
[ $st = 1 ] && [ "$out" = "$want" ] || { echo "markers-diff (sdt): status $st, got"; echo "$out"; echo "instead of"; echo "$want"; rc=1; }
printf 'a mark "%%d" sites 1 modules m\n' > "$LOGS/cat-old"
printf 'a mark "%%u" sites 1 modules m\n' > "$LOGS/cat-new"
out=$(MARKERS_LIST=$B/no-such-markers-list "$MD" "$LOGS/cat-old" "$LOGS/cat-new" 2>&1); st=$?
[ $st = 2 ] && echo "$out" | grep -q 'no-such-markers-list' ||
	{ echo "markers-diff without markers-list: status $st: $out"; rc=1; }

# 4. Malformed files: cuts and bit flips of real objects, deterministic.
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
		timeout 5 "$ML" $mode "$f" > /dev/null 2>&1
		case $? in
		0) ok=$((ok + 1)) ;;
		1) err=$((err + 1)) ;;
		*) bad=$((bad + 1)); echo "markers-list $mode $f: status $?" ;;
		esac
	done
done
echo "malformed corpus: 1000 files, 2000 runs: $ok listed, $err rejected with an error, $bad crashed or hung"
[ $bad = 0 ] || rc=1

exit $rc
