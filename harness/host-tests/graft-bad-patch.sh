#!/bin/bash
# A patch that no longer applies fails the graft with a message naming the
# patch and the file, and leaves the grafted tree as it was; two grafts at
# once both pass.
# gcc-only: grafting does not depend on the compiler
set -uo pipefail
. "$(dirname "$0")/../lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$TOP/patches/"*.patch "$TOP/patches/series" "$tmp/"
# Make the first hunk of 0002 expect a line the tree does not have.
sed -i '0,/^ 		\*(__tracepoints_strings)/s//  		*(__no_such_line)/' \
	"$tmp/0002-markers-collect-__markers-sections.patch"
before=$(md5sum "$KSRC/include/asm-generic/vmlinux.lds.h")
if out=$(PATCHES=$tmp "$TOP/harness/graft.sh" 2>&1); then
	echo "graft succeeded with a broken patch"; exit 1
fi
echo "$out" | tail -n 3
echo "$out" | grep -q 'patch patches/0002-markers-collect-__markers-sections.patch does not apply to include/asm-generic/vmlinux.lds.h' ||
	{ echo "the error does not name the patch and the file"; exit 1; }
[ "$(md5sum "$KSRC/include/asm-generic/vmlinux.lds.h")" = "$before" ] ||
	{ echo "the tree changed"; exit 1; }
# Grafting with the real patches again, twice: the second changes nothing.
"$TOP/harness/graft.sh" > /dev/null 2>&1 || { echo "re-graft failed"; exit 1; }
"$TOP/harness/graft.sh" 2>&1 | grep -q ', 0 changed since last graft' ||
	{ echo "re-graft was not incremental"; exit 1; }
# Two grafts at once (make check's host tests series and this one may
# run together): each waits for the other, and both pass.
"$TOP/harness/graft.sh" > /dev/null 2>&1 &
other=$!
"$TOP/harness/graft.sh" > /dev/null 2>&1 || { echo "a graft beside another failed"; exit 1; }
wait "$other" || { echo "a graft beside another failed"; exit 1; }
echo "two grafts at once: both passed"
