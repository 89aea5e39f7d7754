# SPDX-License-Identifier: GPL-2.0
# A probe module that unloads with its probes still attached (an exit path
# that forgot marker_disable_probe() and sdt_disable_probe()): the registry
# detaches them when the module goes, says so with pr_err, and the sites
# never call into the freed module.
# warns: ^markers: module markers_forgetful left probe .* detaching it$
. /harness/lib.sh

L=/sys/kernel/debug/markers/list
M=/lib/modules/$(uname -r)/extra
modprobe marker-example || fail "modprobe marker-example"
modprobe sdt-example || fail "modprobe sdt-example"
insmod $M/markers_forgetful.ko || fail "insmod markers_forgetful"
grep '^subsys_open ' $L | grep -q ' armed 1 ' || fail "subsys_open not armed: $(grep '^subsys_open ' $L)"
wait_listing sdt_example:read " $SDT_ARMED 1 " || fail "sdt_example:read not armed: $(grep sdt_example:read $L)"
expect_eq "armed otherwise" "$(sdt_misarmed sdt_example:read)" ""
cat /proc/marker-example /proc/sdt-example > /dev/null

# Only what the unload printed counts (step_dmesg), not an earlier message.
step_mark "rmmod markers_forgetful"
rmmod markers_forgetful || fail "rmmod markers_forgetful"
step_dmesg | grep -q 'markers: module markers_forgetful left probe forgetful_probe \[markers_forgetful\] attached to subsys_open; detaching it' ||
	fail "no error for the MARK() probe: $(step_dmesg | grep 'left probe')"
step_dmesg | grep -q 'markers: module markers_forgetful left probe forgetful_sdt_probe \[markers_forgetful\] attached to sdt_example:read; detaching it' ||
	fail "no error for the SDT probe"
grep '^subsys_open ' $L | grep -q ' dormant 0 ' || fail "subsys_open still armed: $(grep '^subsys_open ' $L)"
wait_listing sdt_example:read ' dormant 0 ' || fail "sdt_example:read still armed: $(grep sdt_example:read $L)"
# The sites fire with no probe left to call into freed text.
cat /proc/marker-example /proc/sdt-example > /dev/null

# Pending probes of a forgetful module are dropped too.
rmmod sdt_example marker_example
insmod $M/markers_forgetful.ko || fail "insmod markers_forgetful, pending"
grep -q '^subsys_open - "" - pending 1 ' $L || fail "not pending: $(grep subsys_open $L)"
rmmod markers_forgetful
grep -q '^subsys_open ' $L && fail "pending probe of an unloaded module left: $(grep subsys_open $L)"
grep -q '^sdt_example:read ' $L && fail "pending SDT probe of an unloaded module left"
exit 0
