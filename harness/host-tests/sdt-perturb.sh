#!/bin/bash
# SDT code perturbation: the same hot function built with and without an
# SDT site (samples/markers/sdt-perturb-*.o) must differ by the site's
# 5-byte NOP alone: no spill, move, or widening of its int arguments.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

dis() {
	objdump -d --no-show-raw-insn "$KOBJ/samples/markers/$1" |
		awk '/<sdt_perturb_hot>:/ { on = 1; next } on && /^$/ { exit } on' |
		sed 's/^ *[0-9a-f]*:\t//; s/ *#.*//; s/<[^>]*>//; s/[0-9a-f]\+ $//'
}
dis sdt-perturb-without.o > "$LOGS/perturb-without.s"
dis sdt-perturb-with.o > "$LOGS/perturb-with.s"
nw=$(wc -l < "$LOGS/perturb-without.s")
n=$(wc -l < "$LOGS/perturb-with.s")
echo "without the site: $nw instructions; with it: $n"
[ "$nw" -gt 3 ] || { echo "no reference function found"; exit 1; }
nops=$(grep -c '^nopl *0x0(%rax,%rax,1)$' "$LOGS/perturb-with.s" || true)
[ "$nops" = 1 ] || { echo "expected one 5-byte nopl in the site's function, got $nops"; exit 1; }
# The NOP is 5 bytes.
objdump -d "$KOBJ/samples/markers/sdt-perturb-with.o" | grep -q '0f 1f 44 00 00 *	nopl' ||
	{ echo "the site's NOP is not 0f 1f 44 00 00"; exit 1; }
# Jump targets move by 5 bytes with the NOP: compare instructions without
# their branch offsets.
norm() { sed -E 's/^(j[a-z]+|call) +[0-9a-f]+.*/\1/' "$1"; }
if ! diff <(norm "$LOGS/perturb-without.s") <(norm "$LOGS/perturb-with.s" | grep -v '^nopl *0x0(%rax,%rax,1)$'); then
	echo "the SDT site changed more than its NOP (see the diff above)"
	exit 1
fi
echo "perturbation: +1 instruction (the 5-byte NOP), +5 bytes, nothing else"
