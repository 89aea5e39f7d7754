#!/bin/bash
# The CALL of an armed MARK() site gets its arguments (data, format,
# va_list) in the argument registers, even when the compiler adds calls of
# its own around the site: a sanitizer's (KCSAN, KASAN outline) calls
# between the setting of those registers and the CALL would clobber them
# (GCC: a local register variable is only guaranteed in its register as
# an asm operand, and any call in between may change it). An out-of-tree
# object with MARK() sites of 0 to 6 arguments, built against make kdir
# with KCSAN's instrumentation (-fsanitize=thread), disassembled: between
# the last call before each CALL of __marker_slowpath and that CALL, every
# argument register is written. (x86_64 passes them as asm operands, so
# the check holds there by construction: arm64 only.)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ "$KARCH" = arm64 ] || { echo "arm64 only: x86_64's site passes its registers as asm operands"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/callregs.c" <<'C'
// SPDX-License-Identifier: GPL-2.0
#include <linux/marker.h>
#include <linux/module.h>

static int shared;

noinline void callregs_sites(int a, long b, const char *s)
{
	MARK(callregs_0, "none");
	MARK(callregs_1, "a %d", a);
	MARK(callregs_3, "a %d b %ld s %s", a, b, s);
	MARK(callregs_6, "%d %ld %s %d %d %d", a, b, s, a + 1, shared, a * 3);
}
EXPORT_SYMBOL_GPL(callregs_sites);
MODULE_LICENSE("GPL");
C
{
	echo 'obj-m := callregs.o'
	# KCSAN's instrumentation (scripts/Makefile.kcsan: its -fsanitize=thread).
	echo 'ccflags-y := -fsanitize=thread'
} > "$tmp/Makefile"
(cd "$tmp" && make -C "$(make -s -C "$TOP" kdir)" M="$PWD" "${KCROSS[@]}" "${KCC[@]}" \
	ARCH=arm64 callregs.o) > "$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
# GNU objdump for either compiler's object: it names a BL's target from
# its relocation on the BL's own line.
aarch64-linux-gnu-objdump -dr --no-show-raw-insn "$tmp/callregs.o" > "$tmp/callregs.dis"
grep -c '__tsan_' "$tmp/callregs.dis" > "$tmp/ntsan" || true
[ "$(cat "$tmp/ntsan")" -gt 0 ] || { echo "no __tsan_ call in the object: not instrumented"; exit 1; }
# For each "bl __marker_slowpath": the registers x0, x1, x2 written since
# the previous bl (or the function's start).
awk '/^[0-9a-f]+ <.*>:$/ { fn = $2; w = "" ; next }
     /\tbl\t/ {
	if ($0 ~ /__marker_slowpath/) {
		n++
		miss = ""
		for (r = 0; r <= 2; r++)
			if (index(w, " x" r " ") == 0) miss = miss " x" r
		if (miss != "") { bad++; print "CALL at " $1 " in " fn ": not set after the last call:" miss }
	}
	w = ""; next }
     /^ +[0-9a-f]+:\t/ {
	# The first operand of most instructions is the one written.
	split($0, f, "\t"); ops = f[3]; sub(/,.*/, "", ops); sub(/^w/, "x", ops)
	w = w " " ops " " }
     END { printf "%d CALLs of __marker_slowpath, %d with an argument register not set after a call\n", n, bad
	   exit !(n >= 4 && bad == 0) }' "$tmp/callregs.dis" || {
	grep -B12 'bl.*__marker_slowpath' "$tmp/callregs.dis" | head -n 60; exit 1; }
