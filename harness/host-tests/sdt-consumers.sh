#!/bin/bash
# SDT notes as every stock consumer reads them: binutils readelf -n,
# elfutils eu-readelf -n, gdb "info probes" and our markers-list, on
# vmlinux and the modules with SDT sites, must count the same sites.
# Writes the table (tool x file -> sites) to $LOGS/sdt-consumers.txt,
# for harness/check.sh to compare with the guest's listing, and counts
# the operand forms the compiler chose for the generated sites of
# markers_sdt_diff_kunit.ko.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

list="$KOBJ/scripts/markers/markers-list"
declare -A files=(
	[vmlinux]="$KOBJ/vmlinux"
	[sdt_example]="$(find "$KOBJ/samples/markers" -name sdt-example.ko)"
	[markers_sdt_diff_kunit]="$(find "$KOBJ/kernel/markers/tests" -name markers_sdt_diff_kunit.ko)"
)
out="$LOGS/sdt-consumers.txt"

# gdb's count of the SDT probes of $1. Debian 12's gdb 13.1 dies with a
# SIGSEGV reading the DWARF that clang 19 writes for sdt-example.ko on
# arm64, before it reads any note; "info probes" reads only the notes, so
# it then counts on a copy without the debug sections, and says so.
if [ -n "${LLVM:-}" ]; then objcopy=llvm-objcopy
elif [ "$KARCH" = arm64 ]; then objcopy=aarch64-linux-gnu-objcopy
else objcopy=objcopy; fi
nodebug=$(mktemp)
trap 'rm -f "$nodebug"' EXIT
gdb_probes() {
	local g
	g=$(gdb -nx -batch -ex 'info probes stap' "$1" 2>&1 || true)
	if grep -q '^Fatal signal' <<< "$g"; then
		echo "gdb crashed reading $(basename "$1") ($(grep -m1 '^Fatal signal' <<< "$g")); counting on a copy without its debug sections" >&2
		"$objcopy" --strip-debug "$1" "$nodebug"
		g=$(gdb -nx -batch -ex 'info probes stap' "$nodebug" 2>&1 || true)
	fi
	grep -c '^stap ' <<< "$g" || true
}
: > "$out"
bad=0
for obj in vmlinux sdt_example markers_sdt_diff_kunit; do
	f=${files[$obj]}
	[ -f "$f" ] || { echo "no $obj at $f"; exit 1; }
	r=$(readelf -n "$f" | grep -c 'NT_STAPSDT' || true)
	e=$(eu-readelf -n "$f" | grep -c '^  stapsdt .*Version: 3' || true)
	g=$(gdb_probes "$f")
	m=$("$list" "$f" | grep -c '^sdt ' || true)
	printf '%-24s readelf %4d  eu-readelf %4d  gdb %4d  markers-list %4d\n' \
		"$obj" "$r" "$e" "$g" "$m" | tee -a "$out"
	if [ "$r" = 0 ] || [ "$r" != "$e" ] || [ "$r" != "$g" ] || [ "$r" != "$m" ]; then
		echo "$obj: the consumers disagree"
		bad=1
	fi
done

# Operand forms: registers by width, numbers and symbols abstracted. An
# arm64 spec ("-4@w0 8@[sp, 16] 4@5") has spaces inside its brackets.
readelf -n "${files[markers_sdt_diff_kunit]}" | sed -n 's/^ *Arguments: //p' |
	KARCH=$KARCH python3 -c '
import os, re, sys
WIDTH = [(8, r"r\d+b|[a-d][lh]|[sd]il|[sb]pl"), (16, r"r\d+w|[a-d]x|[sd]i|[sb]p"),
	 (32, r"r\d+d|e[a-d]x|e[sd]i|e[sb]p"), (64, r"r\d+|r[a-d]x|r[sd]i|r[sb]p")]
def reg(name):
	if name == "rip":
		return "%rip"
	for w, rx in WIDTH:
		if re.fullmatch(rx, name):
			return "%%reg%d" % w
	return "%?" + name
def form(op):
	op = re.sub(r"^-?\d+@", "", op)
	if op.startswith("$"):
		return "$imm"
	seg = ""
	if op.startswith("%gs:"):
		seg, op = "%gs:", op[4:]
	op = re.sub(r"%(\w+)", lambda m: reg(m.group(1)), op)
	op = re.sub(r"(?<![%\w.])[A-Za-z_][\w.]*", "sym", op)
	op = re.sub(r"(?<![\w%])-?\d+", "N", op)
	return seg + op
def form_arm64(op):
	op = re.sub(r"^-?\d+@", "", op)
	reg = lambda r: re.sub(r"^([xw])\d+$", r"\1N", r)
	if re.fullmatch(r"#?-?(0x[0-9a-fA-F]+|\d+)", op):
		return "imm"
	m = re.fullmatch(r"\[([^,\]]+)(?:,\s*(.*))?\]", op)
	if m:
		return "[%s%s]" % (reg(m.group(1).strip()), ", imm" if m.group(2) else "")
	if re.fullmatch(r"[xw]\d+|w?sp|[xw]zr", op):
		return reg(op)
	return re.sub(r"[+-](0x[0-9a-fA-F]+|\d+)$", "+N", re.sub(r"^[A-Za-z_.][\w.]*", "sym", op))
arm64 = os.environ.get("KARCH") == "arm64"
for line in sys.stdin:
	ops = re.findall(r"\S+@\[[^]]*\]|\S+", line) if arm64 else line.split()
	for op in ops:
		print(form_arm64(op) if arm64 else form(op))
' | sort | uniq -c | sort -rn > "$LOGS/sdt-operand-forms.txt"
echo "markers_sdt_diff_kunit: $(wc -l < "$LOGS/sdt-operand-forms.txt") distinct operand forms ($KARCH, $(if [ -n "${LLVM:-}" ]; then echo clang; else echo GCC; fi)):"
cat "$LOGS/sdt-operand-forms.txt"
exit $bad
