# SPDX-License-Identifier: GPL-2.0
# The control file against a module of 5000 distinct names: a command is
# matched per name (not per site and name), so "enable name *" answers
# E2BIG (over 1024 names) at once, and a command over 500 names is applied
# and undone with one grace period for all the detachments. The names are
# guards (which record nothing, so have no trace event): printk's probes
# arm them.
. /harness/lib.sh

C=/sys/kernel/debug/markers/control
M=/lib/modules/$(uname -r)/extra
F=/sys/kernel/debug/markers_many/fire
insmod $M/markers_many.ko || fail "insmod markers_many"
cp $C /tmp/c0
# Distinct names: a line is a site, and GCC may copy a guard (arm64).
expect_eq "names" "$(grep -o '^many_m[0-9]* guard ' /tmp/c0 | sort -u | wc -l)" 5000
t=$(date +%s)
write_expect_err $C 'enable name *' 'too long'
write_expect_err $C 'enable name many_m*' 'too long'
dt=$(( $(date +%s) - t ))
echo "two E2BIG writes over 5000 names: ${dt}s"
[ $dt -le 10 ] || fail "matching 5000 names took ${dt}s"
cmp -s $C /tmp/c0 || fail "a refused write changed the state"

echo 'enable name many_m1[0-4]* to printk' > $C || fail "enable 500 names"
step_mark "fire, armed"
echo 1 > $F
step_dmesg | grep -q 'markers_many: 500 of the many guards armed' || fail "not 500 armed: $(step_dmesg | grep guards | tail -n 1)"
gp_count_start
echo 'disable name many_m1[0-4]*' > $C || fail "disable many_m1[0-4]*"
expect_eq "grace periods for 500 detachments" "$(gp_count)" 1
step_mark "fire, disarmed"
echo 1 > $F
step_dmesg | grep 'guards armed' | tail -n 1 | grep -q ' 0 of the many' || fail "still armed: $(step_dmesg | grep guards)"
rmmod markers_many
exit 0
