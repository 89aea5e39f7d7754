#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make series-build: apply build/patches one patch at a time onto pristine
# 6.12 and build the kernel (bzImage and modules, the test flavour's
# configuration, LLVM=1 honoured) after each, to show the series bisects.
# Stops at, and names, the first patch that does not build. Not part of
# make check: a cold build and then one build per patch.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

python3 "$TOP/harness/series.py" generate > /dev/null
tree=$B/series/bisect$SFX
obj=$B/series/obj$SFX
log=$LOGS/series-build.log
mkdir -p "$LOGS"
: > "$log"
# Our own copy of the series: make patches or make check may write
# build/patches again while this runs.
pdir=$B/series/patches$SFX
rm -rf "$pdir"
cp -r "$B/patches" "$pdir"

# A hard-linked pristine tree; the files the series touches become copies
# of their own first, so applying a patch never writes into build/pristine.
say "series-build: a pristine tree in $tree"
rm -rf "$tree"
cp -al "$PRISTINE" "$tree"
sed -n 's|^+++ b/||p' "$pdir"/*.patch | sort -u | while read -r f; do
	if [ -e "$PRISTINE/$f" ]; then
		cp --remove-destination "$PRISTINE/$f" "$tree/$f"
	fi
done
mkdir -p "$obj"
SMAKE=(make -C "$tree" O="$obj" ARCH=x86_64 "${KCC[@]}" HOSTCC="ccache gcc" -j"$NPROC")

n=0
total=$(ls "$pdir"/[0-9][0-9][0-9][0-9]-*.patch | grep -cv '/0000-')
t0=$(date +%s)
for p in "$pdir"/[0-9][0-9][0-9][0-9]-*.patch; do
	case $(basename "$p") in 0000-*) continue ;; esac
	n=$((n + 1))
	subj=$(git mailinfo /dev/null /dev/null < "$p" | sed -n 's/^Subject: //p')
	if ! patch -p1 -s -N -F0 --no-backup-if-mismatch -d "$tree" < "$p" >> "$log" 2>&1; then
		echo "series-build: patch $n/$total does not apply: $subj"
		exit 1
	fi
	# Configure again when a Kconfig changed (and the first time): the
	# options the series has not added yet are dropped by olddefconfig.
	if [ $n = 1 ] || grep -q '^+++ b/.*Kconfig' "$p"; then
		"${SMAKE[@]}" -s tinyconfig >> "$log" 2>&1
		"$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
			$FRAGMENTS >> "$log" 2>&1
		"${SMAKE[@]}" -s olddefconfig >> "$log" 2>&1
	fi
	s=$(date +%s)
	echo "=== patch $n/$total: $subj" >> "$log"
	before=$(grep -c ': warning:' "$log" || true)
	if ! "${SMAKE[@]}" bzImage modules >> "$log" 2>&1; then
		grep -E 'error' "$log" | tail -n 20
		echo "series-build: FIRST FAILURE at patch $n/$total: $subj (log: $log)"
		exit 1
	fi
	warn=$(( $(grep -c ': warning:' "$log" || true) - before ))
	printf 'series-build: %2d/%d builds (%4ds, %d warnings, CONFIG_MARKERS=%s): %s\n' \
		"$n" "$total" $(( $(date +%s) - s )) "$warn" \
		"$(sed -n 's/^CONFIG_MARKERS=//p' "$obj/.config")" "$subj"
done
echo "series-build: all $total patches build ($(( $(date +%s) - t0 ))s)"
