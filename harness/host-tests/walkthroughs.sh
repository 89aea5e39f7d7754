#!/bin/bash
# The host walk-throughs of Documentation/trace/markers.rst, word for word
# (harness/walkthrough.py): each in an empty directory of its own, with
# MARKERS set to this repository, as the guide says. "module" builds a
# module out of tree against make kdir and loads it in the guest with
# make run TOOLS=1 (a boot of the test kernel, Debian's bpftrace in it).
# What each printed: build/logs/walkthrough-NAME.log.
# gcc-only: the walk-through builds with the guide's command, which names no compiler, against the GCC kernel, and boots it with perf and bpftrace (x86_64)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ "$KARCH" = x86_64 ] || { echo "x86_64 only: the tools image is x86's"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
names=$(cd "$TOP" && python3 harness/walkthrough.py Documentation/trace/markers.rst |
	sed -n 's/ host$//p')
[ -n "$names" ] || { echo "no host walk-through in markers.rst"; exit 1; }
rc=0
for wt in $names; do
	(cd "$TOP" && python3 harness/walkthrough.py Documentation/trace/markers.rst "$wt") \
		> "$tmp/$wt.sh"
	mkdir "$tmp/$wt"
	if (cd "$tmp/$wt" && MARKERS=$TOP TMPDIR=$tmp bash "$tmp/$wt.sh") \
		> "$LOGS/walkthrough-$wt.log" 2>&1; then
		tail -n 1 "$LOGS/walkthrough-$wt.log"
	else
		cat "$LOGS/walkthrough-$wt.log"
		rc=1
	fi
done
exit $rc
