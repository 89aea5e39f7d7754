#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make stress: the reliability tests of make check at full length, in one
# boot of the test kernel (see harness/guest/stress.sh). Prints each test's
# result and figures; non-zero exit on a failure or a splat.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

guest_tools || die "cannot build the guest tools"
"$TOP/harness/run.sh" -t "${STRESS_TIMEOUT:-14400}" -l "$LOGS/stress.log" \
	"$TOP/harness/guest/stress.sh" $GUEST_TOOLS > /dev/null
rc=$?
grep -aE '^(MARKERS-TEST|MARKERS-TIME|storm|churn|fault|slab|failures)' "$LOGS/stress.log"
[ $rc = 0 ] || echo "stress: guest status $rc (3: a kernel splat; see $LOGS/stress.log)"
exit $rc
