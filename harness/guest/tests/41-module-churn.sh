# SPDX-License-Identifier: GPL-2.0
# Module churn: CHURN_CYCLES loads and unloads of a module with MARK() and
# SDT sites (harness/tools/module-churn.c), its names' probes alternately
# pending when it comes and armed when it goes; the registry stays
# consistent, and the slab objects grow by less than 256 kB (after 60
# cycles of warm-up; debugobjects' and kmemleak's own caches left out:
# module-churn.c). kmemleak's scan at the end of the run must find
# nothing.
. /harness/lib.sh

M=/lib/modules/$(uname -r)/kernel/kernel/markers/tests
rmmod markers_stress 2>/dev/null	# left by an earlier test's failure
insmod $M/markers_stress.ko || fail "insmod markers_stress"
/extra/module-churn $M/markers_churn.ko markers_churn churn 60 > /dev/null ||
	fail "warm-up"
r=$(/extra/module-churn $M/markers_churn.ko markers_churn churn ${CHURN_CYCLES:-100}) ||
	fail "module-churn: $r"
echo "$r"
set -- $(echo "$r" | sed -n 's/.* bad \([0-9]*\) slab-kb \([0-9]*\) \([0-9]*\)$/\1 \2 \3/p')
[ $# = 3 ] || fail "no result: $r"
expect_eq "bad" "$1" 0
echo "slab objects grew by $(( $3 - $2 )) kB over ${CHURN_CYCLES:-100} cycles"
[ $(( $3 - $2 )) -lt 256 ] || fail "slab objects grew by $(( $3 - $2 )) kB"
grep -q '^churn' /sys/kernel/debug/markers/list && fail "churn names left: $(grep '^churn' /sys/kernel/debug/markers/list)"
rmmod markers_stress
exit 0
