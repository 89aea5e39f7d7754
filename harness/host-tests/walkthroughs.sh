#!/bin/bash
# The host walk-throughs of Documentation/trace/markers.rst, word for word
# (harness/walkthrough.py): each in an empty directory of its own, with
# KDIR set to the test kernel's build directory, as the guide says. A
# guest walk-through NAME-guest continues NAME on that kernel: booted with
# Debian's perf and bpftrace and the modules NAME built (*.ko) in its
# current directory. "module" builds a module out of tree, and
# "module-guest" loads it and counts its marker with bpftrace.
# What each printed: build/logs/walkthrough-NAME.log.
# gcc-only: the walk-through builds with the guide's command, which names no compiler, against the GCC kernel, and boots it with perf and bpftrace (x86_64)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ "$KARCH" = x86_64 ] || { echo "x86_64 only: the tools image is x86's"; exit 77; }
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
	grep -qx "$wt-guest guest" "$tmp/list" || continue
	# The guest part, in the directory of the modules the host part
	# built (wherever in its directory it built them).
	mapfile -t kos < <(find "$tmp/$wt" -name '*.ko')
	[ ${#kos[@]} -gt 0 ] || { echo "$wt: built no module for $wt-guest"; rc=1; continue; }
	(cd "$TOP" && python3 harness/walkthrough.py $rst "$wt-guest") > "$tmp/walkthrough-$wt-guest.sh"
	printf 'cd /extra && sh ./walkthrough-%s-guest.sh\n' "$wt" > "$tmp/job-$wt.sh"
	glog=$LOGS/walkthrough-$wt-guest.log
	if GUEST_DIR=$B/guest-walkthrough "$TOP/harness/run.sh" -c -T -t 900 -l "$glog" \
		"$tmp/job-$wt.sh" "$tmp/walkthrough-$wt-guest.sh" "${kos[@]}" > "$tmp/run.txt" 2>&1 &&
	   grep -aqx "walk-through $wt-guest: [0-9]* commands, 0 failed" "$glog"; then
		grep -ax "walk-through $wt-guest: .*" "$glog"
	else
		grep -a 'WALK-FAIL\|walk-through' "$glog" 2> /dev/null || tail -n 30 "$tmp/run.txt"
		rc=1
	fi
done
exit $rc
