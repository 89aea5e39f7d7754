#!/bin/bash
# The host walk-throughs of Documentation/trace/markers.rst, word for word
# (harness/walkthrough.py): each in an empty directory of its own, with
# KDIR set to the test kernel's build directory, as the guide says.
# "module" builds a module out of tree; its guest part, "module-guest",
# loads that module (built again by harness/check.sh, the same way) in the
# tools boot: guest/58-walkthrough-module-guest.
# What each printed: build/logs/walkthrough-NAME.log.
# gcc-only: the walk-through builds with the guide's command, which names no compiler, against the GCC kernel
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ "$KARCH" = x86_64 ] || { echo "x86_64 only: the guide's command builds for the host"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rst=Documentation/trace/markers.rst
(cd "$TOP" && python3 harness/walkthrough.py $rst) > "$tmp/list"
names=$(sed -n 's/ host$//p' "$tmp/list")
[ -n "$names" ] || { echo "no host walk-through in markers.rst"; exit 1; }
rc=0
for wt in $names; do
	log=$LOGS/walkthrough-$wt.log
	(cd "$TOP" && python3 harness/walkthrough.py $rst "$wt") > "$tmp/$wt.sh"
	mkdir "$tmp/$wt"
	if ! (cd "$tmp/$wt" && KDIR=$KOBJ TMPDIR=$tmp bash "$tmp/$wt.sh") > "$log" 2>&1; then
		cat "$log"
		rc=1
		continue
	fi
	tail -n 1 "$log"
done
exit $rc
