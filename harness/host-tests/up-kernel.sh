#!/bin/bash
# The uniprocessor kernel: FLAVOUR=up (markers.config, markers-x86_64.config
# and markers-up.config: CONFIG_SMP, CONFIG_MARKERS_CONTROL and
# CONFIG_MARKERS_EVENTS off) builds without a warning in our files, boots,
# and passes the SDT suites and the registry's (harness/guest/up.sh): every
# step must pass, with no kernel splat.
# gcc-only: what it checks is the code without CONFIG_SMP and the two options, not the compiler's
set -euo pipefail
export FLAVOUR=up
. "$(dirname "$0")/../lib.sh"

# At the lowest priority: make check's guests run beside it, against
# their timeouts.
nice -n 19 "$TOP/harness/build.sh"
rc=0
GUEST_DIR=$B/guest-up nice -n 19 "$TOP/harness/run.sh" -c -t 600 \
	-l "$LOGS/up-kernel-guest.log" "$TOP/harness/guest/up.sh" || rc=$?
steps=$(sed -n 's/^t \([a-z_]*\)$/\1/p' "$TOP/harness/guest/up.sh")
for s in $steps; do
	grep -aqx "MARKERS-TEST: PASS $s" "$LOGS/up-kernel-guest.log" ||
		{ echo "step $s: $(grep -a "MARKERS-TEST: [A-Z]* $s\$" "$LOGS/up-kernel-guest.log" || echo no result)"; rc=1; }
done
[ "$rc" = 0 ] || { echo "the UP boot failed (run.sh: $rc)"; exit 1; }
echo "UP kernel: $(echo $steps | wc -w) steps passed"
