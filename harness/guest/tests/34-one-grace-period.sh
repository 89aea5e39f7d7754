# SPDX-License-Identifier: GPL-2.0
# One grace period per operation, none per site: disabling several SDT
# names from the control file, and unloading a module with armed SDT
# sites. (33-many-names: 500 MARK names in one command.)
. /harness/lib.sh

C=/sys/kernel/debug/markers/control
L=/sys/kernel/debug/markers/list
modprobe sdt-example || fail "modprobe sdt-example"
echo 'enable name sdt_example:*' > $C || fail "enable sdt_example:*"
n=$(grep -c "^sdt_example:.* $SDT_ARMED 1 " $L)
[ "$n" -ge 4 ] || fail "armed SDT sites: $n"
expect_eq "armed otherwise" "$(sdt_misarmed 'sdt_example:[^ ]*')" ""
gp_count_start
echo 'disable name sdt_example:*' > $C || fail "disable sdt_example:*"
expect_eq "grace periods to disable $n SDT names" "$(gp_count)" 1
grep -q "^sdt_example:.* $SDT_ARMED " $L && fail "still armed"

# A module unloaded with its SDT sites armed, against one unloaded with
# none: one grace period more, not one per site.
gp_count_start
rmmod sdt_example
base=$(gp_count)
modprobe sdt-example
echo 'enable name sdt_example:*' > $C || fail "enable sdt_example:*"
gp_count_start
rmmod sdt_example || fail "rmmod with armed sites"
armed=$(gp_count)
echo "rmmod: $base grace periods with no site armed, $armed with $n armed"
[ "$armed" -le $((base + 1)) ] || fail "rmmod with $n armed sites: $armed grace periods, $base without"
echo 'disable name sdt_example:*' > $C || fail "disable pending"
exit 0
