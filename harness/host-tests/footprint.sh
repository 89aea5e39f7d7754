#!/bin/bash
# The footprint of a site (harness/footprint.sh, which make bench runs on
# the bench kernel), on the test kernel: every kind gives a figure, and
# they stand as they must whatever the configuration: an SDT site adds
# less than a MARK() with as many arguments, a MARK() less than a bare
# tracepoint, and a bare tracepoint less than a DEFINE_EVENT, itself less
# than a TRACE_EVENT; more MARK() arguments, more bytes. Its breakdown by
# section adds up.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

"$TOP/harness/footprint.sh"
csv=$B/footprint$(basename "$KOBJ" | sed 's/^obj//').csv
per() {
	awk -F, -v k="$1" '$1 == k { print $5 }' "$csv" | grep -x '[0-9][0-9]*' ||
		{ echo "no figure for $1 in $csv"; exit 1; }
}
lt() {
	[ "$(per "$1")" -lt "$(per "$2")" ] ||
		{ echo "a $1 site adds $(per "$1") bytes, a $2 site $(per "$2"): want fewer"; exit 1; }
}
lt sdt1 mark2
lt mark0 mark2
lt mark2 mark6
lt mark2 declare_trace
lt declare_trace define_event
lt define_event trace_event
# A pr_debug() (the test kernel has dynamic debug): its _ddebug record,
# strings and call, more than an SDT site and less than a tracepoint.
lt sdt1 pr_debug
lt pr_debug declare_trace
# Where a MARK() site's bytes go: the breakdown misses no section (its
# sections add up to the site's figure, which sums the same sections: a
# check of the join, not of the kernel), and the site's record in
# __markers is six 32-bit offsets, as arch/*/include/asm/marker.h lays
# it out.
scsv=${csv%.csv}-sections.csv
sum=$(awk -F, '$1 == "mark2" { t += $3 } END { printf "%d", t + 0.5 }' "$scsv")
[ "$sum" -ge $(($(per mark2) - 1)) ] && [ "$sum" -le $(($(per mark2) + 1)) ] ||
	{ echo "mark2's sections add up to $sum bytes a site, its figure is $(per mark2)"; exit 1; }
rec=$(awk -F, '$1 == "mark2" && $2 == "__markers" { print $3 }' "$scsv")
[ "$rec" = 24.0 ] || { echo "mark2's __markers: '$rec' bytes a site, want 24.0"; exit 1; }
echo "footprint: $(tr '\n' ' ' < "$csv")"
echo "footprint: $(grep '^mark2,' "$scsv" | cut -d, -f2,3 | tr '\n' ' ')"
