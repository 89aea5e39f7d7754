#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make series-build: apply the series (make patches') one patch at a time
# onto pristine 6.12, build the kernel (its image and modules, the test
# flavour's configuration, LLVM=1 and ARCH=arm64 honoured) after each and
# boot it, to show the series bisects. On arm64 the patches before "arm64:
# add kernel markers" build with CONFIG_MARKERS=n: the arch selects
# HAVE_ARCH_MARKERS there. Stops at, and names, the first patch that does
# not build or boot. Not part of make check: a cold build and then one
# build and one boot per patch.
#
# The boot (harness/guest/series-boot.sh under run.sh) must come up, end
# its job and log no splat; from the patch that adds the listing on, it
# reads every site of vmlinux there, from the control file on, arms and
# disarms all of them, and runs the KUnit suites of the patches so far
# (each comes right after the code it tests; harness/series.def). The
# kernel is the test flavour without the checkers of markers-debug.config
# (SERIES_DEBUG=1 keeps them): they compile no marker code of their own,
# and make each boot several times slower; make check runs the series'
# final state under them.
#
# SERIES_FROM=N builds and boots from patch N on: the patches before it
# are applied unbuilt (to finish a run that stopped at patch N).
#
# series-build.sh --objects: the cheap form, make check's host test
# series-objects. After each patch it builds, without warnings, only the
# objects of the files the series has added or changed so far (those
# the full build compiles), and checks that every symbol they use is
# defined by them or by the kernel without the series: a patch that calls
# code of a later patch fails here as it would fail to link. The build
# directory is kept between runs, so a run after a small change rebuilds
# little (ccache).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mode=full
[ "${1:-}" = --objects ] && mode=objects

if [ $mode = full ]; then
	tree=$B/series/bisect$SFX
	obj=$B/series/obj$SFX
	log=$LOGS/series-build.log
else
	tree=$B/series/objects-tree$SFX
	obj=$B/series/objects-obj$SFX
	log=$LOGS/series-objects-build.log
	[ -f "$KOBJ/vmlinux" ] || die "series-build --objects: no kernel in $KOBJ: make build first"
fi
mkdir -p "$LOGS"
: > "$log"
# The series in a directory of our own, as make patches writes it but
# without the Cc list, which nothing here reads (get_maintainer.pl takes
# 12 s): make patches or make check may write build/patches meanwhile.
pdir=$B/series/patches$SFX-$mode
PATCHES_OUT=$pdir NO_CC=1 python3 "$TOP/harness/series.py" generate > /dev/null

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
if [ $mode = full ] && [ -z "${SERIES_DEBUG:-}" ]; then
	FRAGMENTS=${FRAGMENTS/$CONFIGS\/markers-debug.config/}
fi
# Neither mode reads DWARF or BTF: without them a build is about a
# fifth cheaper (markers-nobtf.config; already there on arm64).
case " $FRAGMENTS " in
*/markers-nobtf.config*) ;;
*) FRAGMENTS="$FRAGMENTS $CONFIGS/markers-nobtf.config" ;;
esac
SMAKE=(make -C "$tree" O="$obj" ARCH=$KARCH "${KCROSS[@]}" "${KCC[@]}" HOSTCC="$TOP/harness/kbuild-cc gcc" -j"$NPROC")

