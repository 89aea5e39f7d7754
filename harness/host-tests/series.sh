#!/bin/bash
# The patch series (make patches): it is generated from harness/series.def,
# applies with git am onto a git tree of pristine 6.12, gives exactly the
# grafted tree (but for the files series.def excludes, with their reasons),
# and every patch passes checkpatch --strict but for the exceptions
# series.def gives per patch, each with its reason.
# gcc-only: the patches, git am and checkpatch do not depend on the compiler
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

# Without a git identity, make patches stops and says how to set one.
if GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0= \
	GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1= \
	env -u GIT_AUTHOR_NAME -u GIT_AUTHOR_EMAIL \
	python3 "$TOP/harness/series.py" generate > "$LOGS/series-noident.txt" 2>&1; then
	echo "make patches signed the series off without a git identity"; exit 1
fi
grep -q "no git identity to sign the patches off with" "$LOGS/series-noident.txt" ||
	{ cat "$LOGS/series-noident.txt"; echo "make patches failed without saying why"; exit 1; }
echo "make patches without a git identity: refused, as it should be"
series_identity
python3 "$TOP/harness/series.py" generate > "$LOGS/series-generate.txt"
n=$(grep -c '/0[0-9][0-9][0-9]-' "$LOGS/series-generate.txt")
echo "make patches: $n files in build/patches (cover letter included)"
python3 "$TOP/harness/series.py" check
