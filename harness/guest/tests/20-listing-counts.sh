# SPDX-License-Identifier: GPL-2.0
# Site counts per object in the debugfs listing, for harness/check.sh to
# compare with what markers-list finds offline in the same build.
. /harness/lib.sh

L=/sys/kernel/debug/markers/list
modprobe marker-example || fail "modprobe marker-example"
modprobe sdt-example || fail "modprobe sdt-example"
insmod "/lib/modules/$(uname -r)/kernel/samples/markers/marker-bench.ko" rows= ||
	fail "insmod marker-bench"
# Dynamic debug sites are in no __markers section: test 61 counts them.
for m in marker_example sdt_example marker_bench; do
	echo "LISTING-COUNT $m $(grep -v ' dyndbg "' $L | grep -c " \[$m\] ")"
done
echo "LISTING-COUNT vmlinux $(grep -v '^#' $L | grep -v ' dyndbg "' | grep -v ' \[[a-z_0-9]*\] ' |
	grep -vc ' pending ')"
rmmod marker_bench sdt_example marker_example
exit 0