# --objects: the symbols the kernel defines without the series. The full
# build's symbols (vmlinux and every export), less those that objects of
# files the series adds define; and __this_module.
base=$B/series/base-symbols$SFX
if [ $mode = objects ]; then
	sed -n 's|^+++ b/||p' "$pdir"/*.patch | sort -u | while read -r f; do
		[ -e "$PRISTINE/$f" ] && continue
		case $f in *.c|*.S) o=$KOBJ/${f%.*}.o; [ -f "$o" ] && echo "$o" ;; esac
	done | xargs -r nm --defined-only 2> /dev/null | awk 'NF == 3 { print $3 }' |
		sort -u > "$base.series"
	# __this_module: each module's own, which modpost writes.
	{ awk '{ print $3 }' "$KOBJ/System.map"; awk '{ print $2 }' "$KOBJ/Module.symvers"
	  echo __this_module; } |
		sort -u | comm -23 - "$base.series" > "$base"
fi

# The objects of the files patches 1..$n touch that the full build has.
objects_so_far() {
	sed -n 's|^+++ b/||p' "$@" | sort -u | while read -r f; do
		case $f in
		scripts/* | tools/*) ;;		# host programs: not kernel objects
		*.c | *.S) [ -f "$KOBJ/${f%.*}.o" ] && echo "${f%.*}.o" ;;
		esac
	done
}

n=0
total=$(ls "$pdir"/[0-9][0-9][0-9][0-9]-*.patch | grep -cv '/0000-')
t0=$(date +%s)
applied=()
for p in "$pdir"/[0-9][0-9][0-9][0-9]-*.patch; do
	case $(basename "$p") in 0000-*) continue ;; esac
	n=$((n + 1))
	applied+=("$p")
	subj=$(git mailinfo /dev/null /dev/null < "$p" | sed -n 's/^Subject: //p')
	if ! patch -p1 -s -N -F0 --no-backup-if-mismatch -d "$tree" < "$p" >> "$log" 2>&1; then
		echo "series-build: patch $n/$total does not apply: $subj"
		exit 1
	fi
	# Configure again when a Kconfig changed (and the first time): the
	# options the series has not added yet are dropped by olddefconfig.
	if [ $n = 1 ] || grep -q '^+++ b/.*Kconfig' "$p"; then
		"${SMAKE[@]}" -s tinyconfig >> "$log" 2>&1
		(cd "$obj" && "$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" \
			"$obj/.config" $FRAGMENTS) >> "$log" 2>&1
		"${SMAKE[@]}" -s olddefconfig >> "$log" 2>&1
	fi
	if [ "$n" -lt "${SERIES_FROM:-1}" ]; then
		printf 'series-build: %2d/%d applied, not built (SERIES_FROM=%s): %s\n' \
			"$n" "$total" "$SERIES_FROM" "$subj"
		continue
	fi
	s=$(date +%s)
	echo "=== patch $n/$total: $subj" >> "$log"
	before=$(grep -c ': warning:' "$log" || true)
	if [ $mode = full ]; then
		targets=("$(basename "$KIMAGE")" modules)
	else
		mapfile -t targets < <(objects_so_far "${applied[@]}")
		# A patch that changes nothing the objects are built from
		# (documentation, MAINTAINERS, scripts) has been checked.
		grep -Eq '^\+\+\+ b/(.*\.[chS]|.*Kconfig.*|.*Makefile|.*\.lds.*)$' "$p" || targets=()
	fi
	if [ ${#targets[@]} -gt 0 ] && ! "${SMAKE[@]}" "${targets[@]}" >> "$log" 2>&1; then
		grep -E 'error' "$log" | tail -n 20
		echo "series-build: FIRST FAILURE at patch $n/$total: $subj (log: $log)"
		exit 1
	fi
	warn=$(( $(grep -c ': warning:' "$log" || true) - before ))
	what="CONFIG_MARKERS=$(sed -n 's/^CONFIG_MARKERS=//p' "$obj/.config")"
	if [ $mode = full ]; then
		# Boot it, with its modules (the job loads none: they are
		# there for the KUnit suites that load at boot).
		rm -rf "$obj/modroot"
		"${SMAKE[@]}" -s INSTALL_MOD_PATH="$obj/modroot" modules_install >> "$log" 2>&1
		blog=$B/series/boot$SFX/patch-$(printf %02d "$n").log
		mkdir -p "$(dirname "$blog")"
		if ! KOBJ_DIR=$obj MODROOT_DIR=$obj/modroot GUEST_DIR=$B/series/guest$SFX \
			"$TOP/harness/run.sh" -t 600 -l "$blog" \
			"$TOP/harness/guest/series-boot.sh" > "$blog.out" 2>&1; then
			cat "$blog.out"
			echo "series-build: FIRST FAILURE at patch $n/$total: does not boot: $subj (log: $blog)"
			exit 1
		fi
		what="$what, booted: $(grep -a -m1 '^series-boot:' "$blog" | tr -d '\r' || echo ?)"
	fi
	if [ $mode = objects ]; then
		what="$what, ${#targets[@]} objects"
		missing=
		if [ "$warn" != 0 ]; then
			sed -n "/^=== patch $n\//,\$p" "$log" | grep ': warning:' | head -n 10
			echo "series-build: patch $n/$total builds with $warn warnings: $subj"
			exit 1
		fi
		# Every symbol the objects use: theirs, or the kernel's.
		[ ${#targets[@]} -gt 0 ] && missing=$( (cd "$obj" && nm -u "${targets[@]}" 2> /dev/null) |
			awk 'NF == 2 { print $2 }' | sort -u |
			comm -23 - <( (cd "$obj" && nm --defined-only "${targets[@]}" 2> /dev/null) |
				awk 'NF == 3 { print $3 }' | sort -u) |
			comm -23 - "$base")
		if [ -n "$missing" ]; then
			for sym in $missing; do
				echo "  $sym, used by $(cd "$obj" && nm -A -u "${targets[@]}" 2> /dev/null |
					awk -v s="$sym" '$NF == s { sub(/:.*/, "", $1); print $1 }' | tr '\n' ' ')"
			done | head -n 20
			echo "series-build: patch $n/$total uses symbols no patch up to it defines: $subj"
			exit 1
		fi
	fi
	printf 'series-build: %2d/%d builds (%4ds, %d warnings, %s): %s\n' \
		"$n" "$total" $(( $(date +%s) - s )) "$warn" "$what" "$subj"
done
echo "series-build: all $total patches build ($(( $(date +%s) - t0 ))s)"
