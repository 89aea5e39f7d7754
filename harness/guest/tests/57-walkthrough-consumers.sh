# SPDX-License-Identifier: GPL-2.0
# The walk-through "markers from perf, bpftrace and trace-cmd" of
# Documentation/trace/markers.rst, word for word: harness/walkthrough.py
# makes /extra/walkthrough-consumers.sh of its block, in which every
# command must exit 0 and print the lines the guide shows under it.
# needs: run.sh -T
. /harness/lib.sh

W=/extra/walkthrough-consumers.sh
[ -f $W ] || fail "no $W (harness/check.sh makes it)"
sh $W > /tmp/walk.log 2>&1
rc=$?
cat /tmp/walk.log
[ $rc = 0 ] || fail "the walk-through failed (WALK-FAIL lines above)"
grep -q '^walk-through consumers: [0-9]* commands, 0 failed$' /tmp/walk.log ||
	fail "the walk-through did not end with its tally"
exit 0
