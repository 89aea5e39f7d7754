#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The `make stress` guest job: the reliability tests at full length, on the
# test kernel (KASAN, kmemleak, lockdep): a 100,000-cycle arm/disarm storm,
# 1,000 module load/unload cycles, 5,000 calls and 500 module loads under
# fault injection, a load with each of its allocations failed in turn
# (the registry's, then the whole load's), 20 rounds of CPU hotplug under
# arming, 500 reloads of a module whose pr_debug() events are on, and
# 10,000 writes of the control-file fuzz.
export STORM_CYCLES=${STORM_CYCLES:-100000}
export CHURN_CYCLES=${CHURN_CYCLES:-1000}
export FAULT_CALLS=${FAULT_CALLS:-5000}
export FAULT_LOADS=${FAULT_LOADS:-500}
export FUZZ_COUNT=${FUZZ_COUNT:-10000}
export NTH_STRIDE=${NTH_STRIDE:-1}
export HOTPLUG_ROUNDS=${HOTPLUG_ROUNDS:-20}
export DYNDBG_RELOADS=${DYNDBG_RELOADS:-500}
fails=0
for t in 40-storm 41-module-churn 42-fault-injection 53-fault-nth 55-hotplug 61-dyndbg 90-control-fuzz; do
	echo "--- $t"
	t0=$(date +%s)
	if sh /harness/tests/$t.sh; then
		echo "MARKERS-TEST: PASS $t"
	else
		echo "MARKERS-TEST: FAIL $t"
		fails=$((fails + 1))
	fi
	echo "MARKERS-TIME $t $(( $(date +%s) - t0 ))"
done
exit $((fails > 0))
