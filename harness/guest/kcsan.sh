#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The `make kcsan` guest job: on the KCSAN kernel, the storm, module churn
# and CPU hotplug tests, where sites fire on some CPUs while others patch
# them, and CPUs come and go: the storm and the churn ten times make
# check's lengths (each race gets more chances to meet a watchpoint).
export STORM_CYCLES=${STORM_CYCLES:-30000} CHURN_CYCLES=${CHURN_CYCLES:-1000}
fails=0
for t in 40-storm 41-module-churn 55-hotplug; do
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
