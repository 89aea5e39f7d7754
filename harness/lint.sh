#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make lint: checkpatch --strict over our overlay sources and patches,
# kernel-doc -Wall over our kernel sources (Documentation/trace/markers.rst
# pulls some of it in), sparse (C=2) and a W=1 build over the objects
# built from our sources.
# All run from the grafted tree. Exit status non-zero on any warning.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# --objects: sparse and W=1 only, on this ARCH's objects (make check
# ARCH=arm64's host/lint-objects: the arm64-only files).
objects_only=0
[ "${1:-}" != --objects ] || objects_only=1

cd "$TOP"
rc=0
srcs=$(git ls-files --cached --others --exclude-standard -- $OVERLAY_DIRS |
	grep -E '\.(c|h|S)$' || true)
if [ $objects_only = 0 ]; then
cp_opts=(--strict --no-tree --quiet --show-types --terse
	 --typedefsfile "$TOP/harness/checkpatch.typedefs")

echo "lint: checkpatch --strict on $(echo "$srcs" | grep -c . || true) files and $(grep -cv '^#' patches/series || true) patches"
for f in $srcs; do
	# Per-file exemptions, each with its reason, in checkpatch.ignore.
	ign=$(awk -v f="$f" '$1 == f { print $2 }' "$TOP/harness/checkpatch.ignore")
	out=$(cd "$KSRC" && perl scripts/checkpatch.pl "${cp_opts[@]}" \
		${ign:+--ignore "$ign"} -f "$f" 2>&1) || {
		echo "$out"; rc=1; }
done
while read -r p _; do
	case "$p" in ''|'#'*) continue ;; esac
	ign=$(awk -v f="patches/$p" '$1 == f { print $2 }' "$TOP/harness/checkpatch.ignore")
	out=$(cd "$KSRC" && perl scripts/checkpatch.pl "${cp_opts[@]}" \
		${ign:+--ignore "$ign"} "$TOP/patches/$p" 2>&1) || {
		echo "$out"; rc=1; }
done < patches/series

# kernel-doc: every comment that opens with /** parses, and documents
# every parameter and return value, on our kernel sources.
ksrcs=$(echo "$srcs" | grep -E '\.(c|h)$' | grep -Ev '^(scripts|samples)/|/tests/' || true)
echo "lint: kernel-doc -Wall on $(echo "$ksrcs" | grep -c . || true) files"
out=$(perl "$KSRC/scripts/kernel-doc" -none -Wall $ksrcs 2>&1)
[ -z "$out" ] || { echo "$out"; rc=1; }
fi

# ours_warn LOG: print the warnings and errors of LOG in our files; true
# if there is one.
ours_warn() {
	grep -E '(warning|error):' "$1" | sed "s|^$KSRC/||; s|^\.\./linux/||" |
		grep -F -f <(echo "$srcs" | sed 's/$/:/')
}

# sparse on every kernel object our .c files produce in this configuration
# (the host tools under scripts/ are built by kbuild as host programs).
objs=
for f in $(echo "$srcs" | grep -E '\.c$' | grep -v '^scripts/' || true); do
	o=${f%.c}.o
	[ -f "$KOBJ/$o" ] && objs="$objs $o"
done
if [ -n "$objs" ]; then
	echo "lint: sparse (C=2) on$objs"
	"${KMAKE[@]}" C=2 CHECK="sparse" $objs > "$LOGS/sparse.log" 2>&1 || {
		tail -n 20 "$LOGS/sparse.log"; rc=1; }
	# Only ours: making the objects may check the kernel's own (arm64's
	# vDSO has a sparse warning of its own in 6.12).
	if ours_warn "$LOGS/sparse.log"; then
		rc=1
	fi
fi
# W=1 on the same objects, each compiled to assembly (its .s target), so
# the objects of the normal build and their flags stay as they are.
if [ -n "$objs" ]; then
	sobjs=$(for o in $objs; do echo "${o%.o}.s"; done)
	echo "lint: W=1 on $(echo "$sobjs" | wc -l) objects"
	"${KMAKE[@]}" W=1 $sobjs > "$LOGS/w1.log" 2>&1 || {
		tail -n 20 "$LOGS/w1.log"; rc=1; }
	if ours_warn "$LOGS/w1.log"; then
		rc=1
	fi
fi
# The guest tests' modules (harness/modules/, built out of tree, not in
# the series): checkpatch --strict, and sparse with W=1 in a copy of
# their own, so that the objects the guest loads keep their flags.
if [ $objects_only = 0 ] && grep -q '^CONFIG_MARKERS_KUNIT_TEST=m' "$KOBJ/.config"; then
	tm=$(ls "$TOP"/harness/modules/*.c)
	echo "lint: checkpatch --strict, sparse and W=1 on $(echo "$tm" | wc -l) test modules"
	for f in $tm; do
		out=$(cd "$KSRC" && perl scripts/checkpatch.pl "${cp_opts[@]}" -f "$f" 2>&1) || {
			echo "$out"; rc=1; }
	done
	lt=$B/test-modules-lint$SFX
	rm -rf "$lt"
	cp -r "$TOP/harness/modules" "$lt"
	"${KMAKE[@]}" M="$lt" C=2 CHECK=sparse W=1 modules > "$LOGS/test-modules-lint.log" 2>&1 || {
		tail -n 20 "$LOGS/test-modules-lint.log"; rc=1; }
	if grep -E '(warning|error):' "$LOGS/test-modules-lint.log"; then
		rc=1
	fi
fi
[ $rc = 0 ] && echo "lint: clean"
exit $rc
