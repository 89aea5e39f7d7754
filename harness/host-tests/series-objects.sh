#!/bin/bash
# The cheap form of make series-build: after each patch of the series, the
# objects of the files it has added or changed so far build without a
# warning, with CONFIG_MARKERS=y from the first marker patch on, and use
# no symbol that only a later patch defines (harness/series-build.sh
# --objects). make series-build builds and links the whole kernel at each
# patch.
# gcc-only: the order of the patches and what each builds does not depend on the compiler, and the full clang build fails on a warning in our files
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

series_identity
# At the lowest priority: make check's guest runs beside it, against its
# timeout, and the test needs CPU for minutes (a make per patch).
nice -n 19 "$TOP/harness/series-build.sh" --objects | tee "$LOGS/series-objects.txt"
# From the first marker patch on, every patch builds with CONFIG_MARKERS=y.
first=$(grep -m1 -n '^series-build: .*builds.*): markers: ' "$LOGS/series-objects.txt" | cut -d: -f1)
[ -n "$first" ] || { echo "no patch named markers: built"; exit 1; }
if tail -n +"$first" "$LOGS/series-objects.txt" | grep '^series-build: .*builds (' |
	grep -v 'CONFIG_MARKERS=y'; then
	echo "the patches above build without CONFIG_MARKERS=y"; exit 1
fi
