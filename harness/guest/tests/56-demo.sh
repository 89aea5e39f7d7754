# SPDX-License-Identifier: GPL-2.0
# make demo's guest job (harness/guest/demo.sh), as make demo runs it:
# every command of it must do what the demo shows (its exit status, and
# the lines each command's output must have), or the demo exits 1 naming
# it ("DEMO-FAIL: ..."). In the boot with Debian's perf and bpftrace,
# which its last step runs.
# needs: run.sh -T
. /harness/lib.sh

sh /harness/demo.sh > /tmp/demo.out 2>&1
rc=$?
grep -E '^(DEMO-FAIL|demo:)' /tmp/demo.out
[ $rc = 0 ] || { cat /tmp/demo.out; fail "make demo's job exited $rc"; }
grep -q '^demo: [0-9]* commands, 0 did not' /tmp/demo.out || fail "no tally from the demo"
exit 0
