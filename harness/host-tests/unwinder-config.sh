#!/bin/bash
# Markers need the ORC unwinder on x86: the SDT trampoline builds no
# frame-pointer frame, so the frame-pointer unwinder would lose the site's
# function from every stack trace taken in a probe (and objtool warns at
# the trampoline). Configure the test kernel with UNWINDER_FRAME_POINTER
# instead of ORC: CONFIG_MARKERS must go away, and come back with ORC.
# gcc-only: the unwinder a kernel with markers needs does not depend on the compiler
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cfg() {	# cfg UNWINDER_OPTION: configure in $tmp, print CONFIG_MARKERS's line
	make -s -C "$KSRC" O="$tmp" ARCH=x86_64 tinyconfig > /dev/null
	{ cat $FRAGMENTS; printf '# CONFIG_UNWINDER_ORC is not set\n'
	  printf '# CONFIG_UNWINDER_FRAME_POINTER is not set\nCONFIG_%s=y\n' "$1"; } > "$tmp/frag"
	# In $tmp: merge_config.sh makes its temporary files where it runs.
	(cd "$tmp" && "$KSRC/scripts/kconfig/merge_config.sh" -m -O "$tmp" "$tmp/.config" "$tmp/frag") > /dev/null
	make -s -C "$KSRC" O="$tmp" ARCH=x86_64 olddefconfig > /dev/null
	grep -E "^CONFIG_$1=|CONFIG_MARKERS[ =]" "$tmp/.config" || true
}
fp=$(cfg UNWINDER_FRAME_POINTER)
echo "with UNWINDER_FRAME_POINTER: $(echo $fp)"
grep -q '^CONFIG_UNWINDER_FRAME_POINTER=y' <<< "$fp" || { echo "frame pointers not configured"; exit 1; }
grep -q '^CONFIG_MARKERS=y' <<< "$fp" && { echo "CONFIG_MARKERS=y with the frame-pointer unwinder"; exit 1; }
orc=$(cfg UNWINDER_ORC)
echo "with UNWINDER_ORC: $(echo $orc)"
grep -q '^CONFIG_MARKERS=y' <<< "$orc" || { echo "CONFIG_MARKERS not set with ORC"; exit 1; }
