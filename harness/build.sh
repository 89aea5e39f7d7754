#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Configure (tinyconfig + the fragments of $FLAVOUR, see lib.sh) and build
# bzImage and modules, incrementally. Then install the modules for the guest.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mkdir -p "$KOBJ" "$LOGS"
# One build at a time in a build directory: make check builds the UP
# kernel beside the test kernel (harness/build-beside.sh), and its host
# test builds it again.
exec 9> "$KOBJ.lock"
flock 9
CLOG=$LOGS/config$SFX.log

# Configuration is redone only when its inputs changed: the fragment, any
# Kconfig file we graft or patch, or the kernel version.
cfg_inputs() {
	cat $FRAGMENTS "$B/tarball.stamp"
	{ grep -E "(^|/)Kconfig" "$B/grafted.list" || true; } | (cd "$KSRC" && xargs -r cat)
}
want=$(cfg_inputs | sha256sum | cut -d' ' -f1)
if [ ! -f "$KOBJ/.config" ] || [ "$(cat "$KOBJ/.markers-config.stamp" 2>/dev/null)" != "$want" ]; then
	say "build: configuring $FLAVOUR kernel (tinyconfig + $(for f in $FRAGMENTS; do basename "$f"; done | paste -sd+))"
	"${KMAKE[@]}" -s tinyconfig > "$CLOG" 2>&1 ||
		{ tail -n 20 "$CLOG"; die "tinyconfig failed"; }
	# merge_config.sh makes its temporary files in the current
	# directory: not in the repository, where a host test's view of it
	# (add-site) would see them come and go.
	(cd "$KOBJ" && "$KSRC/scripts/kconfig/merge_config.sh" -m -O "$KOBJ" "$KOBJ/.config" \
		$FRAGMENTS) >> "$CLOG" 2>&1 ||
		{ tail -n 20 "$CLOG"; die "merge_config failed"; }
	"${KMAKE[@]}" -s olddefconfig >> "$CLOG" 2>&1 ||
		{ tail -n 20 "$CLOG"; die "olddefconfig failed"; }
	# Every option of the fragments must have stuck (a later fragment
	# overrides an earlier one, as in merge_config.sh).
	bad=0
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=n)
			opt=${line%%=*}
			if grep -q "^$opt=" "$KOBJ/.config"; then
				say "config: $opt is set, the fragment wants it off"; bad=1
			fi ;;
		CONFIG_*=*)
			if ! grep -qxF "$line" "$KOBJ/.config"; then
				got=$(grep -E "^(# )?${line%%=*}[= ]" "$KOBJ/.config" || echo "absent")
				say "config: $line did not stick (got: $got)"; bad=1
			fi ;;
		esac
	done < <(cat $FRAGMENTS | awk -F= '/^CONFIG_/ { if (!($1 in v)) o[n++] = $1; v[$1] = $0 }
		END { for (i = 0; i < n; i++) print v[o[i]] }')
	[ $bad = 0 ] || die "config: options of the $FLAVOUR fragments did not stick (missing dependency?)"
	echo "$want" > "$KOBJ/.markers-config.stamp"
fi

say "build: make -j$NPROC $(basename "$KIMAGE") modules"
start=$(date +%s)
if ! "${KMAKE[@]}" "$(basename "$KIMAGE")" modules > "$LOGS/build$SFX.log" 2>&1; then
	grep -E 'error|Error' "$LOGS/build$SFX.log" | head -n 40 >&2 || true
	tail -n 30 "$LOGS/build$SFX.log" >&2
	die "kernel build failed (full log: $LOGS/build$SFX.log)"
fi
# Warnings: all are shown; one in a file of ours (compiler or objtool, by
# the file's path without its extension) fails the build.
if grep -E ': warning:' "$LOGS/build$SFX.log" >&2; then
	ours=$(grep -E ': warning:' "$LOGS/build$SFX.log" | sed 's|^\(\.\./linux/\)\?\([^:]*\):.*|\2|' |
		sed 's|\.[^./]*$||' | sort -u |
		grep -xFf <(sed 's|\.[^./]*$||' "$B/grafted.list") || true)
	[ -z "$ours" ] || die "build warnings in our files: $(echo $ours)"
fi
# objtool's warnings on vmlinux.o and modpost's section mismatches name a
# function or a module, not a file (late_warnings, lib.sh).
bad=$(late_warnings "$LOGS/build$SFX.log")
[ -z "$bad" ] || die "objtool or modpost warnings on code of ours: $(echo $bad)"

# The guest tests' own modules (harness/modules/, not in the series),
# built out of tree on a test kernel: kbuild writes an external module's
# objects beside its sources, so they are built from a copy in $TMODS.
TMODS=$B/test-modules$SFX
if grep -q '^CONFIG_MARKERS_KUNIT_TEST=m' "$KOBJ/.config"; then
	mkdir -p "$TMODS"
	for f in "$TOP"/harness/modules/*; do
		cmp -s "$f" "$TMODS/$(basename "$f")" || cp "$f" "$TMODS/"
	done
	# kbuild links an external module again when its objects change,
	# not when vmlinux does, whose BTF its own refers to.
	find "$TMODS" -name '*.ko' ! -newer "$KOBJ/vmlinux" -delete
	if ! "${KMAKE[@]}" M="$TMODS" modules > "$LOGS/test-modules$SFX.log" 2>&1 ||
		grep -E ': warning:' "$LOGS/test-modules$SFX.log" >&2; then
		tail -n 30 "$LOGS/test-modules$SFX.log" >&2
		die "the test modules of harness/modules/ do not build without warnings (log: $LOGS/test-modules$SFX.log)"
	fi
else
	rm -rf "$TMODS"
fi

# Modules for the guest, with modules.dep so modprobe works; the test
# modules in /lib/modules/$(uname -r)/extra/. Only redone when a module
# changed.
modstamp=$(find "$KOBJ" "$TMODS" -name '*.ko' -newer "$MODROOT.stamp" 2>/dev/null | head -n 1 || true)
want_extra=$([ ! -d "$TMODS" ] || echo y)
have_extra=$([ ! -d "$MODROOT/lib/modules/$(cat "$KOBJ/include/config/kernel.release")/extra" ] || echo y)
if [ ! -f "$MODROOT.stamp" ] || [ -n "$modstamp" ] || [ "$KOBJ/modules.order" -nt "$MODROOT.stamp" ] ||
	[ "$want_extra" != "$have_extra" ]; then
	rm -rf "$MODROOT"
	{ "${KMAKE[@]}" -s INSTALL_MOD_PATH="$MODROOT" INSTALL_MOD_STRIP=1 modules_install &&
	  { [ ! -d "$TMODS" ] ||
	    "${KMAKE[@]}" -s M="$TMODS" INSTALL_MOD_PATH="$MODROOT" INSTALL_MOD_DIR=extra INSTALL_MOD_STRIP=1 \
		modules_install; }
	} > "$LOGS/modules_install$SFX.log" 2>&1 ||
		{ tail -n 20 "$LOGS/modules_install$SFX.log"; die "modules_install failed"; }
	touch "$MODROOT.stamp"
fi
say "build: done in $(( $(date +%s) - start ))s: $KOBJ/$KIMAGE"
