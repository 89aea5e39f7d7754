# SPDX-License-Identifier: GPL-2.0
# Module churn: CHURN_CYCLES loads and unloads of a module with MARK() and
# SDT sites (harness/tools/module-churn.c), its names' probes alternately
# pending when it comes and armed when it goes; the registry stays
# consistent, and the slab objects (after 60 cycles of warm-up;
# debugobjects' and kmemleak's own caches and the reclaimable ones left
# out: module-churn.c) grow by less than 32 kB plus 128 bytes a cycle.
# A cycle keeps no object: 1,000 cycles moved the sum by -2 kB (commit
# 816b803), so growth in proportion to the cycles is a leak, and the
# bound scales with them. 32 kB, a fixed allowance: what the rest of the
# kernel allocates meanwhile, and the objects of partial per-CPU slabs,
# neither of which grows with the cycles. 128 bytes a cycle: a leak of L
# bytes a cycle fails once (L - 128) * cycles passes 32 kB: from about
# 160 bytes a cycle in make stress (1,000 cycles), about 450 in make check
# (100), where the old fixed 256 kB let 2.5 kB a cycle through. No
# /sys/kernel/slab, or no cache in it, is no measure: a failure. kmemleak's
# scan at the end of the run must find nothing.
. /harness/lib.sh

M=/lib/modules/$(uname -r)/extra
rmmod markers_stress 2>/dev/null	# left by an earlier test's failure
insmod $M/markers_stress.ko || fail "insmod markers_stress"
/extra/module-churn $M/markers_churn.ko markers_churn churn 60 > /dev/null ||
	fail "warm-up"
[ -d /sys/kernel/slab ] || fail "no /sys/kernel/slab: the slab objects cannot be measured"
cycles=${CHURN_CYCLES:-100}
r=$(/extra/module-churn $M/markers_churn.ko markers_churn churn $cycles) ||
	fail "module-churn: $r"
echo "$r"
set -- $(echo "$r" | sed -n 's/.* bad \([0-9]*\) slab-kb \([0-9]*\) \([0-9]*\)$/\1 \2 \3/p')
[ $# = 3 ] || fail "no result: $r"
expect_eq "bad" "$1" 0
[ "$2" -gt 0 ] && [ "$3" -gt 0 ] || fail "no slab objects measured: $r"
bound=$(( 32 + cycles * 128 / 1024 ))
echo "slab objects grew by $(( $3 - $2 )) kB over $cycles cycles (bound $bound kB)"
[ $(( $3 - $2 )) -lt $bound ] || fail "slab objects grew by $(( $3 - $2 )) kB, bound $bound kB"
grep -q '^churn' /sys/kernel/debug/markers/list && fail "churn names left: $(grep '^churn' /sys/kernel/debug/markers/list)"
rmmod markers_stress
exit 0
