#!/bin/bash
# The patch series (make patches): it is generated from harness/series.def,
# applies with git am onto a git tree of pristine 6.12, gives exactly the
# grafted tree (but for the files series.def excludes, with their reasons),
# and every patch passes checkpatch --strict but for the exceptions
# series.def gives per patch, each with its reason.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

python3 "$TOP/harness/series.py" generate > "$LOGS/series-generate.txt"
n=$(grep -c '/0[0-9][0-9][0-9]-' "$LOGS/series-generate.txt")
echo "make patches: $n files in build/patches (cover letter included)"
python3 "$TOP/harness/series.py" check
