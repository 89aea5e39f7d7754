# SPDX-License-Identifier: GPL-2.0
# Arm/disarm storm: kthreads on every vCPU fire MARK() and SDT sites while
# four threads attach and detach probes to their names STORM_CYCLES times
# in all (marker_set_probe(), sdt_set_probe()), and the shell switches some
# of the same names from the control file. No probe may run after its
# detach returned, nor still run when it returns (the probes linger to
# widen that window); no splat; the registry ends consistent with the
# text. make check runs 3,000 cycles; make stress 100,000.
#
# What single-threaded TCG can catch: its vCPUs take turns, a slice
# of translated blocks each, so a probe is often preempted mid-run on one
# vCPU while another detaches, and a detach that did not wait for the
# grace period (or for a kprobe's handlers) returns with the probe in
# flight. What it cannot: no two vCPUs run at the same instant, so races
# a few instructions wide, memory ordering beyond sequential consistency,
# and stale instruction fetches after text_poke (QEMU drops translated
# code that is written) are out of its reach. Multi-threaded TCG would
# reach the first two, but runs stale translated code of its own (see
# harness/run.sh): make check does not use it.
. /harness/lib.sh

S=/sys/kernel/debug/markers_stress
C=/sys/kernel/debug/markers/control
rmmod markers_stress 2>/dev/null	# left by an earlier test's failure
insmod /lib/modules/$(uname -r)/extra/markers_stress.ko ||
	fail "insmod markers_stress"
# Expedited grace periods, so that each detach waits milliseconds rather
# than jiffies: same guarantees, and the storm fits in CI time under TCG.
echo 1 > /sys/kernel/rcu_expedited
rm -f /tmp/storm.done
(
	n=0
	while [ ! -f /tmp/storm.done ]; do
		echo 'enable name stress_m[0-3]; enable name stress:s[0-3] to printk' > $C &&
		echo 'disable name stress_m[0-3]; disable name stress:s[0-3]' > $C ||
			echo "control write failed" > /tmp/storm.ctlerr
		n=$((n + 2))
	done
	echo $n > /tmp/storm.ctl
) &
t=$(date +%s)
echo ${STORM_CYCLES:-3000} > $S/storm || fail "storm write"
touch /tmp/storm.done
wait
echo 0 > /sys/kernel/rcu_expedited
r=$(cat $S/storm)
echo "$r control-writes $(cat /tmp/storm.ctl) in $(( $(date +%s) - t ))s"
[ -f /tmp/storm.ctlerr ] && fail "$(cat /tmp/storm.ctlerr)"
echo "$r" | grep -q "^storm cycles ${STORM_CYCLES:-3000} calls [1-9][0-9]* late 0 running 0 errors 0 inconsistent 0$" ||
	fail "storm: $r"
rmmod markers_stress
exit 0
